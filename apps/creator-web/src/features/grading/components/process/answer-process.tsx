import { ANSWER_SOURCES } from '@exam/domain/answer-operations';
import type { TimelineAnswer } from '@exam/domain/timeline';
import { Button } from '@exam/ui/button';
import { History, PlayCircle } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SourceLegend, SourceShareList, SourcedAnswer } from './sourced-answer.tsx';
import { TypingSignalsView } from './typing-signals.tsx';
import { useExamNumber } from '../question-numbering.tsx';

type Props = {
  questionIndex: number;
  /** The question's answer in the timeline; undefined when nothing of it was recorded. */
  answer: TimelineAnswer | undefined;
  startedAt: string;
  /** Opens the replay at a moment (ms since the attempt started). */
  onWatch?: ((t: number) => void) | undefined;
};

/** "How this answer came to be": the final answer by source, the share of each, and the typing signals. */
export function AnswerProcess({ questionIndex, answer, startedAt, onWatch }: Props) {
  const { t } = useTranslation('process');
  const headingId = useId();
  const number = useExamNumber()(questionIndex);
  const firstEdit = answer?.operations[0] ? Date.parse(answer.operations[0].at) - Date.parse(startedAt) : null;
  const used = ANSWER_SOURCES.filter((source) => answer?.runs.some(([, s]) => s === source));

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-line pt-3"
      data-testid={`answer-process-${questionIndex}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="flex items-center gap-1.5 text-sm font-semibold text-ink">
          <History aria-hidden className="h-4 w-4 text-muted" /> {t('section.title')}
        </h4>
        {onWatch && firstEdit !== null && (
          <Button variant="secondary" size="sm" onClick={() => onWatch(Math.max(0, firstEdit))}>
            <PlayCircle aria-hidden className="h-4 w-4" /> {t('section.watch')}
          </Button>
        )}
      </div>
      {!answer || (answer.operations.length === 0 && answer.final === '') ? (
        <p className="text-sm text-muted">{t('section.notRecorded')}</p>
      ) : (
        <>
          {answer.reconciled && (
            <div role="note" className="rounded-md border border-line bg-canvas px-3 py-2 text-sm text-ink">
              <p className="font-medium">{t('section.reconciled')}</p>
              <p className="text-muted">{t('section.reconciledDetail')}</p>
            </div>
          )}
          <SourcedAnswer final={answer.final} runs={answer.runs} questionNumber={number} />
          {used.length > 0 && <SourceLegend sources={used} />}
          <SourceShareList shares={answer.sources} />
          <TypingSignalsView signals={answer.signals} startedAt={startedAt} onWatch={onWatch} />
        </>
      )}
    </section>
  );
}
