import type {
  AuditConfiguration,
  AuditItem,
  EquivalenceItem,
  EquivalenceReport,
  EquivalenceVerdict,
  Proportion,
  RateDifference,
} from '@exam/domain/assistant-audit';
import type { SolvabilityItem } from '@exam/domain/solvability';
import { newcombeDifference, wilsonInterval } from './uplift.ts';

/**
 * Provider equivalence (docs/product.md, "Comparing configurations"): whether the configurations an exam's
 * candidates may get give them equivalent help, per item, from an audit's leak counts and a solvability check's
 * replies over the same configurations. Each compared configuration is set against configuration 0 (the exam's
 * own) by Newcombe's hybrid score interval of the difference of rates (uplift.ts), and read as a two one-sided
 * test of equivalence within ±margin (Schuirmann 1987) at the 95% interval.
 */

export type EquivalenceInput = {
  auditId: string;
  configurations: readonly AuditConfiguration[];
  auditItems: readonly AuditItem[];
  /** The solvability check over the same configurations and exam version, when one finished. */
  solvability: { id: string; items: readonly SolvabilityItem[] } | null;
  /** EQUIVALENCE_MARGIN of the domain; a difference whose interval lies within ±margin is equivalent. */
  margin: number;
};

/** k of n with its 95% Wilson interval; rate and interval are null when nothing was measured. */
export function proportion(k: number, n: number): Proportion {
  if (n <= 0) return { k, n: 0, rate: null, low: null, high: null };
  const rate = k / n;
  const { low, high } = wilsonInterval(rate, n);
  return { k, n, rate, low, high };
}

/** The verdict of a difference's 95% interval: it excludes 0, lies within ±margin, or neither. */
export function differenceVerdict(low: number, high: number, margin: number): EquivalenceVerdict {
  if (low > 0 || high < 0) return 'differs';
  if (low >= -margin && high <= margin) return 'equivalent';
  return 'inconclusive';
}

/** Configuration `configuration` (measured as `compared`) minus configuration 0 (`own`). */
export function rateDifference(
  configuration: number,
  compared: Proportion,
  own: Proportion,
  margin: number,
): RateDifference {
  if (compared.rate === null || own.rate === null)
    return { configuration, estimate: null, low: null, high: null, verdict: 'not-measured' };
  const { low, high } = newcombeDifference(compared.rate, compared.n, own.rate, own.n);
  return {
    configuration,
    estimate: compared.rate - own.rate,
    low,
    high,
    verdict: differenceVerdict(low, high, margin),
  };
}

/** Leaks past the guard over the attempts answered (errors left out). */
const leakOf = (item: AuditItem | undefined): Proportion =>
  item ? proportion(item.guardedLeaks, Math.max(0, item.done - item.errors)) : proportion(0, 0);

/** Replies that named the key over the replies judged (answer, withheld or none; errors and not-judged left out). */
function solvabilityOf(item: SolvabilityItem | undefined): Proportion {
  const judged = item?.replies.filter(
    (r) => r.outcome === 'answer' || r.outcome === 'withheld' || r.outcome === 'none',
  );
  return proportion(judged?.filter((r) => r.outcome === 'answer').length ?? 0, judged?.length ?? 0);
}

/** The report's verdict over every difference: any differs; all measured equivalent; or too few to tell. */
export function overallVerdict(differences: readonly RateDifference[]): EquivalenceVerdict {
  const measured = differences.filter((d) => d.verdict !== 'not-measured');
  if (measured.length === 0) return 'not-measured';
  if (measured.some((d) => d.verdict === 'differs')) return 'differs';
  return measured.every((d) => d.verdict === 'equivalent') ? 'equivalent' : 'inconclusive';
}

/** A configuration's name in a sentence: its model, with the provider when two configurations share a model. */
export function configurationLabel(configurations: readonly AuditConfiguration[], index: number): string {
  const own = configurations[index];
  if (!own) return `configuration ${index + 1}`;
  const sameModel = configurations.filter((c) => c.model === own.model);
  if (sameModel.length === 1) return own.model;
  const sameProvider = sameModel.filter((c) => c.provider === own.provider);
  if (sameProvider.length === 1) return `${own.model} (${own.provider})`;
  return `${own.model} (${own.provider}${own.baseUrl ? ` at ${own.baseUrl}` : ''}, configuration ${index + 1})`;
}

