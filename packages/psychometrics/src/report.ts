import type { InsightsCandidate, InsightsItem, InsightsReport, InsightsTopic } from '@exam/domain/insights';
import { computeClassicalStatistics, REASONS } from './classical.ts';
import { INSIGHT_EXPLANATIONS } from './explanations.ts';
import { rangeBadge, REASONING_FORMULA, reasoningScore } from './integrity.ts';
import { itemFlags, raschItemFit } from './item-fit.ts';
import { chooseModel } from './model-choice.ts';
import { normalCdf } from './normal.ts';
import { eapAbilities, fitRasch, type RaschAbility } from './rasch.ts';
import { fitTwoPl } from './twopl.ts';
import { abilityOrder, scoreGroups } from './score-groups.ts';
import { aiUseOverTime, summariseTimes } from './timing.ts';
import { computeUplift, upliftTally, type Uplift, type UpliftTally } from './uplift.ts';
import {
  candidateFacts,
  competitionRanks,
  randomGuessScore,
  toMillis,
  type CandidateFacts,
  type ReportInput,
} from './report-input.ts';
import type { Stat } from './stat.ts';

export type { ReportInput } from './report-input.ts';

/** Items with a blank topic are reported under this topic. */
export const GENERAL_TOPIC = 'General';
const DEFAULT_QUADRATURE_POINTS = 41;
/**
 * The 2PL fits (2PL and its common-discrimination null model) integrate with 21 nodes — ltm's default for
 * rasch(), 15 for ltm() — and stop at 1e-4: on LSAT they give the same estimates to 4 decimals as 41 nodes
 * and 1e-5, at half the cost per EM cycle and fewer cycles on 10,000 candidates. At most 200 (accelerated)
 * cycles: a 2PL still moving after that is reported as not converged, and the model choice keeps the Rasch model.
 */
const TWO_PL_DEFAULTS = { quadraturePoints: 21, tolerance: 1e-4, maxIterations: 200 };
const NO_QUESTIONS = 'The exam has no questions.';
export const CHART_REASONS = {
  noAbilities: 'No candidate with a mark for this question has an ability estimate.',
  noViews:
    'No candidate’s exam page reported viewing this question (pages report the question on screen since question-view events were added).',
  noAiUse: 'No submitted attempt to show the assistant use of.',
} as const;

/** Runs one named phase of the report; a caller may time the phases (results-service's Server-Timing). */
export type PhaseTimer = <T>(phase: string, run: () => T) => T;
const untimed: PhaseTimer = (_phase, run) => run();

/**
 * The insights report of an exam (docs/product.md#insights): classical statistics (Moodle's definitions), Rasch
 * and 2PL fits with the model the abilities come from (model-choice.ts), Rasch item fit and review flags, the
 * candidate ranking, topical and overall performance and integrity figures — every number measured from the
 * submissions given, or null with a reason.
 */
