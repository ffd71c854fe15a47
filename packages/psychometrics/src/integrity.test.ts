import { describe, expect, it } from 'vitest';
import {
  copyOverlap,
  copyShare,
  countEvents,
  createReplyIndex,
  focusPercent,
  rangeBadge,
  rangeBand,
  REASONING_FORMULA,
  reasoningCredit,
  reasoningScore,
} from './integrity.ts';

const MIN = 60_000;

describe('focusPercent', () => {
  it('returns 100 when there are no focus events', () => {
    expect(focusPercent([{ type: 'copy', at: 5 }], 0, 10 * MIN)).toBe(100);
  });

  it('returns 100 when the attempt has no duration', () => {
    expect(focusPercent([{ type: 'focus-lost', at: 0 }], 0, 0)).toBe(100);
  });

  it('subtracts the time between losing and regaining focus', () => {
    // Out of focus 2–4 min and 7–8 min of a 10-minute attempt: 7 of 10 minutes focused.
    const events = [
      { type: 'focus-gained', at: 4 * MIN },
      { type: 'focus-lost', at: 2 * MIN },
      { type: 'focus-lost', at: 7 * MIN },
      { type: 'focus-gained', at: 8 * MIN },
    ];
    expect(focusPercent(events, 0, 10 * MIN)).toBe(70);
  });

  it('counts the time until submission when focus is never regained, and rounds', () => {
    // Lost at 9 of 12 minutes: 9/12 = 75%; lost at 2 of 3 minutes: 66.7% → 67.
    expect(focusPercent([{ type: 'focus-lost', at: 9 * MIN }], 0, 12 * MIN)).toBe(75);
    expect(focusPercent([{ type: 'focus-lost', at: 2 * MIN }], 0, 3 * MIN)).toBe(67);
  });

  it('clamps events recorded outside the attempt to its start and end', () => {
    expect(
      focusPercent(
        [
          { type: 'focus-lost', at: -MIN },
          { type: 'focus-gained', at: MIN },
        ],
        0,
        4 * MIN,
      ),
    ).toBe(75);
  });
});

describe('countEvents', () => {
  it('counts only events of the given type', () => {
    expect(
      countEvents(
        [
          { type: 'paste-blocked', at: 1 },
          { type: 'copy', at: 2 },
          { type: 'paste-blocked', at: 3 },
        ],
        'paste-blocked',
      ),
    ).toBe(2);
  });
});

describe('copyOverlap', () => {
  const replies = createReplyIndex([
    'You can use a **hash map** to count the words in one pass over the list.',
    'Sorting first costs O(n log n) time.',
  ]);

  it('counts every word of a verbatim 5-word run, ignoring case and markdown marks', () => {
    // Answer words: "I", "would", "use", "a", "hash", "map", "to", "count", "the", "words" (10).
    // "use a hash map to count the words" occurs in the reply: 8 of 10 words covered.
    const overlap = copyOverlap('I would USE a `hash map` to count the words', replies);
    expect(overlap).toEqual({ words: 10, copiedWords: 8 });
    expect(copyShare(overlap)).toBe(0.8);
  });

  it('finds no copying when no 5-word run matches', () => {
    expect(copyOverlap('use a hash table to tally each word', replies).copiedWords).toBe(0);
  });

  it('compares answers shorter than five words as a whole phrase', () => {
    expect(copyOverlap('O(n log n) time.', replies)).toEqual({ words: 4, copiedWords: 4 });
    expect(copyOverlap('O(n) time', replies)).toEqual({ words: 2, copiedWords: 0 });
  });

  it('does not judge single-word answers', () => {
    const overlap = copyOverlap('sorting', replies);
    expect(overlap).toEqual({ words: 0, copiedWords: 0 });
    expect(copyShare(overlap)).toBeNull();
  });

  it('finds nothing copied when the candidate had no replies', () => {
    expect(copyOverlap('a long enough answer with many words', createReplyIndex([])).copiedWords).toBe(0);
  });
});

describe('reasoning', () => {
  it('gives full credit for a correct answer found alone', () => {
    expect(reasoningCredit({ mark: 1, consulted: false, copied: false })).toBe(1);
  });

  it('halves the credit when the candidate consulted the assistant on the question', () => {
    expect(reasoningCredit({ mark: 1, consulted: true, copied: false })).toBe(0.5);
  });

  it('removes the credit when the answer was copied from the assistant', () => {
    expect(reasoningCredit({ mark: 1, consulted: true, copied: true })).toBe(0);
  });

  it('gives no credit to wrong or ungraded answers', () => {
    expect(reasoningCredit({ mark: 0, consulted: false, copied: false })).toBe(0);
    expect(reasoningCredit({ mark: null, consulted: false, copied: false })).toBe(0);
  });

  it('scores 100 × credits ÷ questions and null for no questions', () => {
    // Credits 1 + 0.5 + 0 + 0 = 1.5 of 4 questions → 37.5.
    const score = reasoningScore([
      { mark: 1, consulted: false, copied: false },
      { mark: 1, consulted: true, copied: false },
      { mark: 1, consulted: false, copied: true },
      { mark: 0, consulted: false, copied: false },
    ]);
    expect(score).toBe(37.5);
    expect(reasoningScore([])).toBeNull();
    expect(REASONING_FORMULA).toContain('0.5');
  });
});

describe('rangeBadge', () => {
  it('puts values within ±15 of the cohort mean in range and the rest above or below', () => {
    expect(rangeBand(50)).toEqual({ lower: 35, upper: 65 });
    expect(rangeBadge(65, 50)).toBe('in');
    expect(rangeBadge(35, 50)).toBe('in');
    expect(rangeBadge(66, 50)).toBe('above');
    expect(rangeBadge(34, 50)).toBe('below');
  });

  it('keeps the lower bound at least 10 and the upper at most 90', () => {
    expect(rangeBand(5)).toEqual({ lower: 10, upper: 20 });
    expect(rangeBadge(8, 5)).toBe('below');
    expect(rangeBand(95)).toEqual({ lower: 80, upper: 90 });
    expect(rangeBadge(92, 95)).toBe('above');
  });
});
