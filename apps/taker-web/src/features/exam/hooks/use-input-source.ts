import type { AnswerSource } from '@exam/domain/answer-operations';
import { useCallback, useEffect, useRef, type SyntheticEvent } from 'react';
import { sourceOfInputType } from '../lib/answer-edits.ts';

/**
 * Where a text change came from (typing, a paste, an IME composition…), from the browser's own beforeinput event:
 * React's change event does not carry the inputType, so a native listener on `ref` (a field, or an element
 * holding several: beforeinput bubbles) remembers it until the change arrives.
 */
export function useInputSource<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const inputType = useRef<string | undefined>(undefined);
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const remember = (event: Event) => {
      inputType.current = (event as InputEvent).inputType;
    };
    node.addEventListener('beforeinput', remember);
    return () => node.removeEventListener('beforeinput', remember);
  }, []);
  const sourceOf = useCallback((event: SyntheticEvent): AnswerSource => {
    const type = inputType.current ?? (event.nativeEvent as Partial<InputEvent>).inputType;
    inputType.current = undefined;
    return sourceOfInputType(type);
  }, []);
  return { ref, sourceOf };
}
