import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { questionAnchor } from '../components/question-card.tsx';
import { mostInView, useQuestionViews, VIEW_SETTLE_MS } from './use-question-views.ts';

/** A 400 px tall list whose questions are 300 px each, scrolled by `scrollTop`. */
function questionList(count: number) {
  const container = document.createElement('div');
  let scrollTop = 0;
  container.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: 0, width: 800, height: 400 });
  for (let index = 0; index < count; index += 1) {
    const section = document.createElement('section');
    section.id = questionAnchor(index);
    section.getBoundingClientRect = () =>
      DOMRect.fromRect({ x: 0, y: index * 300 - scrollTop, width: 800, height: 300 });
    container.appendChild(section);
  }
  document.body.appendChild(container);
  return {
    container,
    scrollTo(top: number) {
      scrollTop = top;
      container.dispatchEvent(new Event('scroll'));
    },
  };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('mostInView', () => {
  it('picks the question showing the most height, the first on a tie, none when nothing shows', () => {
    const list = questionList(4);
    expect(mostInView(list.container, 4)).toBe(0);
    list.scrollTo(250); // question 1 shows 50–350 (300 px), question 0 50 px, question 2 50 px
    expect(mostInView(list.container, 4)).toBe(1);
    list.scrollTo(400); // question 1 shows 200 px, question 2 200 px
    expect(mostInView(list.container, 4)).toBe(1);
    list.scrollTo(5000);
    expect(mostInView(list.container, 4)).toBeNull();
  });
});

describe('useQuestionViews', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('reports each move in one-at-a-time mode, never the same question twice in a row', () => {
    const onView = vi.fn();
    const containerRef = { current: null };
    const { rerender } = renderHook(
      (shown: number) => useQuestionViews({ onView, oneAtATime: true, shown, count: 5, containerRef }),
      { initialProps: 0 },
    );
    rerender(1);
    rerender(1);
    rerender(0);
    expect(onView.mock.calls.map(([index]) => index)).toEqual([0, 1, 0]);
  });

  it('on a page of all questions reports the one most in view once scrolling has rested', () => {
    const onView = vi.fn();
    const list = questionList(6);
    const containerRef = { current: list.container };
    renderHook(() => useQuestionViews({ onView, oneAtATime: false, shown: 0, count: 6, containerRef }));
    act(() => void vi.advanceTimersByTime(VIEW_SETTLE_MS));
    expect(onView.mock.calls).toEqual([[0]]);
    // A scroll through several questions, each step within the settling time: one report, of where it ends.
    for (const top of [300, 600, 900, 1200]) {
      list.scrollTo(top);
      act(() => void vi.advanceTimersByTime(VIEW_SETTLE_MS / 2));
    }
    act(() => void vi.advanceTimersByTime(VIEW_SETTLE_MS));
    expect(onView.mock.calls).toEqual([[0], [4]]);
    // A small scroll that keeps the same question most in view reports nothing.
    list.scrollTo(1230);
    act(() => void vi.advanceTimersByTime(VIEW_SETTLE_MS));
    expect(onView.mock.calls).toEqual([[0], [4]]);
  });

  it('reports nothing without a place to report to (a preview, or before the attempt syncs)', () => {
    const list = questionList(3);
    const { rerender } = renderHook(
      (onView: ((index: number) => void) | undefined) =>
        useQuestionViews({ onView, oneAtATime: true, shown: 2, count: 3, containerRef: { current: list.container } }),
      { initialProps: undefined as ((index: number) => void) | undefined },
    );
    const onView = vi.fn();
    rerender(onView);
    expect(onView.mock.calls).toEqual([[2]]);
  });
});
