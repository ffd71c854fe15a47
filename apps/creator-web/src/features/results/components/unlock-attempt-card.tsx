import { formatResumeCode, UnlockAttemptSchema } from '@exam/domain/attempt-binding';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { LockOpen } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useUnlockAttempt } from '../api/unlock-attempt.ts';
import { formatTime } from '../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';

/**
 * For a candidate who cannot give their resume code on a new device: the examiner unlocks their attempt
 * in progress by candidate ID (in-progress attempts have no row in the submissions table yet) and hands them
 * the one-time unlock code shown here; the candidate ID alone never continues an attempt.
 */
export function UnlockAttemptCard({ examId }: { examId: string }) {
  const { t } = useTranslation('results');
  const [studentId, setStudentId] = useState('');
  const [error, setError] = useState<string>();
  const unlock = useUnlockAttempt(examId);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    const parsed = UnlockAttemptSchema.safeParse({ examId, studentId });
    if (!parsed.success) return setError(t('unlockAttemptCard.candidateIdIsRequired'));
    unlock.mutate(parsed.data.studentId, { onError: (failure) => setError(userMessageOf(failure)) });
  }

  return (
    <Card className="mt-6 p-4">
      <h2 className="text-base font-semibold text-ink">{t('unlockAttemptCard.letACandidateContinue')}</h2>
      <p className="mt-1 text-sm text-muted">{t('unlockAttemptCard.aCandidateWhoLost')}</p>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={onSubmit} noValidate>
        <Field label={t('unlockAttemptCard.candidateId')} error={error} className="min-w-56">
          <Input
            name="unlockStudentId"
            value={studentId}
            onChange={(e) => setStudentId(e.target.value)}
            disabled={unlock.isPending}
          />
        </Field>
        <Button type="submit" disabled={unlock.isPending}>
          <LockOpen aria-hidden className="h-4 w-4" /> {t('unlockAttemptCard.unlockResume')}
        </Button>
      </form>
      {unlock.isSuccess && !error && (
        <p role="status" className="mt-3 text-sm text-success" data-testid="unlock-status">
          {t('unlockAttemptCard.nameStudentidCanContinue', {
            name: unlock.data.name,
            studentId: unlock.data.studentId,
            unlockCode: formatResumeCode(unlock.data.unlockCode),
            unlockedUntil: formatTime(unlock.data.unlockedUntil),
          })}
        </p>
      )}
    </Card>
  );
}
