import type { PublicExam } from '@exam/domain/public-exam';
import { toast } from '@exam/ui/toaster';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import type { ResultsState } from '../../../lib/navigation-state.ts';
import type { SyncEngine } from '../lib/sync.ts';
import { exitFullscreen } from './use-proctoring.ts';
import { i18n } from '../../../i18n/index.ts';
import { totalQuestions } from '../lib/section-view.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';

/**
 * Submits once at a time: the engine sends what is pending, then the submit (a preview has no engine and
 * only counts the answers); then full screen is left and the completion page opens, or the follow-up room when
 * the exam asks follow-up questions. A failure leaves the candidate on the page to try again.
 */
export function useExamSubmit({
  exam,
  engineRef,
  answered,
  proctoring,
  attemptId,
  notice,
}: {
  exam: PublicExam;
  engineRef: RefObject<SyncEngine | null>;
  answered: number;
  /** Stops counting warnings while the page leaves full screen on purpose. */
  proctoring: { suspend: () => void };
  /** The attempt submitted, so the completion page can link to its result; none in a preview. */
  attemptId?: string | undefined;
  /** Set when the examiner ended the attempt: said on the completion page instead of the usual toast. */
  notice?: RefObject<string | undefined>;
}) {
  const navigate = useNavigate();
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);

  const submit = useCallback(async () => {
    if (submittingRef.current) return;
    submittingRef.current = true;
    setSubmitting(true);
    proctoring.suspend();
    try {
      const current = engineRef.current;
      const outcome = current ? await current.submit() : { answered, total: totalQuestions(exam) };
      await exitFullscreen();
      const ended = notice?.current;
      if (ended) toast.info(translateServerMessage(ended));
      else toast.success(i18n.t('exam:submit.success'));
      const state: ResultsState = {
        answered: outcome.answered,
        total: outcome.total,
        examTitle: exam.title,
        attemptId,
        ...(ended ? { notice: ended } : {}),
        ...(exam.practice ? { practice: true } : {}),
      };
      // Follow-up questions come next (docs/product.md "Follow-up questions"): the room, then the completion page.
      const next = 'followUp' in outcome && outcome.followUp && attemptId ? paths.followUp(exam.id) : paths.results;
      void navigate(next, { replace: true, state });
    } catch (error) {
      console.error('Submit failed', error);
      toast.error(i18n.t('exam:submit.failed'));
      submittingRef.current = false;
      setSubmitting(false);
    }
  }, [answered, exam, navigate, proctoring, engineRef, attemptId, notice]);

  return { submit, submitting };
}
