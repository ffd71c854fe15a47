import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { RotateCcw } from 'lucide-react';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CandidatePage } from '../../../lib/candidate-page.tsx';
import type { TimedFollowUpState } from '../api/follow-up.ts';
import { useFollowUp } from '../hooks/use-follow-up.ts';
import { followUpMessage } from '../lib/follow-up-i18n.ts';
import { FollowUpQuestion } from './follow-up-question.tsx';

type FollowUpPageProps = {
  examId: string;
  examTitle?: string | undefined;
  /** What follows the room (the completion page), under the server's note in the page's language, if any. */
  renderFinished: (note: string | null) => ReactNode;
};

/**
 * /exam/{examId}/follow-up: the follow-up questions after submit (docs/product.md "Follow-up questions"). The exam
 * is submitted before this page opens, so nothing here can lose it: a failure offers Try again, a skipped
 * follow-up says why, and the completion page follows the last question.
 */
export function FollowUpPage({ examId, examTitle, renderFinished }: FollowUpPageProps) {
  const { t } = useTranslation('follow-up');
  const { view, timeUp, answered, expired, retry } = useFollowUp(examId);
  const roomRef = useRef<HTMLDivElement>(null);
  // The next question's answer box takes the focus only if the candidate was working in the room.
  const [focusAnswer, setFocusAnswer] = useState(false);
  const inRoom = () => roomRef.current?.contains(document.activeElement) ?? false;
  const onAnswered = useCallback(
    (next: TimedFollowUpState) => {
      setFocusAnswer(true);
      answered(next);
    },
    [answered],
  );
  const current = view.kind === 'asking' ? view.state.current : null;
  const onTimeUp = useCallback(() => {
    setFocusAnswer(inRoom());
    if (current) void expired(current.n);
  }, [expired, current]);

  if (view.kind === 'finished') {
    if (view.status === 'done') return renderFinished(t('messages.done'));
    if (view.status === 'skipped')
      return renderFinished(view.note ? followUpMessage(view.note) : t('messages.skippedProvider'));
    return renderFinished(null);
  }
  return (
    <CandidatePage align="start">
      <div ref={roomRef} className="flex w-full max-w-2xl flex-col gap-4" aria-busy={view.kind === 'preparing'}>
        <header className="flex flex-col gap-1">
          {examTitle && <p className="text-xs font-medium uppercase tracking-wide text-muted">{examTitle}</p>}
          <h1 className="text-2xl font-semibold text-ink">{t('title')}</h1>
          <p className="text-sm text-ink">{t('messages.intro')}</p>
        </header>
        <p role="status" className={timeUp ? 'rounded-md bg-warning/10 p-3 text-sm text-ink' : 'sr-only'}>
          {timeUp ? t('messages.timeUp') : ''}
        </p>
        {view.kind === 'preparing' && (
          <Card className="flex flex-col items-center gap-2 p-8 text-center" data-testid="follow-up-preparing">
            <Spinner label={t('preparing')} />
            <p className="text-sm text-muted">{t('preparingHint')}</p>
          </Card>
        )}
        {view.kind === 'failed' && (
          <Card className="flex flex-col items-start gap-4 p-6">
            <p role="alert" className="text-sm text-ink">
              {view.reason === 'start' ? t('startFailed') : t('loadFailed')}
            </p>
            <Button variant="secondary" onClick={retry}>
              <RotateCcw aria-hidden className="h-4 w-4" /> {t('retry')}
            </Button>
          </Card>
        )}
        {view.kind === 'asking' && current && (
          <Card className="p-4 sm:p-6">
            <FollowUpQuestion
              key={current.n}
              attempt={view.attempt}
              current={current}
              total={view.state.total}
              clockOffsetMs={view.clockOffsetMs}
              onAnswered={onAnswered}
              onTimeUp={onTimeUp}
              focusAnswer={focusAnswer}
            />
          </Card>
        )}
      </div>
    </CandidatePage>
  );
}
