import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { AnswerFilter } from '../lib/answer-items.ts';

const GROUP_PREFIX = 'group:';

/** The filter as the URL's `show` carries it: absent (all), `ungraded`, `flagged` or `group:{groupId}`. */
export function filterOf(show: string | null): AnswerFilter {
  if (show === 'ungraded' || show === 'flagged') return { kind: show };
  if (show?.startsWith(GROUP_PREFIX)) return { kind: 'group', groupId: show.slice(GROUP_PREFIX.length) };
  return { kind: 'all' };
}

export function showOf(filter: AnswerFilter): string {
  return filter.kind === 'group' ? `${GROUP_PREFIX}${filter.groupId}` : filter.kind;
}

/** The answers filter lives in the URL (`?show=ungraded`), so a reload or a shared link keeps it. */
export function useAnswerFilter() {
  const [params, setParams] = useSearchParams();
  const show = params.get('show');
  const filter = useMemo(() => filterOf(show), [show]);
  const setFilter = (next: AnswerFilter) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next.kind === 'all') updated.delete('show');
        else updated.set('show', showOf(next));
        return updated;
      },
      { replace: true },
    );
  return [filter, setFilter] as const;
}
