import { useCallback, useMemo, useState } from 'react';

/**
 * Rows chosen for a bulk action, among the rows shown: a row that leaves the list (another filter, a refetch)
 * leaves the selection too, so an action never reaches a result the creator no longer sees.
 */
export function useSelection(shownIds: readonly string[]) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const selected = useMemo(() => shownIds.filter((id) => chosen.has(id)), [shownIds, chosen]);
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setChosen((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const setAll = useCallback((on: boolean) => setChosen(new Set(on ? shownIds : [])), [shownIds]);
  const clear = useCallback(() => setChosen(new Set()), []);
  return {
    selected,
    isSelected: (id: string) => chosen.has(id),
    toggle,
    setAll,
    clear,
    allSelected: shownIds.length > 0 && selected.length === shownIds.length,
    someSelected: selected.length > 0 && selected.length < shownIds.length,
  };
}
export type Selection = ReturnType<typeof useSelection>;
