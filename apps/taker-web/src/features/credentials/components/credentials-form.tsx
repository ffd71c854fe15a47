import { StartAttemptSchema } from '@exam/domain/attempt';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { startAttempt } from '../../../lib/exam-api.ts';
import type { CredentialsState, ExamState } from '../../../lib/navigation-state.ts';
import { getTakerDb, saveStoredAttempt } from '../../../lib/taker-db.ts';

type Errors = { name?: string; studentId?: string };

/**
 * Fullscreen must be asked for inside the click; a refusal is logged and the exam goes on, since a browser
 * that cannot go full screen must not lock the candidate out.
 */
async function requestFullscreen(): Promise<void> {
  try {
    await document.documentElement.requestFullscreen();
  } catch (error) {
    console.warn('Fullscreen request was refused', error);
  }
}

export function CredentialsForm({ exam }: { exam: CredentialsState | undefined }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [studentId, setStudentId] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const start = useMutation({
    mutationFn: async (input: { examId: string; name: string; studentId: string }) => {
      const attempt = await startAttempt(input);
      await saveStoredAttempt(await getTakerDb(), {
        examId: input.examId,
        attemptId: attempt.attemptId,
        token: attempt.token,
        name: input.name,
        studentId: input.studentId,
        startedAt: attempt.startedAt,
        deadline: attempt.deadline,
        fullScreenRequested: exam?.fullScreenRequested ?? false,
      });
      return attempt;
    },
    onSuccess: (_attempt, input) => {
      if (!exam) return;
      const state: ExamState = { ...exam, name: input.name, studentId: input.studentId };
      void navigate(paths.exam(input.examId), { state });
    },
    onError: (error) =>
      toast.error(error instanceof ApiError ? error.userMessage : 'Could not start the exam. Please try again.'),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!exam) {
      void navigate(paths.start);
      return;
    }
    const parsed = StartAttemptSchema.safeParse({ examId: exam.examId, name, studentId });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'name') next.name = 'Full Name is required';
        if (issue.path[0] === 'studentId') next.studentId = 'Candidate ID is required';
      }
      setErrors(next);
      return;
    }
    setErrors({});
    if (exam.fullScreenRequested) void requestFullscreen();
    start.mutate(parsed.data);
  }

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold text-ink">Enter Your Details</h1>
      {exam?.examTitle && (
        <p className="mt-1 text-sm text-muted" data-testid="exam-title">
          {exam.examTitle}
        </p>
      )}
      <form className="mt-6 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <Field label="Full Name" error={errors.name}>
          <Input
            name="name"
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={start.isPending}
          />
        </Field>
        <Field label="Candidate ID" error={errors.studentId}>
          <Input
            name="studentId"
            required
            value={studentId}
            onChange={(e) => setStudentId(e.target.value)}
            disabled={start.isPending}
          />
        </Field>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Start Exam'}
        </Button>
        <Button variant="ghost" onClick={() => void navigate(paths.start)}>
          Back to URL Entry
        </Button>
      </form>
    </Card>
  );
}
