import { describe, expect, it } from 'vitest';
import { FIT_REASONS, itemFlags, raschItemFit } from './item-fit.ts';
import { createRandom } from './random.ts';
import { fitRasch } from './rasch.ts';
import { simulateRasch, spreadDifficulties } from './simulate.ts';

describe('raschItemFit', () => {
  it('computes infit and outfit by their definitions for a hand-checked case', () => {
    // One item of difficulty 0; abilities 0, ln 3 and −ln 3 give P = 1/2, 3/4, 1/4.
    const marks = [[1], [0], [1]];
    const abilities = [0, Math.log(3), -Math.log(3)].map((theta) => ({ theta, se: 0.5 }));
    const [fit] = raschItemFit(marks, [0], abilities);
    // Residuals 1/2, −3/4, 3/4; variances 1/4, 3/16, 3/16.
    const squared = 0.25 + 0.5625 + 0.5625;
    expect(fit!.infit).toBeCloseTo(squared / (0.25 + 0.375), 12);
    expect(fit!.outfit).toBeCloseTo((1 + 3 + 3) / 3, 12);
    expect(fit!.answered).toBe(3);
  });

  it('is near 1 for items that fit, above them for a guessed item and above 1.3 for a reversed one', () => {
    const B = spreadDifficulties(15, -1.5, 1.5);
    const { marks, thetas } = simulateRasch(2000, B, 12);
    const rng = createRandom(9);
    // Item 16 is a coin toss; item 17 is answered right by the weak candidates (a wrong key).
    const withNoise = marks.map((row, c) => [
      ...row,
      rng.bernoulli(0.5),
      rng.bernoulli(1 / (1 + Math.exp(thetas[c]!))),
    ]);
    const rasch = fitRasch(withNoise, 17);
    const fits = raschItemFit(
      withNoise,
      rasch.items.map((i) => i.difficulty),
      rasch.abilities,
    );
    for (const fit of fits.slice(0, 15)) {
      expect(fit.infit!).toBeGreaterThan(0.8);
      expect(fit.infit!).toBeLessThan(1.2);
      expect(fit.outfit!).toBeGreaterThan(0.75);
      expect(fit.outfit!).toBeLessThan(1.3);
    }
    expect(fits[15]!.infit!).toBeGreaterThan(Math.max(...fits.slice(0, 15).map((f) => f.infit!)));
    expect(fits[15]!.outfit!).toBeGreaterThan(Math.max(...fits.slice(0, 15).map((f) => f.outfit!)));
    expect(fits[16]!.infit!).toBeGreaterThan(1.3);
    expect(itemFlags(fits[16]!, null, null)).toEqual(['noisy']);
  });

  it('leaves out missing answers and says why an item has no fit', () => {
    const fits = raschItemFit(
      [
        [1, null],
        [0, null],
      ],
      [0, null],
      [
        { theta: 1, se: 1 },
        { theta: -1, se: 1 },
      ],
    );
    expect(fits[0]!.answered).toBe(2);
    expect(fits[1]).toEqual({ infit: null, outfit: null, answered: 0, reason: FIT_REASONS.noDifficulty });
  });
});

describe('itemFlags', () => {
  const good = { infit: 1, outfit: 1.05, answered: 200 };

  it('flags misfit only with enough answers, in the configurable range', () => {
    expect(itemFlags({ ...good, infit: 1.4 }, 1, 30)).toEqual(['noisy']);
    expect(itemFlags({ ...good, outfit: 0.6 }, 1, 30)).toEqual(['predictable']);
    expect(itemFlags({ ...good, infit: 1.4, answered: 10 }, 1, 30)).toEqual([]);
    expect(itemFlags({ ...good, infit: 1.4 }, 1, 30, { fitRange: { lower: 0.5, upper: 1.5 } })).toEqual([]);
    expect(itemFlags(good, 1, 30)).toEqual([]);
  });

  it('flags negative discrimination from the 2PL or the classical index, and weak discrimination otherwise', () => {
    expect(itemFlags(good, -0.4, 12)).toEqual(['negative-discrimination']);
    expect(itemFlags(good, null, -5)).toEqual(['negative-discrimination']);
    expect(itemFlags(good, 0.2, 25)).toEqual(['weak-discrimination']);
    expect(itemFlags(good, null, 4)).toEqual(['weak-discrimination']);
    expect(itemFlags(good, 1.1, 35)).toEqual([]);
  });
});
