import { formatScore, type ResultScore, type ResultStatus } from '@exam/domain/grading';
import { Badge, type BadgeTone } from '@exam/ui/badge';

const STATUS: Record<ResultStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  graded: { label: 'Graded', tone: 'success' },
  released: { label: 'Released', tone: 'info' },
};

type Scored = Pick<ResultScore, 'score' | 'maxScore' | 'percentage' | 'status'>;

/**
 * The one way the creator app shows a result's score (docs/product.md#results-and-grading): the server's
 * points, max and percentage through `formatScore`, and the status beside it. Shared by the results list,
 * the submissions page, the grader, the result page and the insights ranking, so they cannot disagree.
 */
export function ScoreBadge({ result }: { result: Scored }) {
  const status = STATUS[result.status];
  return (
    <span className="inline-flex flex-wrap items-center gap-2" data-testid="score">
      <span className="tabular-nums text-sm text-ink">{formatScore(result)}</span>
      <Badge tone={status.tone} data-status={result.status}>
        {status.label}
      </Badge>
    </span>
  );
}
