import { useSyncExternalStore } from 'react';

/**
 * A phone or tablet: the primary pointer is a finger (coarse) or nothing can hover. Keyboard shortcut hints are
 * left out there: the keys they name are not at hand (Media Queries Level 4, `pointer` and `hover`).
 */
export const TOUCH_ONLY_QUERY = '(pointer: coarse), (hover: none)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(TOUCH_ONLY_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isTouchOnly = () => window.matchMedia(TOUCH_ONLY_QUERY).matches;

export function useTouchOnly(): boolean {
  return useSyncExternalStore(subscribe, isTouchOnly, () => false);
}
