import type { AuditConfiguration, AuditItem } from '@exam/domain/assistant-audit';
import type { SolvabilityItem, SolvabilityReplyOutcome } from '@exam/domain/solvability';
import { describe, expect, it } from 'vitest';
import {
  buildEquivalenceReport,
  configurationLabel,
  differenceVerdict,
  proportion,
  rateDifference,
} from './equivalence.ts';
import { createRandom, type Random } from './random.ts';
import { newcombeDifference, wilsonInterval } from './uplift.ts';

// Newcombe's interval itself is checked against Newcombe 1998 Table II in uplift.test.ts; these tests cover how
// the report reads it.

const MARGIN = 0.2;
const mini: AuditConfiguration = { provider: 'openai', model: 'gpt-4o-mini', baseUrl: '' };
const big: AuditConfiguration = { provider: 'openai', model: 'gpt-4o', baseUrl: '' };

function auditItem(configuration: number, questionIndex: number, guardedLeaks: number, done: number, errors = 0) {
  return {
    configuration,
    questionIndex,
    questionId: `q${questionIndex + 1}`,
    title: `Question ${questionIndex + 1}`,
    type: 'short-answer',
    attempts: done,
    done,
    errors,
    rawLeaks: guardedLeaks,
    guardedLeaks,
    rawLeakRate: null,
    guardedLeakRate: null,
    guardedInterval: null,
    formsLeaked: [],
    rawFormsLeaked: [],
    leaks: [],
  } satisfies AuditItem;
}

function solvabilityItem(
  configuration: number,
  questionIndex: number,
  outcomes: SolvabilityReplyOutcome[],
): SolvabilityItem {
  return {
    configuration,
    questionIndex,
    questionId: `q${questionIndex + 1}`,
    title: `Question ${questionIndex + 1}`,
    type: 'short-answer',
    verdict: 'not-judged',
    reason: null,
    replies: outcomes.map((outcome) => ({ phrasing: 'p', text: '', truncated: false, outcome, hasCode: false })),
  };
}

describe('proportion and rateDifference', () => {
  it('gives the Wilson interval of k/n, and nulls when nothing was measured', () => {
    const wilson = wilsonInterval(81 / 263, 263);
    expect(proportion(81, 263)).toEqual({ k: 81, n: 263, rate: 81 / 263, low: wilson.low, high: wilson.high });
    expect(proportion(0, 0)).toEqual({ k: 0, n: 0, rate: null, low: null, high: null });
  });

  it('sets the compared configuration against the own one with Newcombe’s interval', () => {
    const ci = newcombeDifference(9 / 10, 10, 3 / 10, 10);
    expect(rateDifference(1, proportion(9, 10), proportion(3, 10), MARGIN)).toEqual({
      configuration: 1,
      estimate: 9 / 10 - 3 / 10,
      low: ci.low,
      high: ci.high,
      verdict: 'differs',
    });
    expect(rateDifference(2, proportion(0, 0), proportion(3, 10), MARGIN)).toEqual({
      configuration: 2,
      estimate: null,
      low: null,
      high: null,
      verdict: 'not-measured',
    });
  });

  it('reads an interval as differs (excludes 0), equivalent (within ±margin) or inconclusive', () => {
    expect(differenceVerdict(0.01, 0.4, MARGIN)).toBe('differs');
    expect(differenceVerdict(-0.5, -0.02, MARGIN)).toBe('differs');
    expect(differenceVerdict(-0.15, 0.2, MARGIN)).toBe('equivalent');
    expect(differenceVerdict(-0.25, 0.1, MARGIN)).toBe('inconclusive');
    // 0/10 against 0/10: Newcombe's (−0.2775, 0.2775) is too wide to call equivalent within ±0.2.
    expect(rateDifference(1, proportion(0, 10), proportion(0, 10), MARGIN).verdict).toBe('inconclusive');
    // 0/200 against 0/200: narrow enough.
    expect(rateDifference(1, proportion(0, 200), proportion(0, 200), MARGIN).verdict).toBe('equivalent');
  });
});

