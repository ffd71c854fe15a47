import { useCallback, useState } from 'react';
import type { PanelKey, PanelVisibility } from '../components/exam-panels.tsx';

const ALL_SHOWN: PanelVisibility = { questions: true, workspace: true, assistant: true };

/** Spec section 4 'Panels': hiding the last shown panel restores all of them. */
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
