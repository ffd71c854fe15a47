import { formatPercentage, formatPoints, type ResultScore, type ResultStatus } from '@exam/domain/grading';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { useTranslation } from 'react-i18next';

const TONE: Record<ResultStatus, BadgeTone> = { pending: 'warning', graded: 'success', released: 'info' };

type Scored = Pick<ResultScore, 'score' | 'maxScore' | 'percentage' | 'status'>;

/**
 * The one way the creator app shows a result's score (docs/product.md#results-and-grading): the server's
 * points, max and percentage ("7 / 9 points · 77.8%", pluralised by the catalogue), and the status beside it. Shared by the results list,
 * the submissions page, the grader, the result page and the insights ranking, so they cannot disagree.
 */
export function ScoreBadge({ result }: { result: Scored }) {
  const { t } = useTranslation();
  const points = t('score.points', {
    points: formatPoints(result.score),
    max: formatPoints(result.maxScore),
    count: result.maxScore,
  });
  const text =
    result.status === 'pending'
      ? t('score.awaiting', { points })
      : t('score.withPercent', { points, percent: formatPercentage(result.percentage) });
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="score">
      <span className="tabular-nums text-sm text-ink">{text}</span>
      <Badge tone={TONE[result.status]} data-status={result.status}>
        {t(`resultStatus.${result.status}`)}
      </Badge>
    </span>
  );
}
