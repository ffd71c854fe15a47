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
import { getPublicExam } from '../../../lib/exam-api.ts';
import type { CredentialsState } from '../../../lib/navigation-state.ts';
import { findExamId, parseInviteToken, StartMessages } from '../lib/parse-exam-url.ts';

/** Which message a failed validation shows: not found, offline, or the network failure with its reason. */
function messageFor(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404 || error.status === 400) return StartMessages.notFound;
    if (error.code === 'EXAM_OFFLINE') return StartMessages.offline;
    return `${StartMessages.network} ${error.statusText || error.userMessage}`.trim();
  }
  return StartMessages.network;
}

export function ExamUrlForm() {
  const navigate = useNavigate();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const validate = useMutation({
    mutationFn: async (examId: string) => ({ examId, exam: await getPublicExam(examId) }),
    onSuccess: ({ examId, exam }) => {
      if (!exam.isLive) {
        setError(StartMessages.offline);
        return;
      }
      toast.success(StartMessages.found);
      const state: CredentialsState = {
        examId,
        examTitle: exam.title,
        examUrl: url.trim(),
        fullScreenRequested: exam.fullScreenEnabled,
        access: exam.access,
        ...(parseInviteToken(url) && { inviteToken: parseInviteToken(url) }),
      };
      void navigate(paths.credentials, { state });
    },
    onError: (failure) => setError(messageFor(failure)),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (!url.trim()) return setError(StartMessages.empty);
    const examId = findExamId(url);
    if (!examId) return setError(StartMessages.invalid);
    validate.mutate(examId);
  }

  return (
    <Card className="w-full max-w-md p-8">
      <h1 className="text-2xl font-semibold text-ink">Enter Exam URL</h1>
      <p className="mt-1 text-sm text-muted">Paste the link your test provider sent you.</p>
      <form className="mt-6 flex flex-col gap-4" onSubmit={onSubmit} noValidate>
        <Field label="Exam URL" error={error}>
          <Input
            type="url"
            name="examUrl"
            placeholder="https://…/exam/…"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            disabled={validate.isPending}
            autoFocus
          />
        </Field>
        <Button type="submit" disabled={validate.isPending}>
          {validate.isPending ? 'Checking…' : 'Continue'}
        </Button>
        <Button variant="ghost" onClick={() => void navigate(paths.home)}>
          Back to Home
        </Button>
      </form>
    </Card>
  );
}
