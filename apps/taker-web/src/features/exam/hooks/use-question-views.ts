import { useEffect, useRef, type RefObject } from 'react';
import { questionAnchor } from '../components/question-card.tsx';

/** On a page of all questions, the one most in view is reported once scrolling has rested this long. */
export const VIEW_SETTLE_MS = 1000;

/**
 * The index of the question whose section shows the most height inside the container (the first on a tie);
 * null when none is visible.
 */
export function mostInView(container: HTMLElement, count: number): number | null {
  const box = container.getBoundingClientRect();
  let best: number | null = null;
  let bestHeight = 0;
  for (let index = 0; index < count; index += 1) {
    const section = document.getElementById(questionAnchor(index));
    if (!section || !container.contains(section)) continue;
    const rect = section.getBoundingClientRect();
    const visible = Math.min(rect.bottom, box.bottom) - Math.max(rect.top, box.top);
    if (visible > bestHeight) {
      best = index;
      bestHeight = visible;
    }
  }
  return best;
}

type Options = {
  /** Where to report the question now on screen (the candidate's index); nothing is reported without it. */
  onView: ((index: number) => void) | undefined;
  oneAtATime: boolean;
  /** The question shown when the exam shows one at a time. */
  shown: number;
  count: number;
  /** The scrolling list of questions. */
  containerRef: RefObject<HTMLElement | null>;
};

/**
 * Reports the question on screen whenever it changes, for insights' time per question (a question-view
 * event): at once on each move in one-at-a-time mode; on a page of all questions, the one most in view
 * after scrolling (or resizing) has rested for VIEW_SETTLE_MS, so a scroll past ten questions is one event,
 * not ten. The same question is never reported twice in a row.
 */
export function useQuestionViews({ onView, oneAtATime, shown, count, containerRef }: Options) {
  const viewRef = useRef(onView);
  const lastRef = useRef<number | null>(null);
  useEffect(() => {
    viewRef.current = onView;
  }, [onView]);
  const enabled = onView !== undefined;

  useEffect(() => {
    if (!enabled || !oneAtATime || count === 0) return;
    if (lastRef.current === shown) return;
    lastRef.current = shown;
    viewRef.current?.(shown);
  }, [enabled, oneAtATime, shown, count]);

  useEffect(() => {
    const container = containerRef.current;
    if (!enabled || oneAtATime || !container || count === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const index = mostInView(container, count);
        if (index === null || index === lastRef.current) return;
        lastRef.current = index;
        viewRef.current?.(index);
      }, VIEW_SETTLE_MS);
    };
    settle();
    container.addEventListener('scroll', settle, { passive: true });
    window.addEventListener('resize', settle);
    return () => {
      clearTimeout(timer);
      container.removeEventListener('scroll', settle);
      window.removeEventListener('resize', settle);
    };
  }, [enabled, oneAtATime, count, containerRef]);
}