describe('buildEquivalenceReport', () => {
  it('reports per item and configuration, names the models that differ, and finds the report differs', () => {
    const report = buildEquivalenceReport({
      auditId: 'a1',
      configurations: [mini, big],
      auditItems: [
        auditItem(0, 0, 1, 25),
        auditItem(1, 0, 20, 25),
        // 2 errors out of 27 done: the rate is over 25.
        auditItem(0, 1, 0, 27, 2),
        auditItem(1, 1, 0, 25),
      ],
      solvability: {
        id: 's1',
        items: [
          solvabilityItem(0, 0, ['none', 'withheld', 'error']),
          solvabilityItem(1, 0, ['answer', 'answer', 'not-judged']),
          solvabilityItem(0, 2, []),
          solvabilityItem(1, 2, []),
        ],
      },
      margin: MARGIN,
    });
    expect(report).toMatchObject({ auditId: 'a1', solvabilityCheckId: 's1', margin: MARGIN, verdict: 'differs' });
    expect(report.items.map((i) => i.questionIndex)).toEqual([0, 1, 2]);
    const [first, second, third] = report.items;
    expect(first?.leak.map((p) => [p.k, p.n])).toEqual([
      [1, 25],
      [20, 25],
    ]);
    expect(first?.leakDifference).toMatchObject([{ configuration: 1, verdict: 'differs' }]);
    expect(first?.leakDifference[0]?.estimate).toBeCloseTo(0.76, 12);
    // Errors and replies that could not be judged are left out of n.
    expect(first?.solvability.map((p) => [p.k, p.n])).toEqual([
      [0, 2],
      [2, 2],
    ]);
    expect(second?.leak.map((p) => [p.k, p.n])).toEqual([
      [0, 25],
      [0, 25],
    ]);
    // 0/25 against 0/25: Newcombe's interval is ±0.133, inside the margin.
    expect(second?.leakDifference[0]?.verdict).toBe('equivalent');
    expect(second?.solvabilityDifference[0]?.verdict).toBe('not-measured');
    expect(third?.leakDifference[0]?.verdict).toBe('not-measured');
    // 2/2 against 0/2: Newcombe's interval (0.07, 1) already excludes 0.
    expect(first?.solvabilityDifference[0]?.verdict).toBe('differs');
    expect(report.summary).toBe(
      'gpt-4o leaks past the guard more than gpt-4o-mini on 1 of 2 items; gpt-4o gives the answer away more often than gpt-4o-mini on 1 of 1 items.',
    );
  });

  it('says so when the own configuration helps more, and without a solvability check measures leaks only', () => {
    const report = buildEquivalenceReport({
      auditId: 'a1',
      configurations: [big, mini],
      auditItems: [auditItem(0, 0, 22, 25), auditItem(1, 0, 2, 25)],
      solvability: null,
      margin: MARGIN,
    });
    expect(report.solvabilityCheckId).toBeNull();
    expect(report.items[0]?.solvability).toEqual([proportion(0, 0), proportion(0, 0)]);
    expect(report.summary).toBe('gpt-4o leaks past the guard more than gpt-4o-mini on 1 of 1 items.');
  });

  it('finds equivalent help when every measured difference lies within the margin', () => {
    const report = buildEquivalenceReport({
      auditId: 'a1',
      configurations: [mini, { ...mini, provider: 'groq' }],
      auditItems: [auditItem(0, 0, 0, 300), auditItem(1, 0, 1, 300)],
      solvability: null,
      margin: MARGIN,
    });
    expect(report.verdict).toBe('equivalent');
    expect(report.summary).toBe(
      'gpt-4o-mini (openai) and gpt-4o-mini (groq) give equivalent help on all 1 items measured (within ±20 points).',
    );
  });

  it('is inconclusive with too few attempts, and not measured with none', () => {
    const few = buildEquivalenceReport({
      auditId: 'a1',
      configurations: [mini, big],
      auditItems: [auditItem(0, 0, 1, 5), auditItem(1, 0, 2, 5)],
      solvability: null,
      margin: MARGIN,
    });
    expect(few.verdict).toBe('inconclusive');
    expect(few.summary).toBe(
      'No difference was found between gpt-4o-mini and gpt-4o, but 1 of 1 items had too few attempts to show equivalent help within ±20 points.',
    );
    const none = buildEquivalenceReport({
      auditId: 'a1',
      configurations: [mini, big],
      auditItems: [auditItem(0, 0, 0, 0), auditItem(1, 0, 0, 3, 3)],
      solvability: null,
      margin: MARGIN,
    });
    expect(none.verdict).toBe('not-measured');
    expect(none.summary).toBe('Nothing was measured under both gpt-4o-mini and gpt-4o yet.');
  });

  it('names configurations apart when they share a model and a provider', () => {
    const selfHosted = (baseUrl: string): AuditConfiguration => ({
      provider: 'openai-compatible',
      model: 'llama',
      baseUrl,
    });
    const configurations = [selfHosted('http://a.test/v1'), selfHosted('http://b.test/v1')];
    expect(configurationLabel(configurations, 1)).toBe(
      'llama (openai-compatible at http://b.test/v1, configuration 2)',
    );
  });
});

describe('the verdict’s error rates, by seeded simulation', () => {
  const binomial = (random: Random, n: number, p: number) => {
    let k = 0;
    for (let i = 0; i < n; i++) k += random.bernoulli(p);
    return k;
  };
  /** How often an item with true leak rates p0 (own) and p1 (compared), n attempts each, is found to differ. */
  function differsRate(p0: number, p1: number, n: number, replications: number, seed: number) {
    const random = createRandom(seed);
    let differs = 0;
    for (let r = 0; r < replications; r++) {
      const own = binomial(random, n, p0);
      const compared = binomial(random, n, p1);
      const report = buildEquivalenceReport({
        auditId: 'sim',
        configurations: [mini, big],
        auditItems: [auditItem(0, 0, own, n), auditItem(1, 0, compared, n)],
        solvability: null,
        margin: MARGIN,
      });
      if (report.items[0]?.leakDifference[0]?.verdict === 'differs') differs += 1;
    }
    return differs / replications;
  }

  // Measured with these seeds (4000 replications, n = 25 per configuration): equal rates 0.3 vs 0.3 were found
  // to differ in 5.35% of replications (nominal 5%; seeds 1, 2 and 3 gave 5.48%, 4.93% and 4.90%), and rates
  // 0.1 vs 0.6 in 98.0%.
  it('finds a difference between equal rates about as often as the nominal 5%', () => {
    expect(differsRate(0.3, 0.3, 25, 4000, 20261129)).toBeLessThanOrEqual(0.06);
  });

  it('finds a large difference (0.1 against 0.6) in at least 90% of replications', () => {
    expect(differsRate(0.1, 0.6, 25, 4000, 20261130)).toBeGreaterThanOrEqual(0.9);
  });
});
