import { formatPoints } from '@exam/domain/grading';
import { RichText } from '@exam/ui/rich-text';
import { useTranslation } from 'react-i18next';
import { partsOf, type AnswerView } from '../../lib/read-answer.ts';
import { BlanksAnswer, MatchingAnswer, OrderingAnswer } from './answer-parts.tsx';
import { EssayAnswer, QuantityAnswer, TrueFalseAnswer } from './answer-values.tsx';

/**
 * An answer of the further question types as a grader reads it at a glance (lib/read-answer.ts lays it out): the
 * result page and grading by question show the same. `quote`: an AI suggestion's quote to mark in an essay.
 */
export function StructuredAnswer({ view, quote }: { view: AnswerView; quote?: string | undefined }) {
  switch (view.kind) {
    case 'ordering':
      return <OrderingAnswer view={view} />;
    case 'matching':
      return <MatchingAnswer view={view} />;
    case 'fill-blanks':
      return <BlanksAnswer view={view} />;
    case 'quantity':
      return <QuantityAnswer view={view} />;
    case 'true-false':
      return <TrueFalseAnswer view={view} />;
    case 'essay':
      return <EssayAnswer view={view} quote={quote} />;
  }
}

/** "2 of 3 gaps right · 1.33 / 2 points": which parts earned the partial credit; nothing for other types. */
export function PartialCredit({
  view,
  points,
  maxPoints,
  testId,
}: {
  view: AnswerView;
  points: number | null;
  maxPoints: number;
  testId?: string;
}) {
  const { t } = useTranslation('grading');
  const parts = partsOf(view);
  if (!parts || parts.total === 0) return null;
  return (
    <p className="text-sm font-medium text-ink" data-testid={testId}>
      {t(`answerView.parts.${parts.kind}`, {
        right: parts.right,
        total: parts.total,
        points: points === null ? '—' : formatPoints(points),
        maxPoints: formatPoints(maxPoints),
        count: maxPoints,
      })}
    </p>
  );
}

/** The shared passage the question was shown beside: its title, and its text on demand. */
export function PassageDisclosure({ title, content }: { title: string; content: string | undefined }) {
  const { t } = useTranslation('grading');
  const heading = title ? t('answerView.passage.title', { title }) : t('answerView.passage.untitled');
  return (
    <details className="rounded-md border border-line bg-canvas px-3 py-2 text-sm" data-testid="passage">
      <summary className="cursor-pointer font-medium text-ink">{heading}</summary>
      {content === undefined ? (
        <p className="mt-2 text-muted">{t('answerView.passage.missing')}</p>
      ) : (
        <RichText className="mt-2 max-h-96 overflow-auto text-ink">{content}</RichText>
      )}
    </details>
  );
}
