import type {
  AnswerGroupView,
  GradingSuggestion,
  QuestionAnswerRow,
  QuestionAnswers,
} from '@exam/domain/question-grading';

/**
 * What the grader marks in one go: an answer group's members still in it (one mark applies to all of them), or
 * one answer a grader took out of its group. `key` stays the same while the answers are fetched again.
 */
export type AnswerItem = {
  key: string;
  rows: QuestionAnswerRow[];
  /** The answer shown for the item: the member whose answer is the group's most frequent spelling. */
  representative: QuestionAnswerRow;
  group: AnswerGroupView | undefined;
  detached: boolean;
};

/** all: every item; ungraded: some member has no points yet; flagged: uncertain suggestions first; or one group. */
export type AnswerFilter =
  { kind: 'all' } | { kind: 'ungraded' } | { kind: 'flagged' } | { kind: 'group'; groupId: string };

const itemKey = (row: QuestionAnswerRow) => (row.detached ? `answer:${row.resultId}` : `group:${row.groupId}`);

/**
 * The answers as items, largest group first, so the first marks given cover the most answers; items of one size
 * keep submission order (an item sits where its earliest member does).
 */
export function answerItems(data: Pick<QuestionAnswers, 'answers' | 'groups'>): AnswerItem[] {
  const groups = new Map(data.groups.map((g) => [g.groupId, g]));
  const items = new Map<string, QuestionAnswerRow[]>();
  for (const row of [...data.answers].sort((a, b) => a.number - b.number)) {
    const key = itemKey(row);
    items.set(key, [...(items.get(key) ?? []), row]);
  }
  return [...items]
    .map(([key, rows]): AnswerItem => {
      const first = rows[0]!;
      const group = groups.get(first.groupId);
      const representative = (group && rows.find((r) => r.answer === group.answer)) ?? first;
      return { key, rows, representative, group, detached: first.detached };
    })
    .sort((a, b) => b.rows.length - a.rows.length || a.rows[0]!.number - b.rows[0]!.number);
}

export const isUnmarked = (item: AnswerItem) => item.rows.some((row) => row.points === null);
export const isFlagged = (item: AnswerItem) => item.rows.some((row) => row.flagged);

export function filterItems(items: readonly AnswerItem[], filter: AnswerFilter): AnswerItem[] {
  switch (filter.kind) {
    case 'ungraded':
      return items.filter(isUnmarked);
    case 'flagged':
      return items.filter(isFlagged);
    case 'group':
      return items.filter((item) => item.rows.some((row) => row.groupId === filter.groupId));
    default:
      return [...items];
  }
}

/**
 * The next item to mark after `currentKey`: the first unmarked one after it, wrapping round, never the current
 * one (it has just been marked); undefined when every other item has its mark.
 */
export function nextUnmarked(items: readonly AnswerItem[], currentKey: string | undefined): AnswerItem | undefined {
  const at = items.findIndex((item) => item.key === currentKey);
  const ordered = at < 0 ? items : [...items.slice(at + 1), ...items.slice(0, at)];
  return ordered.find((item) => item.key !== currentKey && isUnmarked(item));
}

/** The suggestion shown for an item: the representative's, else any member's, current ones first. */
export function itemSuggestion(item: AnswerItem): GradingSuggestion | null {
  const all = [item.representative, ...item.rows].flatMap((row) => (row.suggestion ? [row.suggestion] : []));
  return all.find((s) => s.current) ?? all[0] ?? null;
}

/** Groups of more than one answer, largest first: the filter's "one group" choices. */
export function sharedGroups(items: readonly AnswerItem[]): AnswerItem[] {
  return items.filter((item) => !item.detached && item.rows.length > 1).sort((a, b) => b.rows.length - a.rows.length);
}
