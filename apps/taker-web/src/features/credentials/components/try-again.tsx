import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import type { ExamState } from '../../../lib/navigation-state.ts';
import { findStoredAttemptById, getTakerDb } from '../../../lib/taker-db.ts';
import { startKeptAttempt } from '../api/start-attempt.ts';

/**
 * After a practice exam: a new attempt at once, as the same candidate (docs/product.md#practice-and-review). The
 * resume secret this browser kept proves who they are, as a further attempt requires, so no form is filled again.
 */
export function TryAgain({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('results');
  const navigate = useNavigate();
  const start = useMutation({
    mutationFn: async () => {
      const done = await findStoredAttemptById(await getTakerDb(), attemptId);
      if (!done) throw new Error('This browser holds no attempt to start again from');
      const input = { examId: done.examId, name: done.name, studentId: done.studentId };
      await startKeptAttempt(input, { fullScreenRequested: done.fullScreenRequested });
      const state: ExamState = {
        examId: done.examId,
        examTitle: done.exam?.title ?? '',
        fullScreenRequested: done.fullScreenRequested,
        name: done.name,
        studentId: done.studentId,
      };
      return state;
    },
    onSuccess: (state) => void navigate(paths.exam(state.examId), { state }),
    onError: (error) =>
      toast.error(
        error instanceof ApiError ? translateServerMessage(error.userMessage) : t('completion.tryAgainFailed'),
      ),
  });
  return (
    <Button className="mt-6" onClick={() => start.mutate()} disabled={start.isPending} data-testid="try-again">
      {t('completion.tryAgain')}
    </Button>
  );
}
