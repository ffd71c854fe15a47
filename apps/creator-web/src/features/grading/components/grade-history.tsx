import { formatPoints } from '@exam/domain/grading';
import type { GradeHistoryEntry } from '@exam/domain/result';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { formatDateTime } from '../../../lib/format-date.ts';

const pointsOf = (side: GradeHistoryEntry['before']) =>
  side?.points === null || side?.points === undefined ? '—' : formatPoints(side.points);

/** "{time} · {by} · Q{n}: {before} → {after} pts", or the release row of the whole result. */
export function historyLine(entry: GradeHistoryEntry): string {
  const head = `${formatDateTime(entry.at)} · ${entry.by}`;
  if (entry.kind === 'release') return `${head} · Released to the candidate`;
  if (entry.kind === 'unrelease') return `${head} · Release withdrawn`;
  const question = entry.questionIndex === null ? 'Result' : `Q${entry.questionIndex + 1}`;
  const what = entry.kind === 'tests' ? ' tests' : '';
  const reason = entry.reason ? ` · Reason: ${entry.reason}` : '';
  return `${head} · ${question}${what}: ${pointsOf(entry.before)} → ${pointsOf(entry.after)} pts${reason}`;
}

/** The result's append-only grade history, oldest first (docs/product.md#results-and-grading). */
export function GradeHistory({ history }: { history: GradeHistoryEntry[] }) {
  return (
    <Card>
      <CardHeader title="Grade history" />
      <CardBody>
        {history.length === 0 ? (
          <p className="text-sm text-muted">No grading changes yet.</p>
        ) : (
          <ul aria-label="Grade history" className="flex flex-col gap-1 text-sm">
            {history.map((entry, i) => (
              <li key={`${entry.at}-${i}`}>{historyLine(entry)}</li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}