export function buildInsightsReport(input: ReportInput, time: PhaseTimer = untimed): InsightsReport {
  const { items, candidates } = input;
  const reasons: Record<string, string> = {};
  const take = (key: string, stat: Stat): number | null => {
    if (stat.value === null && stat.reason) reasons[key] = stat.reason;
    return stat.value;
  };
  const facts = time('candidates', () => candidates.map((c) => candidateFacts(c, items)));
  const marks = facts.map((f) => f.marks);
  const J = items.length;
  const classical = time('classical', () => computeClassicalStatistics(marks, J, items.map(randomGuessScore)));
  const quadraturePoints = input.rasch?.quadraturePoints ?? DEFAULT_QUADRATURE_POINTS;
  const fit = time('rasch', () => fitRasch(marks, J, { ...input.rasch, quadraturePoints }));
  if (fit.reason) reasons.rasch = fit.reason;
  else if (!fit.converged)
    reasons.rasch = `The Rasch fit stopped after ${fit.iterations} iterations before converging; its figures are approximate.`;
  // Both 2PL fits start from the Rasch difficulties, which saves EM cycles.
  const twoPlOptions = { ...TWO_PL_DEFAULTS, ...input.twoPl, start: fit.items.map((i) => i.difficulty) };
  const onePl = time('one-pl', () => fitTwoPl(marks, J, { ...twoPlOptions, discrimination: 'common' }));
  const twoPl = time('two-pl', () => fitTwoPl(marks, J, { ...twoPlOptions, discrimination: 'free' }));
  if (twoPl.reason) reasons.twoPl = twoPl.reason;
  else if (!twoPl.converged)
    reasons.twoPl = `The 2PL fit stopped after ${twoPl.iterations} iterations before converging; its figures are approximate.`;
  const model = chooseModel(onePl, twoPl, input.model ?? 'auto');
  const chosen = model.chosen === '2pl' ? twoPl : fit;
  const thetas = chosen.abilities.map((a) => a.theta);
  const byAbility = abilityOrder(thetas);
  const itemFits = time('item-fit', () =>
    raschItemFit(
      marks,
      fit.items.map((i) => i.difficulty),
      fit.abilities,
    ),
  );

  const t = classical.test;
  const percentOfMax = (stat: Stat): Stat =>
    J === 0 ? { value: null, reason: NO_QUESTIONS } : stat.value === null ? stat : { value: (100 * stat.value) / J };
  const test = {
    candidates: t.candidates,
    maxScore: J,
    mean: take('test.mean', percentOfMax(t.mean)),
    median: take('test.median', percentOfMax(t.median)),
    sd: take('test.sd', percentOfMax(t.sd)),
    skewness: take('test.skewness', t.skewness),
    kurtosis: take('test.kurtosis', t.kurtosis),
    cronbachAlpha: take('test.cronbachAlpha', t.cronbachAlpha),
    errorRatio: take('test.errorRatio', t.errorRatio),
    standardError: take('test.standardError', percentOfMax(t.standardError)),
  };

  const itemRows: InsightsItem[] = items.map((item, j) => {
    const stats = classical.items[j]!;
    const rasch = fit.items[j]!;
    const key = (field: string) => `items.${item.questionIndex}.${field}`;
    if (rasch.difficulty === null && rasch.reason) reasons[key('raschDifficulty')] = rasch.reason;
    const two = twoPl.items[j]!;
    if (two.reason)
      reasons[key(two.discrimination === null ? 'twoPl' : two.difficulty === null ? 'twoPl.difficulty' : 'twoPl.se')] =
        two.reason;
    const itemFit = itemFits[j]!;
    if (itemFit.reason) reasons[key('fit')] = itemFit.reason;
    const consulted = facts.reduce((n, f) => n + (f.consulted[j] ? 1 : 0), 0);
    const aiUplift = upliftOf(
      key('aiUplift'),
      upliftTally(marks, [j], (c) => facts[c]!.consulted[j]!),
      reasons,
    );
    const groups = scoreGroups(
      marks.map((row) => row[j] ?? null),
      thetas,
      byAbility,
    );
    if (groups.length === 0) reasons[key('scoreGroups')] = chosen.reason ?? CHART_REASONS.noAbilities;
    const time = summariseTimes(facts.flatMap((f) => (f.seconds[j] === undefined ? [] : [f.seconds[j]])));
    if (time.candidates === 0) reasons[key('time')] = CHART_REASONS.noViews;
    return {
      questionIndex: item.questionIndex,
      topic: topicOf(item.topic),
      type: item.type,
      graded: stats.graded,
      facility: take(key('facility'), stats.facility),
      sd: take(key('sd'), stats.sd),
      discriminationIndex: take(key('discriminationIndex'), stats.discriminationIndex),
      discriminativeEfficiency: take(key('discriminativeEfficiency'), stats.discriminativeEfficiency),
      effectiveWeight: take(key('effectiveWeight'), stats.effectiveWeight),
      randomGuessScore: stats.randomGuessScore,
      raschDifficulty: rasch.difficulty,
      raschDifficultySe: rasch.se,
      twoPl:
        two.discrimination === null
          ? null
          : {
              discrimination: two.discrimination,
              difficulty: two.difficulty,
              discriminationSe: two.discriminationSe,
              difficultySe: two.difficultySe,
            },
      fit: {
        infit: itemFit.infit,
        outfit: itemFit.outfit,
        flags: itemFlags(itemFit, two.discrimination, stats.discriminationIndex.value, input.flags),
      },
      aiReference: take(
        key('aiReference'),
        candidates.length === 0
          ? { value: null, reason: REASONS.noCandidates }
          : { value: (100 * consulted) / candidates.length },
      ),
      aiUplift,
      scoreGroups: groups,
      time,
    };
  });

  const candidateRows = rankCandidates(input, facts, chosen.abilities, reasons);
  const difficulties = chosen.items.map((i) => i.difficulty);
  const discriminations = model.chosen === '2pl' ? twoPl.items.map((i) => i.discrimination) : undefined;
  const topics = groupTopics(input).map(({ topic, positions }) =>
    topicRow(
      topic,
      positions,
      facts,
      chosen.reason ?? null,
      time('rasch-topics', () => eapAbilities(marks, difficulties, positions, quadraturePoints, discriminations)),
      reasons,
    ),
  );
  const mean = (key: string, values: readonly (number | null)[], reason: string) => take(key, meanOf(values, reason));
  const aiUplift = {
    overall: upliftOf(
      'overall.aiUplift',
      upliftTally(
        marks,
        items.map((_, j) => j),
        (c) => facts[c]!.askedAnything,
      ),
      reasons,
    ),
    topics: groupTopics(input).map(({ topic, positions }) => ({
      topic,
      ...upliftOf(
        `topics.${topic}.aiUplift`,
        upliftTally(marks, positions, (c, j) => facts[c]!.consulted[j]!),
        reasons,
      ),
    })),
  };
  const aiUse = aiUseOverTime(
    facts.map((f) => ({ startedAt: f.startedAtMs, completedAt: f.completedAtMs, messages: f.messageTimes })),
  );
  if (aiUse.buckets.length === 0) reasons.aiUse = CHART_REASONS.noAiUse;
  const noCandidates = REASONS.noCandidates;

  return {
    cohort: { ...input.cohort },
    test,
    items: itemRows,
    candidates: candidateRows,
    topics,
    overall: {
      questions: J,
      rawScorePercent: mean(
        'overall.rawScorePercent',
        candidateRows.map((c) => c.rawScore),
        J === 0 ? NO_QUESTIONS : noCandidates,
      ),
      abilityPercent: mean(
        'overall.abilityPercent',
        candidateRows.map((c) => c.abilityScore),
        chosen.reason ?? noCandidates,
      ),
      reasoningPercent: mean(
        'overall.reasoningPercent',
        candidateRows.map((c) => c.reasoning),
        J === 0 ? NO_QUESTIONS : noCandidates,
      ),
    },
    integrity: {
      avgTimeToCompleteSeconds: mean(
        'integrity.avgTimeToCompleteSeconds',
        facts.map((f) => f.timeSpent),
        noCandidates,
      ),
      focusPercent: mean(
        'integrity.focusPercent',
        facts.map((f) => f.focusPercent),
        noCandidates,
      ),
      externalPasteBlocked: facts.reduce((n, f) => n + f.blockedPastes, 0),
      copyWritingPercent: mean(
        'integrity.copyWritingPercent',
        facts.map((f) => f.copyWriting),
        'No candidate wrote an answer long enough to compare.',
      ),
    },
    rasch: { converged: fit.converged, iterations: fit.iterations, logLikelihood: fit.logLikelihood, quadraturePoints },
    model: {
      requested: model.requested,
      chosen: model.chosen,
      lrt: model.lrt,
      alpha: model.alpha,
      reason: model.reason,
      twoPl: {
        converged: twoPl.converged,
        iterations: twoPl.iterations,
        logLikelihood: twoPl.logLikelihood,
        quadraturePoints: twoPlOptions.quadraturePoints,
      },
    },
    aiUplift,
    aiUse,
    reasoningFormula: REASONING_FORMULA,
    explanations: { ...INSIGHT_EXPLANATIONS },
    reasons,
  };
}

