import type { InsightsCandidate, InsightsReport } from '@exam/domain/insights';
import type { CsvExtraColumns } from '../results/results-csv.ts';

/**
 * The insights columns of the results CSV: each candidate's aided and unaided ability (logits), the gap with its 95%
 * interval and flag, RAIR, RSR and error adoption each with the counts it rests on, and the collaboration levels. A count goes in columns of
 * its own rather than as "3/4", which spreadsheets read as a date.
 */
export const INSIGHTS_CSV_HEADER = [
  'aidedTheta',
  'aidedSe',
  'unaidedTheta',
  'unaidedSe',
  'abilityGap',
  'abilityGapLow',
  'abilityGapHigh',
  'abilityGapFlag',
  'rair',
  'rairNumerator',
  'rairDenominator',
  'rsr',
  'rsrNumerator',
  'rsrDenominator',
  'errorAdoption',
  'errorAdoptionNumerator',
  'errorAdoptionDenominator',
  // The collaboration profile's levels, 0–4 (docs/product.md#collaboration-profile).
  'framing',
  'verification',
  'integration',
  'independence',
] as const;

/** Logits and shares to the thousandth: finer than any of these figures is certain. */
const thousandths = (v: number | null | undefined) => (v == null ? null : Math.round(v * 1000) / 1000);

function cellsOf(c: InsightsCandidate): Array<string | number | null> {
  const a = c.ability;
  const ratio = (r: { value: number | null; numerator: number; denominator: number } | undefined) =>
    r ? [thousandths(r.value), r.numerator, r.denominator] : [null, null, null];
  return [
    thousandths(a?.aided.theta),
    thousandths(a?.aided.se),
    thousandths(a?.unaided.theta),
    thousandths(a?.unaided.se),
    thousandths(a?.gap.estimate),
    thousandths(a?.gap.low),
    thousandths(a?.gap.high),
    a ? (a.gap.flag ?? 'none') : null,
    ...ratio(c.reliance?.rair),
    ...ratio(c.reliance?.rsr),
    ...ratio(c.reliance?.errorAdoption),
    c.collaboration?.framing ?? null,
    c.collaboration?.verification ?? null,
    c.collaboration?.integration ?? null,
    c.collaboration?.independence ?? null,
  ];
}

/** The columns from a report: a candidate's row by their result id, blank where the report has no figure. */
export function insightsCsvColumns(report: InsightsReport | null): CsvExtraColumns {
  const byResult = new Map((report?.candidates ?? []).map((c) => [c.resultId, cellsOf(c)]));
  return { header: INSIGHTS_CSV_HEADER, cellsOf: (resultId) => byResult.get(resultId) };
}
