import { InsightsReportSchema, type InsightsReport } from '@exam/domain/insights';
import { describe, expect, it } from 'vitest';
import { RASCH_REASONS } from './rasch.ts';
import { REASONS } from './classical.ts';
import { ITEM_FLAG_EXPLANATIONS } from './item-fit.ts';
import { buildInsightsReport, GENERAL_TOPIC, type ReportInput } from './report.ts';
import { simulateTwoPl, spreadDifficulties } from './simulate.ts';
import { CHART_REASONS } from './report.ts';
import { newcombeDifference, UPLIFT_CAUTIONS } from './uplift.ts';

const ITEMS: ReportInput['items'] = [
  { questionIndex: 0, topic: 'Algorithms', type: 'mcq', optionCount: 4 },
  { questionIndex: 1, topic: 'Algorithms', type: 'short-answer', optionCount: 0 },
  { questionIndex: 2, topic: 'SQL', type: 'coding', optionCount: 0 },
  { questionIndex: 3, topic: ' ', type: 'file-upload', optionCount: 0 },
];
const at = (minutes: number) => new Date(Date.UTC(2025, 0, 5, 10, minutes)).toISOString();
const SQL = 'SELECT name FROM users WHERE age > 30';

function candidate(
  name: string,
  marks: (0 | 1 | null)[],
  extra: Partial<ReportInput['candidates'][number]> = {},
): ReportInput['candidates'][number] {
  return {
    resultId: `r-${name}`,
    name,
    studentId: `S-${name}`,
    startedAt: at(0),
    completedAt: at(10),
    marks,
    answers: ['Option A', 'a tally', SQL, 'File: work.pdf'],
    events: [],
    chat: [],
    ...extra,
  };
}

/*
 * Ada copies her short answer from the assistant she asked on question 1, loses focus for 2 of 10
 * minutes and has two pastes blocked; Dan asks the assistant on question 0. Marks (question 3 ungraded
 * for Ada, wrong for the rest): Ada 1 1 1 – (3), Bea 1 0 1 0 (2), Cal 0 0 0 0 (0), Dan 1 1 0 0 (2).
 */
const INPUT: ReportInput = {
  items: ITEMS,
  cohort: { invited: 6, started: 5, submitted: 4, graded: 3, pending: 1 },
  candidates: [
    candidate('Cal', [0, 0, 0, 0], { completedAt: at(20) }),
    candidate('Ada', [1, 1, 1, null], {
      answers: ['Option B', 'use a hash map to count', SQL, 'File: a.pdf'],
      events: [
        { type: 'focus-lost', at: at(2) },
        { type: 'focus-gained', at: at(4) },
        { type: 'paste-blocked', at: at(5) },
        { type: 'paste-blocked', at: at(6) },
      ],
      chat: [
        { role: 'user', content: 'How do I count words?', questionIndex: 1 },
        { role: 'assistant', content: 'You should use a hash map to count the words.', questionIndex: 1 },
      ],
    }),
    candidate('Bea', [1, 0, 1, 0]),
    candidate('Dan', [1, 1, 0, 0], { chat: [{ role: 'user', content: 'What is a heap?', questionIndex: 0 }] }),
  ],
};

function hasNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value && typeof value === 'object') return Object.values(value).some(hasNonFinite);
  return false;
}