/** An uplift comparison; when it has no difference, its caution is the reason under `key`. */
function upliftOf(key: string, tally: UpliftTally, reasons: Record<string, string>): Uplift {
  const uplift = computeUplift(tally);
  if (uplift.difference === null && uplift.caution) reasons[key] = uplift.caution;
  return uplift;
}

function topicOf(topic: string): string {
  return topic.trim() === '' ? GENERAL_TOPIC : topic.trim();
}

function meanOf(values: readonly (number | null)[], reason: string): Stat {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    sum += v;
    n += 1;
  }
  return n === 0 ? { value: null, reason } : { value: sum / n };
}

const abilityPercent = (a: RaschAbility) => (a.theta === null ? null : 100 * normalCdf(a.theta));

function rankCandidates(
  input: ReportInput,
  facts: CandidateFacts[],
  abilities: RaschAbility[],
  reasons: Record<string, string>,
): InsightsCandidate[] {
  const J = input.items.length;
  // The score creators see (points as weighted) when the caller gives it, so the ranking never contradicts the score
  // beside it; the unweighted items correct only for a report built without scores.
  const scores = input.candidates.map((c) => c.score);
  const byScore = scores.every((s): s is number => typeof s === 'number' && Number.isFinite(s));
  const ranks = competitionRanks(byScore ? scores : facts.map((f) => f.correct));
  const rows = input.candidates.map((c, i) => {
    const f = facts[i]!;
    const a = abilities[i]!;
    const key = (field: string) => `candidates.${c.resultId}.${field}`;
    if (a.theta === null && a.reason) reasons[key('ability')] = a.reason;
    if (f.copyWriting === null) reasons[key('copyWriting')] = 'No written answer long enough to compare.';
    if (f.timeSpent === null) reasons[key('timeSpent')] = 'The attempt has no completion time.';
    return {
      resultId: c.resultId,
      name: c.name,
      studentId: c.studentId,
      startedAt: new Date(toMillis(c.startedAt)).toISOString(),
      completedAt: c.completedAt === null ? null : new Date(toMillis(c.completedAt)).toISOString(),
      rank: ranks[i]!,
      correct: f.correct,
      rawScore: J === 0 ? null : (100 * f.correct) / J,
      abilityScore: abilityPercent(a),
      abilityTheta: a.theta,
      abilitySe: a.se,
      reasoning: f.reasoningScore,
      timeSpent: f.timeSpent,
      copyWriting: f.copyWriting,
      focusPercent: f.focusPercent,
      blockedPastes: f.blockedPastes,
      badges: { rawScore: null, ability: null, reasoning: null } as InsightsCandidate['badges'],
      // Filled by results-service, which has the sections, the transcripts and the grader's judgements.
      ability: null,
      reliance: null,
      collaboration: null,
    };
  });
  const badged = { rawScore: 'rawScore', ability: 'abilityScore', reasoning: 'reasoning' } as const;
  for (const [badge, field] of Object.entries(badged) as Array<
    [keyof typeof badged, (typeof badged)[keyof typeof badged]]
  >) {
    const cohortMean = meanOf(
      rows.map((r) => r[field]),
      '',
    ).value;
    for (const row of rows) {
      const value = row[field];
      row.badges[badge] = value === null || cohortMean === null ? null : rangeBadge(value, cohortMean);
    }
  }
  // Candidates sharing a rank are listed by name, then result id, so the order never depends on submission order.
  return rows.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.name.localeCompare(b.name) ||
      (a.resultId < b.resultId ? -1 : a.resultId > b.resultId ? 1 : 0),
  );
}

