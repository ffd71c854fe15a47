import { useEffect, useRef } from 'react';
import { graderAction, type GraderAction } from '../lib/grader-keys.ts';

/**
 * Listens for the grader's keys on the whole page (lib/grader-keys.ts says which). `onAction` returns false when
 * the key did nothing here, so the browser keeps its own meaning (↓ still scrolls at the last answer).
 */
export function useGraderKeys(onAction: (action: GraderAction) => boolean) {
  // The latest handler without re-subscribing on every render.
  const handler = useRef(onAction);
  useEffect(() => {
    handler.current = onAction;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const action = graderAction(event);
      if (action && handler.current(action)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
