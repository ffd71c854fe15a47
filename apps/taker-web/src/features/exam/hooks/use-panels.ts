import { useCallback, useState } from 'react';
import type { PanelKey, PanelVisibility } from '../lib/room-layout.ts';

const ALL_SHOWN: PanelVisibility = { questions: true, workspace: true, assistant: true };

/** Hiding the last shown panel restores all of them, so the page is never left empty. */
export function usePanels(available: PanelKey[]) {
  const [visible, setVisible] = useState<PanelVisibility>(ALL_SHOWN);
  const toggle = useCallback(
    (key: PanelKey) =>
      setVisible((current) => {
        const next = { ...current, [key]: !current[key] };
        return available.some((k) => next[k]) ? next : ALL_SHOWN;
      }),
    [available],
  );
  const restoreAll = useCallback(() => setVisible(ALL_SHOWN), []);
  return { visible, toggle, restoreAll };
}
