import { describe, expect, it } from 'vitest';
import { chiSquareSurvival } from './chi-square.ts';
import { lsatMarks } from './lsat.ts';
import { chooseModel, likelihoodRatioTest } from './model-choice.ts';
import { fitRasch } from './rasch.ts';
import { simulateRasch, simulateTwoPl, spreadDifficulties } from './simulate.ts';
import { fitTwoPl } from './twopl.ts';

const fits = (marks: readonly (readonly (number | null)[])[], items: number) => ({
  onePl: fitTwoPl(marks, items, { discrimination: 'common' }),
  twoPl: fitTwoPl(marks, items),
});

describe('likelihoodRatioTest', () => {
  it('reproduces ltm’s anova(rasch(LSAT), ltm(LSAT ~ z1)): LRT 0.57 on 4 df, p 0.967', () => {
    const { onePl, twoPl } = fits(lsatMarks(), 5);
    const lrt = likelihoodRatioTest(onePl, twoPl)!;
    expect(lrt.df).toBe(4);
    expect(lrt.statistic).toBeCloseTo(0.57, 2);
    expect(lrt.p).toBeCloseTo(0.967, 3);
  });

  it('would reject the a = 1 Rasch model on LSAT for its scale alone, which is why it is not the null model', () => {
    // 2 (ℓ_2PL − ℓ_Rasch(a=1)) with ltm's log-likelihoods −2466.653 and −2473.054: 12.8 on 5 df.
    const marks = lsatMarks();
    const statistic = 2 * (fitTwoPl(marks, 5).logLikelihood! - fitRasch(marks, 5).logLikelihood!);
    expect(statistic).toBeCloseTo(12.8, 1);
    expect(chiSquareSurvival(statistic, 5)).toBeLessThan(0.05);
  });
});

describe('chooseModel', () => {
  const B = spreadDifficulties(12, -1.5, 1.5);

  it('picks the 2PL when discriminations vary strongly', () => {
    const A = [0.3, 2.5, 0.5, 2.2, 0.4, 2.0, 0.6, 1.8, 0.35, 2.4, 0.45, 2.1];
    const { onePl, twoPl } = fits(simulateTwoPl(1500, A, B, 31).marks, 12);
    const choice = chooseModel(onePl, twoPl);
    expect(choice.chosen).toBe('2pl');
    expect(choice.lrt!.df).toBe(11);
    expect(choice.lrt!.p).toBeLessThan(0.001);
    expect(choice.reason).toMatch(/2PL model is used/);
  });

  // Fits 40 models (about 1.5 s alone); on a loaded 2-core CI box it passed vitest's 5 s default, so it gets a minute.
  it(
    'keeps the Rasch model when the discriminations are equal, in most of 20 simulated exams',
    { timeout: 60_000 },
    () => {
      let rasch = 0;
      for (let seed = 1; seed <= 20; seed += 1) {
        const { onePl, twoPl } = fits(simulateRasch(600, B, seed).marks, 12);
        const choice = chooseModel(onePl, twoPl);
        expect(choice.lrt!.df).toBe(11);
        if (choice.chosen === 'rasch') rasch += 1;
      }
      // Under the null the test rejects 5% of the time: 20 exams, at most a few rejections.
      expect(rasch).toBeGreaterThanOrEqual(16);
    },
  );

  it('follows the creator’s choice either way, still reporting the test', () => {
    const A = [0.3, 2.5, 0.5, 2.2, 0.4, 2.0, 0.6, 1.8, 0.35, 2.4, 0.45, 2.1];
    const { onePl, twoPl } = fits(simulateTwoPl(800, A, B, 2).marks, 12);
    const forced = chooseModel(onePl, twoPl, 'rasch');
    expect(forced).toMatchObject({ requested: 'rasch', chosen: 'rasch' });
    expect(forced.lrt).not.toBeNull();
    const { onePl: o2, twoPl: t2 } = fits(simulateRasch(800, B, 2).marks, 12);
    expect(chooseModel(o2, t2, '2pl')).toMatchObject({ requested: '2pl', chosen: '2pl' });
  });

  it('keeps the Rasch model with a reason when there is nothing to compare', () => {
    const { onePl, twoPl } = fits([[1, 0]], 2);
    const choice = chooseModel(onePl, twoPl);
    expect(choice).toMatchObject({ chosen: 'rasch', lrt: null });
    expect(choice.reason).toMatch(/at least 2 questions/);
    expect(chooseModel(onePl, twoPl, '2pl')).toMatchObject({ chosen: 'rasch' });
    expect(chooseModel(onePl, twoPl, '2pl').reason).toMatch(/could not be fitted/);
  });

  it('does not trust a 2PL fit that stopped before converging', () => {
    const A = [0.3, 2.5, 0.5, 2.2, 0.4, 2.0, 0.6, 1.8, 0.35, 2.4, 0.45, 2.1];
    const { marks } = simulateTwoPl(800, A, B, 5);
    const choice = chooseModel(
      fitTwoPl(marks, 12, { discrimination: 'common' }),
      fitTwoPl(marks, 12, { maxIterations: 1, tolerance: 1e-12 }),
    );
    expect(choice.chosen).toBe('rasch');
    expect(choice.reason).toMatch(/did not converge/);
  });
});