describe('buildInsightsReport', () => {
  const report: InsightsReport = buildInsightsReport(INPUT);
  const byName = (name: string) => report.candidates.find((c) => c.name === name)!;

  it('produces a report that satisfies the domain schema with no NaN or Infinity', () => {
    expect(InsightsReportSchema.parse(report)).toEqual(report);
    expect(hasNonFinite(report)).toBe(false);
    expect(report.cohort).toEqual(INPUT.cohort);
  });

  it('ranks by raw score with shared ranks for ties', () => {
    expect(report.candidates.map((c) => [c.name, c.rank, c.correct, c.rawScore])).toEqual([
      ['Ada', 1, 3, 75],
      ['Bea', 2, 2, 50],
      ['Dan', 2, 2, 50],
      ['Cal', 4, 0, 0],
    ]);
  });

  it('ranks by the score creators see when every candidate has one, not by items correct, ties listed by name', () => {
    // Cal answered nothing right by count, yet the weighted score puts him first; Bea and Dan tie on the score.
    const scores: Record<string, number> = { Ada: 40, Bea: 55, Cal: 90, Dan: 55 };
    const scored = buildInsightsReport({
      ...INPUT,
      candidates: INPUT.candidates.map((c) => ({ ...c, score: scores[c.name]! })),
    });
    expect(scored.candidates.map((c) => [c.name, c.rank, c.correct])).toEqual([
      ['Cal', 1, 0],
      ['Bea', 2, 2],
      ['Dan', 2, 2],
      ['Ada', 4, 3],
    ]);
    // One candidate without a score: the whole cohort falls back to items correct, as before.
    const partial = buildInsightsReport({
      ...INPUT,
      candidates: INPUT.candidates.map((c) => (c.name === 'Ada' ? c : { ...c, score: scores[c.name]! })),
    });
    expect(partial.candidates.map((c) => c.name)).toEqual(['Ada', 'Bea', 'Dan', 'Cal']);
  });

  it('orders Rasch abilities like raw scores and gives equal scores equal ability', () => {
    const [ada, bea, dan, cal] = ['Ada', 'Bea', 'Dan', 'Cal'].map(byName);
    expect(ada!.abilityTheta!).toBeGreaterThan(bea!.abilityTheta!);
    expect(bea!.abilityTheta).toBeCloseTo(dan!.abilityTheta!, 12);
    expect(cal!.abilityTheta!).toBeLessThan(bea!.abilityTheta!);
    for (const c of [ada!, cal!]) expect(c.abilityScore! > 0 && c.abilityScore! < 100).toBe(true);
    expect(ada!.abilitySe!).toBeGreaterThan(0);
  });

  it('removes credit for copied answers and halves it for consulted ones in Reasoning', () => {
    // Ada: 1 + 0 (copied) + 1 + 0 → 50; Dan: 0.5 (consulted) + 1 → 37.5; Bea: 2/4 → 50.
    expect(byName('Ada').reasoning).toBe(50);
    expect(byName('Dan').reasoning).toBe(37.5);
    expect(byName('Bea').reasoning).toBe(50);
    expect(report.reasoningFormula).toMatch(/0\.5/);
  });

  it('measures copy writing, focus, pastes and time per candidate', () => {
    // Ada's written words: all 6 of "use a hash map to count" copied + 8 of her own SQL → 6/14.
    expect(byName('Ada').copyWriting).toBeCloseTo((100 * 6) / 14, 10);
    expect(byName('Bea').copyWriting).toBe(0);
    expect(byName('Ada').focusPercent).toBe(80);
    expect(byName('Bea').focusPercent).toBe(100);
    expect(byName('Ada').blockedPastes).toBe(2);
    expect(byName('Cal').timeSpent).toBe(1200);
    expect(report.integrity).toEqual({
      avgTimeToCompleteSeconds: (600 * 3 + 1200) / 4,
      focusPercent: 95,
      externalPasteBlocked: 2,
      copyWritingPercent: (100 * 6) / 14 / 4,
    });
  });

  it('badges scores against a ±15 band around the cohort mean', () => {
    // Raw score mean 43.75 → band 28.75–58.75.
    expect(report.candidates.map((c) => c.badges.rawScore)).toEqual(['above', 'in', 'in', 'below']);
  });

  it('reports per-item statistics with AI reference and not-estimable difficulties', () => {
    const [q0, q1, q2, q3] = report.items;
    expect(q0!.facility).toBe(0.75);
    expect(q0!.randomGuessScore).toBe(0.25);
    expect(q1!.randomGuessScore).toBe(0);
    expect(q0!.aiReference).toBe(25);
    expect(q1!.aiReference).toBe(25);
    expect(q2!.aiReference).toBe(0);
    expect(q3!.topic).toBe(GENERAL_TOPIC);
    expect(q3!.graded).toBe(3);
    expect(q3!.facility).toBe(0);
    expect(q3!.raschDifficulty).toBeNull();
    expect(report.reasons['items.3.raschDifficulty']).toBe(RASCH_REASONS.noneCorrect);
    expect(report.reasons['items.3.discriminationIndex']).toBe(REASONS.sameItemMark);
    expect(q0!.raschDifficulty!).toBeLessThan(q1!.raschDifficulty!);
  });

  it('reports test statistics as Moodle does, in percent of the maximum score', () => {
    // Totals 3, 2, 0, 2 of 4 → mean 1.75 = 43.75 %, median 2 = 50 %.
    expect(report.test.mean).toBe(43.75);
    expect(report.test.median).toBe(50);
    expect(report.test.maxScore).toBe(4);
    expect(report.test.candidates).toBe(4);
    expect(report.test.cronbachAlpha).not.toBeNull();
  });

  it('summarises performance by topic and overall', () => {
    expect(report.topics.map((t) => [t.topic, t.questions, t.rawScorePercent, t.reasoningPercent])).toEqual([
      ['Algorithms', 2, 62.5, 43.75],
      ['SQL', 1, 50, 50],
      [GENERAL_TOPIC, 1, 0, 0],
    ]);
    expect(report.topics[2]!.abilityPercent).toBeNull();
    expect(report.reasons[`topics.${GENERAL_TOPIC}.abilityPercent`]).toBe(RASCH_REASONS.noEstimableItems);
    expect(report.overall.questions).toBe(4);
    expect(report.overall.rawScorePercent).toBe(43.75);
    expect(report.overall.reasoningPercent).toBe(34.375);
  });

  it('explains every figure it reports', () => {
    for (const field of Object.keys(report.test).filter((f) => !['candidates', 'maxScore'].includes(f))) {
      expect(report.explanations[`test.${field}`]).toBeTruthy();
    }
    for (const field of ['facility', 'discriminationIndex', 'raschDifficulty', 'aiReference', 'randomGuessScore']) {
      expect(report.explanations[`item.${field}`]).toBeTruthy();
    }
    for (const field of ['rawScore', 'ability', 'reasoning', 'copyWriting', 'focusPercent']) {
      expect(report.explanations[`candidate.${field}`]).toBeTruthy();
    }
  });

  it('returns nulls with reasons, never made-up numbers, for a single submission', () => {
    const single = buildInsightsReport({ ...INPUT, candidates: INPUT.candidates.slice(1, 2) });
    expect(InsightsReportSchema.parse(single)).toEqual(single);
    expect(hasNonFinite(single)).toBe(false);
    expect(single.test.sd).toBeNull();
    expect(single.reasons['test.sd']).toBe(REASONS.fewCandidates(2));
    expect(single.candidates[0]!.abilityScore).toBeNull();
    expect(single.reasons['candidates.r-Ada.ability']).toBe(RASCH_REASONS.fewCandidates);
    expect(single.reasons.rasch).toBe(RASCH_REASONS.fewCandidates);
    expect(single.overall.abilityPercent).toBeNull();
  });

  it('says the Rasch figures are approximate when the fit did not converge', () => {
    const rough = buildInsightsReport({ ...INPUT, rasch: { maxIterations: 1, tolerance: 1e-12 } });
    expect(rough.rasch.converged).toBe(false);
    expect(rough.reasons.rasch).toMatch(/approximate/);
    expect(report.reasons.rasch).toBeUndefined();
  });

  it('runs its phases through the timer when one is given and builds the same report', () => {
    const phases: string[] = [];
    const timed = buildInsightsReport(INPUT, (phase, run) => {
      phases.push(phase);
      return run();
    });
    expect(timed).toEqual(report);
    expect(phases.slice(0, 6)).toEqual(['candidates', 'classical', 'rasch', 'one-pl', 'two-pl', 'item-fit']);
    expect(phases.slice(6)).toEqual(report.topics.map(() => 'rasch-topics'));
  });

  it('returns an empty report with reasons when nobody has submitted', () => {
    const empty = buildInsightsReport({ ...INPUT, candidates: [] });
    expect(InsightsReportSchema.parse(empty)).toEqual(empty);
    expect(empty.candidates).toEqual([]);
    expect(empty.test.mean).toBeNull();
    expect(empty.items[0]!.aiReference).toBeNull();
    expect(empty.integrity.avgTimeToCompleteSeconds).toBeNull();
    expect(empty.reasons['integrity.copyWritingPercent']).toBeTruthy();
  });
});

