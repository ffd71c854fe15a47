import { useSyncExternalStore } from 'react';
import { NARROW_QUERY } from '../lib/room-layout.ts';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const isNarrow = () => window.matchMedia(NARROW_QUERY).matches;

/** True while the window is narrower than the room's three-column layout needs (it then shows tabs). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false);
}
