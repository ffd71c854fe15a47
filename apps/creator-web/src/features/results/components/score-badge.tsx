import { Badge } from '@exam/ui/badge';
import type { ResultSummary } from '@exam/domain/result';
import { listScore } from '../list-score.ts';

/** The list score of a result (see list-score.ts) as a coloured badge. */
export function ListScoreBadge({
  result,
}: {
  result: Pick<ResultSummary, 'isGraded' | 'score' | 'correctCount' | 'gradedCount'>;
}) {
  const score = listScore(result);
  return (
    <Badge tone={score.tone} data-tone={score.tone}>
      {score.text}
    </Badge>
  );
}