describe('buildInsightsReport chart data', () => {
  const seconds = (s: number) => new Date(Date.UTC(2025, 0, 5, 10, 0, s)).toISOString();
  // Bea's page reports viewing question 0 for 60 s and question 2 for 30 s before a focus loss; Dan asks at 3 min.
  const input: ReportInput = {
    ...INPUT,
    candidates: INPUT.candidates.map((c) =>
      c.name === 'Bea'
        ? {
            ...c,
            events: [
              { type: 'question-view', at: seconds(0), questionIndex: 0 },
              { type: 'question-view', at: seconds(60), questionIndex: 2 },
              { type: 'focus-lost', at: seconds(90) },
            ],
          }
        : c.name === 'Dan'
          ? { ...c, chat: [{ ...c.chat[0]!, at: at(3) }] }
          : c,
    ),
  };
  const report = buildInsightsReport(input);

  it('compares those who asked the assistant about a question with those who did not', () => {
    expect(InsightsReportSchema.parse(report)).toEqual(report);
    // Question 0: Dan asked (1); Cal 0, Ada 1, Bea 1 did not.
    const q0 = report.items[0]!.aiUplift!;
    const ci = newcombeDifference(1, 1, 2 / 3, 3);
    expect(q0).toMatchObject({ asked: 1, notAsked: 3, askedFacility: 1, ciLow: ci.low, ciHigh: ci.high });
    expect(q0.notAskedFacility).toBeCloseTo(2 / 3, 12);
    expect(q0.difference).toBeCloseTo(1 / 3, 12);
    expect(q0.caution).toBe(UPLIFT_CAUTIONS.small(1, 3));
    // Question 3: Ada's answer is pending, so she is left out; nobody else asked.
    expect(report.items[3]!.aiUplift).toMatchObject({ asked: 0, notAsked: 3, difference: null, ciLow: null });
    expect(report.reasons['items.3.aiUplift']).toBe(UPLIFT_CAUTIONS.nobodyAsked);
  });

  it('compares per topic (asked about any of its questions) and over the exam (asked anything)', () => {
    const algorithms = report.aiUplift!.topics.find((t) => t.topic === 'Algorithms')!;
    // Ada (asked on q1) and Dan (q0) both have 1, 1; Cal 0, 0 and Bea 1, 0.
    expect(algorithms).toMatchObject({ asked: 2, notAsked: 2, askedFacility: 1, notAskedFacility: 0.25 });
    expect(report.aiUplift!.topics.map((t) => t.topic)).toEqual(report.topics.map((t) => t.topic));
    // Over the exam: Ada 3/3 and Dan 2/4 against Cal 0/4 and Bea 2/4.
    expect(report.aiUplift!.overall).toMatchObject({
      asked: 2,
      notAsked: 2,
      askedFacility: 0.75,
      notAskedFacility: 0.25,
    });
    expect(report.aiUplift!.overall.difference).toBe(0.5);
  });

  it('gives every item its ability groups from the chosen model', () => {
    const thetas = new Map(report.candidates.map((c) => [c.name, c.abilityTheta!]));
    // Question 3 over Cal, Bea, Dan (Ada pending): one group, nobody right.
    expect(report.items[3]!.scoreGroups).toEqual([
      {
        theta: expect.closeTo((thetas.get('Cal')! + thetas.get('Bea')! + thetas.get('Dan')!) / 3, 10),
        n: 3,
        observed: 0,
      },
    ]);
    expect(report.items[0]!.scoreGroups).toMatchObject([{ n: 4, observed: 0.75 }]);
    const single = buildInsightsReport({ ...input, candidates: input.candidates.slice(0, 1) });
    expect(single.items[0]!.scoreGroups).toEqual([]);
    expect(single.reasons['items.0.scoreGroups']).toBe(RASCH_REASONS.fewCandidates);
  });

  it('measures time per question from question-view events, null with a reason without any', () => {
    expect(report.items[0]!.time).toEqual({ medianSeconds: 60, meanSeconds: 60, candidates: 1 });
    expect(report.items[2]!.time).toEqual({ medianSeconds: 30, meanSeconds: 30, candidates: 1 });
    expect(report.items[1]!.time).toEqual({ medianSeconds: null, meanSeconds: null, candidates: 0 });
    expect(report.reasons['items.1.time']).toBe(CHART_REASONS.noViews);
  });

  it('counts messages to the assistant by minute since the start', () => {
    // The attempts last up to 20 minutes; only Dan's message has a time.
    expect(report.aiUse!.bucketSeconds).toBe(60);
    expect(report.aiUse!.buckets).toHaveLength(20);
    expect(report.aiUse!.buckets.filter((b) => b.messages > 0)).toEqual([{ from: 180, messages: 1, candidates: 1 }]);
  });

  it('explains the new figures', () => {
    for (const key of ['item.aiUplift', 'item.scoreGroups', 'item.time', 'topic.aiUplift', 'overall.aiUplift', 'aiUse'])
      expect(report.explanations[key]).toBeTruthy();
  });
});

