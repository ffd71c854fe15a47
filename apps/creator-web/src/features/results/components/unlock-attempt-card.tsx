import { UnlockAttemptSchema } from '@exam/domain/attempt-binding';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { LockOpen } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUnlockAttempt } from '../api/unlock-attempt.ts';
import { formatTime } from '../../../lib/format-date.ts';

/**
 * For a candidate who cannot give their resume code on a new device: the examiner unlocks their attempt
 * in progress by candidate ID (in-progress attempts have no row in the submissions table yet).
 */
export function UnlockAttemptCard({ examId }: { examId: string }) {
  const [studentId, setStudentId] = useState('');
  const [error, setError] = useState<string>();
  const unlock = useUnlockAttempt(examId);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    const parsed = UnlockAttemptSchema.safeParse({ examId, studentId });
    if (!parsed.success) return setError('Candidate ID is required');
    unlock.mutate(parsed.data.studentId, { onError: (failure) => setError(userMessageOf(failure)) });
  }

  return (
    <Card className="mt-6 p-4">
      <h2 className="text-base font-semibold text-ink">Let a candidate continue on another device</h2>
      <p className="mt-1 text-sm text-muted">
        A candidate who lost their resume code (or whose candidate ID someone else used first) can continue without it
        once, within a few minutes of this unlock. Check who they are first.
      </p>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={onSubmit} noValidate>
        <Field label="Candidate ID" error={error} className="min-w-56">
          <Input
            name="unlockStudentId"
            value={studentId}
            onChange={(e) => setStudentId(e.target.value)}
            disabled={unlock.isPending}
          />
        </Field>
        <Button type="submit" disabled={unlock.isPending}>
          <LockOpen aria-hidden className="h-4 w-4" /> Unlock resume
        </Button>
      </form>
      {unlock.isSuccess && !error && (
        <p role="status" className="mt-3 text-sm text-success" data-testid="unlock-status">
          {`${unlock.data.name} (${unlock.data.studentId}) can continue without the code until ${formatTime(unlock.data.unlockedUntil)}.`}
        </p>
      )}
    </Card>
  );
}
