import { formatPoints } from '@exam/domain/grading';

/**
 * The exports' question columns in the exam's own order (docs/product.md, "Results CSV"): one per question as the
 * creator wrote it, headed by its number, title and worth, so a spreadsheet reads "Q1 Upload your notebook (10 pts)"
 * instead of "q1". Kept apart from the CSV writer so other exam-order views can share it.
 */

type ColumnQuestion = { id: string; title: string; points: number; poolId?: string | null };
type ColumnPool = { id: string; points: number };

/** Long titles are cut so a header stays readable in a spreadsheet; the number keeps every header unique. */
const TITLE_MAX = 80;

function shortTitle(title: string): string {
  const oneLine = title.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_MAX ? `${oneLine.slice(0, TITLE_MAX - 1).trimEnd()}…` : oneLine;
}

/** "(1 pt)", "(2.5 pts)". */
const worth = (points: number) => `(${formatPoints(points)} ${points === 1 ? 'pt' : 'pts'})`;

/**
 * One header per exam question: "Q{n} {title} ({points})". A drawn question is worth its pool's points per draw.
 * The leading number makes headers unique even when titles repeat (spreadsheets and LMS imports key columns by
 * header text).
 */
export function questionHeaders(questions: readonly ColumnQuestion[], pools: readonly ColumnPool[] = []): string[] {
  const poolPoints = new Map(pools.map((p) => [p.id, p.points]));
  return questions.map((q, i) => {
    const points = (q.poolId ? poolPoints.get(q.poolId) : undefined) ?? q.points;
    const title = shortTitle(q.title);
    return [`Q${i + 1}`, title, worth(points)].filter((part) => part !== '').join(' ');
  });
}

/** Headers when the exam cannot be read any more (deleted): numbers only, as many as the widest result. */
export const numberedHeaders = (count: number) => Array.from({ length: count }, (_v, i) => `Q${i + 1}`);

/**
 * A candidate's grades in the exam's question order, by question id; undefined where they did not get the question.
 * The grades are stored in the candidate's order (their snapshot's questions, @exam/domain/arrangement).
 */
export function gradesInExamOrder<G>(
  questions: ReadonlyArray<{ id: string }>,
  candidateIds: readonly string[],
  grades: readonly G[],
): Array<G | undefined> {
  const at = new Map(candidateIds.map((id, i) => [id, i]));
  return questions.map((q) => {
    const i = at.get(q.id);
    return i === undefined ? undefined : grades[i];
  });
}