function groupTopics(input: ReportInput): { topic: string; positions: number[] }[] {
  const byTopic = new Map<string, number[]>();
  input.items.forEach((item, j) => {
    const topic = topicOf(item.topic);
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), j]);
  });
  return [...byTopic].map(([topic, positions]) => ({ topic, positions }));
}

function topicRow(
  topic: string,
  positions: number[],
  facts: CandidateFacts[],
  fitReason: string | null,
  abilities: RaschAbility[],
  reasons: Record<string, string>,
): InsightsTopic {
  const key = (field: string) => `topics.${topic}.${field}`;
  const take = (field: string, stat: Stat) => {
    if (stat.value === null && stat.reason) reasons[key(field)] = stat.reason;
    return stat.value;
  };
  const share = (f: CandidateFacts) => (100 * positions.reduce((n, j) => n + (f.marks[j] ?? 0), 0)) / positions.length;
  const abilityReason = fitReason ?? abilities.find((a) => a.reason)?.reason ?? REASONS.noCandidates;
  return {
    topic,
    questions: positions.length,
    rawScorePercent: take('rawScorePercent', meanOf(facts.map(share), REASONS.noCandidates)),
    abilityPercent: take('abilityPercent', meanOf(abilities.map(abilityPercent), abilityReason)),
    reasoningPercent: take(
      'reasoningPercent',
      meanOf(
        facts.map((f) => reasoningScore(positions.map((j) => f.reasoning[j]!))),
        REASONS.noCandidates,
      ),
    ),
  };
}