const MEASURES = [
  { key: 'leakDifference', more: 'leaks past the guard more than' },
  { key: 'solvabilityDifference', more: 'gives the answer away more often than' },
] as const;

/**
 * One sentence for the creator: which configuration helps more where a difference was found ("gpt-4o leaks past
 * the guard more than gpt-4o-mini on 2 of 12 items"), else whether the help was shown equivalent.
 */
export function equivalenceSummary(
  configurations: readonly AuditConfiguration[],
  items: readonly EquivalenceItem[],
  margin: number,
): string {
  const name = (index: number) => configurationLabel(configurations, index);
  const clauses: string[] = [];
  for (let c = 1; c < configurations.length; c++)
    for (const measure of MEASURES) {
      const differences = items.flatMap((item) => item[measure.key].filter((d) => d.configuration === c));
      const measured = differences.filter((d) => d.verdict !== 'not-measured').length;
      const higher = differences.filter((d) => d.verdict === 'differs' && (d.estimate ?? 0) > 0).length;
      const lower = differences.filter((d) => d.verdict === 'differs' && (d.estimate ?? 0) < 0).length;
      if (higher) clauses.push(`${name(c)} ${measure.more} ${name(0)} on ${higher} of ${measured} items`);
      if (lower) clauses.push(`${name(0)} ${measure.more} ${name(c)} on ${lower} of ${measured} items`);
    }
  if (clauses.length) return `${clauses.join('; ')}.`;
  const all = items.flatMap((item) => [...item.leakDifference, ...item.solvabilityDifference]);
  const verdict = overallVerdict(all);
  const names = configurations.map((_, i) => name(i));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  const points = Math.round(margin * 100);
  const measuredItems = items.filter((item) =>
    [...item.leakDifference, ...item.solvabilityDifference].some((d) => d.verdict !== 'not-measured'),
  ).length;
  if (verdict === 'not-measured') return `Nothing was measured under both ${list} yet.`;
  if (verdict === 'equivalent')
    return `${list} give equivalent help on all ${measuredItems} items measured (within ±${points} points).`;
  const unsure = items.filter((item) =>
    [...item.leakDifference, ...item.solvabilityDifference].some((d) => d.verdict === 'inconclusive'),
  ).length;
  return `No difference was found between ${list}, but ${unsure} of ${measuredItems} items had too few attempts to show equivalent help within ±${points} points.`;
}

/**
 * The equivalence report of an audit: per item (every question the audit or the check measured, by position) the
 * leak and solvability proportions of each configuration, and each compared configuration minus configuration 0.
 */
export function buildEquivalenceReport(input: EquivalenceInput): EquivalenceReport {
  const { configurations, margin } = input;
  const solvabilityItems = input.solvability?.items ?? [];
  const questions = new Map<number, { questionId: string; title: string }>();
  for (const item of [...input.auditItems, ...solvabilityItems])
    if (!questions.has(item.questionIndex))
      questions.set(item.questionIndex, { questionId: item.questionId, title: item.title });
  const items: EquivalenceItem[] = [...questions.entries()]
    .sort(([a], [b]) => a - b)
    .map(([questionIndex, question]) => {
      const leak = configurations.map((_, c) =>
        leakOf(input.auditItems.find((i) => i.configuration === c && i.questionIndex === questionIndex)),
      );
      const solvability = configurations.map((_, c) =>
        solvabilityOf(solvabilityItems.find((i) => i.configuration === c && i.questionIndex === questionIndex)),
      );
      const against = (rates: Proportion[]) =>
        rates.slice(1).map((rate, i) => rateDifference(i + 1, rate, rates[0] ?? proportion(0, 0), margin));
      return {
        questionIndex,
        ...question,
        leak,
        solvability,
        leakDifference: against(leak),
        solvabilityDifference: against(solvability),
      };
    });
  return {
    auditId: input.auditId,
    solvabilityCheckId: input.solvability?.id ?? null,
    configurations: [...configurations],
    margin,
    items,
    verdict: overallVerdict(items.flatMap((item) => [...item.leakDifference, ...item.solvabilityDifference])),
    summary: equivalenceSummary(configurations, items, margin),
  };
}
