import { FOLLOW_UP_ANSWER_MAX, type FollowUpCurrent } from '@exam/domain/follow-up';
import { Button } from '@exam/ui/button';
import { Textarea } from '@exam/ui/input';
import { Send } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { submitFollowUpAnswer, type AttemptCredentials, type TimedFollowUpState } from '../api/follow-up.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { useFollowUpDraft } from '../hooks/use-follow-up-draft.ts';
import { ExamTimer } from './exam-timer.tsx';
import { SaveStatusIndicator } from './save-status.tsx';

type FollowUpQuestionProps = {
  attempt: AttemptCredentials;
  current: FollowUpCurrent;
  total: number;
  clockOffsetMs: number;
  /** The answer was submitted: the server's next state (the next question, or done). */
  onAnswered: (next: TimedFollowUpState) => void;
  /** The time ran out (the draft is sent first) or the server closed the question: the page reads the state. */
  onTimeUp: () => void;
  /** The candidate was working in the room when the previous question ended: the answer box takes the focus back. */
  focusAnswer: boolean;
};

/**
 * One follow-up question in the room: which answer it asks about, the question, the answer box saved as typed,
 * the countdown to its deadline on the server's clock (the exam's timer with its announcements) and Submit answer.
 * Mounted once per question (keyed by its number), as the countdown fires its expiry once.
 */
export function FollowUpQuestion(props: FollowUpQuestionProps) {
  const { attempt, current, total, clockOffsetMs, onAnswered, onTimeUp, focusAnswer } = props;
  const { t } = useTranslation('follow-up');
  const [phase, setPhase] = useState<'answering' | 'submitting' | 'closed'>('answering');
  const [error, setError] = useState<string | null>(null);
  const endedRef = useRef(false);
  const answerRef = useRef<HTMLTextAreaElement>(null);

  // Time up or closed by the server: once, whichever comes first; what was typed is sent before the page moves on.
  const close = useCallback(() => {
    if (endedRef.current) return;
    endedRef.current = true;
    setPhase('closed');
    onTimeUp();
  }, [onTimeUp]);
  const draft = useFollowUpDraft(attempt, current, close);
  const { flush } = draft;
  const expire = useCallback(() => {
    if (endedRef.current) return;
    setPhase('closed');
    void flush().finally(close);
  }, [flush, close]);
  const remaining = useCountdown(current.deadline, clockOffsetMs, expire);

  useEffect(() => {
    if (focusAnswer) answerRef.current?.focus();
  }, [focusAnswer]);

  const submit = async () => {
    if (phase !== 'answering') return;
    setPhase('submitting');
    setError(null);
    try {
      const next = await submitFollowUpAnswer(attempt, current.n, { answer: draft.text });
      endedRef.current = true;
      draft.finish();
      onAnswered(next);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409) return close();
      console.error('A follow-up answer could not be submitted', failure);
      setError(t('submitFailed'));
      setPhase('answering');
    }
  };

  const headingId = `follow-up-question-${current.n}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4" data-testid="follow-up-question">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {t('questionOf', { n: formatNumber(current.n), total: formatNumber(total) })}
        </h2>
        <div className="flex items-center gap-3">
          <SaveStatusIndicator status={draft.status} />
          {remaining !== null && <ExamTimer remaining={remaining} />}
        </div>
      </div>
      <p className="text-sm text-muted" data-testid="follow-up-probes">
        {t('about', { number: formatNumber(current.probes.questionNumber), title: current.probes.title })}
      </p>
      <p id={`${headingId}-text`} className="whitespace-pre-wrap break-words text-base text-ink">
        {current.text}
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${headingId}-answer`} className="text-sm font-medium text-ink">
          {t('answerLabel')}
        </label>
        <Textarea
          ref={answerRef}
          id={`${headingId}-answer`}
          rows={8}
          maxLength={FOLLOW_UP_ANSWER_MAX}
          value={draft.text}
          readOnly={phase !== 'answering'}
          aria-describedby={`${headingId}-text ${headingId}-counter`}
          onChange={(event) => draft.change(event.target.value)}
          className="w-full"
        />
        <p id={`${headingId}-counter`} className="text-right text-xs text-muted">
          {t('counter', { count: formatNumber(draft.text.length), max: formatNumber(FOLLOW_UP_ANSWER_MAX) })}
        </p>
      </div>
      {error && (
        <p role="alert" className="rounded-md bg-danger/10 p-3 text-sm text-ink">
          {error}
        </p>
      )}
      <div className="flex justify-end">
        <Button onClick={() => void submit()} disabled={phase !== 'answering'} className="w-full sm:w-auto">
          <Send aria-hidden className="h-4 w-4" />
          {phase === 'submitting' ? t('submitting') : t('submit')}
        </Button>
      </div>
    </section>
  );
}