describe('buildInsightsReport models', () => {
  // 800 candidates, 10 questions in two topics; discriminations vary strongly and question 9 is keyed wrong
  // (stronger candidates miss it).
  const A = [0.4, 2.2, 0.5, 2.0, 0.6, 1.8, 0.45, 2.4, 1.0, -1.0];
  const B = spreadDifficulties(10, -1.2, 1.2);
  const { marks } = simulateTwoPl(800, A, B, 2026);
  const simulated: ReportInput = {
    items: A.map((_, j) => ({ questionIndex: j, topic: j < 5 ? 'One' : 'Two', type: 'mcq', optionCount: 4 })),
    cohort: { invited: 800, started: 800, submitted: 800, graded: 800, pending: 0 },
    candidates: marks.map((row, c) => candidate(`c${c}`, row)),
  };
  const auto = buildInsightsReport(simulated);

  it('reports each question’s 2PL parameters and standard errors and picks the 2PL by the likelihood-ratio test', () => {
    expect(InsightsReportSchema.parse(auto)).toEqual(auto);
    expect(auto.model).toMatchObject({ requested: 'auto', chosen: '2pl', alpha: 0.05 });
    expect(auto.model!.lrt!.df).toBe(9);
    expect(auto.model!.lrt!.p).toBeLessThan(0.001);
    expect(auto.model!.twoPl).toMatchObject({ converged: true, quadraturePoints: 21 });
    auto.items.forEach((item, j) => {
      const two = item.twoPl!;
      expect(Math.abs(two.discrimination! - A[j]!)).toBeLessThan(Math.max(0.4, 3.5 * two.discriminationSe!));
      expect(two.difficultySe!).toBeGreaterThan(0);
    });
    expect(auto.explanations['item.twoPl.discrimination']).toMatch(/discrimination/);
    expect(auto.explanations['model.lrt']).toMatch(/Likelihood-ratio/);
  });

  it('flags the wrongly keyed question with a plain-language explanation and gives every item its fit', () => {
    const reversed = auto.items[9]!;
    expect(reversed.twoPl!.discrimination!).toBeLessThan(0);
    expect(reversed.fit!.flags).toContain('negative-discrimination');
    expect(reversed.fit!.flags).toEqual(['noisy', 'negative-discrimination']);
    expect(auto.explanations['flag.negative-discrimination']).toBe(ITEM_FLAG_EXPLANATIONS['negative-discrimination']);
    expect(auto.explanations['flag.negative-discrimination']).toMatch(/Check the key/);
    for (const item of auto.items) {
      expect(item.fit!.infit).not.toBeNull();
      expect(item.fit!.outfit).not.toBeNull();
    }
  });

  it('takes the abilities from the chosen model, or from the one the creator asks for', () => {
    const rasch = buildInsightsReport({ ...simulated, model: 'rasch' });
    expect(rasch.model).toMatchObject({ requested: 'rasch', chosen: 'rasch' });
    expect(rasch.model!.lrt).toEqual(auto.model!.lrt);
    // Same raw score, same Rasch ability; under the 2PL it depends on which questions were right.
    const byScore = new Map<number, Set<number>>();
    for (const row of rasch.candidates)
      byScore.set(row.correct, (byScore.get(row.correct) ?? new Set()).add(row.abilityTheta!));
    expect([...byScore.values()].every((thetas) => thetas.size === 1)).toBe(true);
    const twoPlByScore = new Map<number, Set<number>>();
    for (const row of auto.candidates)
      twoPlByScore.set(row.correct, (twoPlByScore.get(row.correct) ?? new Set()).add(row.abilityTheta!));
    expect([...twoPlByScore.values()].some((thetas) => thetas.size > 1)).toBe(true);
    expect(rasch.items.map((i) => i.twoPl)).toEqual(auto.items.map((i) => i.twoPl));
  });

  it('leaves a question nobody got right without 2PL parameters, with the reason', () => {
    const report = buildInsightsReport(INPUT);
    expect(report.items[3]!.twoPl).toBeNull();
    expect(report.reasons['items.3.twoPl']).toBe(RASCH_REASONS.noneCorrect);
    expect(report.model!.chosen).toBe('rasch');
  });
});
