import type { InsightsCandidate, InsightsReport } from '@exam/domain/insights';
import {
  CartesianGrid,
  ErrorBar,
  Legend,
  ReferenceArea,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { DataTable } from './data-table.tsx';

type Flag = 'above' | 'below' | null;
type Point = { position: number; gap: number; error: [number, number]; name: string; flag: Flag };

const logits = (v: number | null | undefined) => (v == null ? '—' : formats.decimal(v));
const withSe = (theta: number | null, se: number | null) =>
  theta === null ? '—' : `${formats.decimal(theta)} ± ${se === null ? '—' : formats.decimal(se)}`;

/** The candidates with a gap, smallest first: the chart's x axis is their place in that order. */
export function sortedGaps(candidates: readonly InsightsCandidate[]): Point[] {
  return candidates
    .flatMap((c) => {
      const gap = c.ability?.gap;
      if (!gap || gap.estimate === null || gap.low === null || gap.high === null) return [];
      const error: [number, number] = [gap.estimate - gap.low, gap.high - gap.estimate];
      return [{ gap: gap.estimate, error, name: c.name, flag: gap.flag }];
    })
    .sort((a, b) => a.gap - b.gap || a.name.localeCompare(b.name))
    .map((p, i) => ({ ...p, position: i + 1 }));
}

/**
 * Aided against unaided ability: each candidate's gap (aided θ − unaided θ, logits) with its 95 % interval, sorted,
 * over the cohort's middle half (band) and median (dashed line). Flagged candidates, whose gap lies far outside the
 * cohort's, are drawn as triangles in their own colour, so the flag does not rest on colour alone.
 */
export function AidedAbilityChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const fit = report.aidedAbility;
  const points = sortedGaps(report.candidates);
  const distribution = fit?.gap ?? null;
  const quantiles = distribution?.quantiles ?? null;
  const needs = !fit
    ? t('charts.aidedAbility.needsReport')
    : !fit.available
      ? (fit.reason ?? t('charts.aidedAbility.needs'))
      : points.length === 0
        ? t('charts.aidedAbility.needs')
        : null;
  const series: Array<{ flag: Flag; name: string; fill: string; shape: 'circle' | 'triangle' }> = [
    { flag: null, name: t('charts.aidedAbility.notFlagged'), fill: chartColors.primary, shape: 'circle' },
    { flag: 'above', name: t('charts.aidedAbility.flag.above'), fill: chartColors.bad, shape: 'triangle' },
    { flag: 'below', name: t('charts.aidedAbility.flag.below'), fill: chartColors.secondary, shape: 'triangle' },
  ];
  const population = fit?.population;
  return (
    <ChartFrame
      name="aided-ability"
      title={t('charts.aidedAbility.title')}
      caption={`${t('charts.aidedAbility.caption')} ${report.explanations['aidedAbility.gap'] ?? ''}`.trim()}
      needs={needs}
      summary={
        fit && distribution && quantiles
          ? t('charts.aidedAbility.summary', {
              items: `${fit.items.aided}/${fit.items.unaided}`,
              median: logits(quantiles.p50),
              p25: logits(quantiles.p25),
              p75: logits(quantiles.p75),
              reliability: logits(distribution.reliability),
              above: distribution.flagged.above,
              below: distribution.flagged.below,
              correlation: logits(population?.correlation),
            })
          : undefined
      }
      table={
        <DataTable
          label={t('charts.aidedAbility.tableLabel')}
          headers={[
            t('charts.aidedAbility.candidate'),
            t('charts.aidedAbility.aided'),
            t('charts.aidedAbility.unaided'),
            t('charts.aidedAbility.gap'),
            t('charts.aidedAbility.interval'),
            t('charts.aidedAbility.flagHeader'),
          ]}
          rows={report.candidates
            .filter((c) => c.ability !== null)
            .map((c) => {
              const a = c.ability!;
              return [
                c.name,
                withSe(a.aided.theta, a.aided.se),
                withSe(a.unaided.theta, a.unaided.se),
                a.gap.estimate === null ? (a.gap.reason ?? '—') : logits(a.gap.estimate),
                a.gap.low === null || a.gap.high === null ? '—' : `${logits(a.gap.low)} … ${logits(a.gap.high)}`,
                a.gap.flag ? t(`charts.aidedAbility.flag.${a.gap.flag}`) : '',
              ];
            })}
        />
      }
    >
      {(width) => (
        <ScatterChart
          width={width}
          height={300}
          margin={{ top: 10, right: 20, bottom: 24, left: 10 }}
          {...svgA11y(t('charts.aidedAbility.label', { count: points.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} />
          {quantiles && (
            <ReferenceArea y1={quantiles.p25} y2={quantiles.p75} fill={chartColors.muted} fillOpacity={0.15} />
          )}
          <XAxis
            type="number"
            dataKey="position"
            domain={[0, points.length + 1]}
            allowDecimals={false}
            label={{
              value: t('charts.aidedAbility.axisX'),
              position: 'insideBottom',
              offset: -14,
              fill: chartColors.muted,
            }}
            {...axisProps}
          />
          <YAxis
            type="number"
            dataKey="gap"
            label={{
              value: t('charts.aidedAbility.axisY'),
              angle: -90,
              position: 'insideLeft',
              fill: chartColors.muted,
            }}
            {...axisProps}
          />
          <ReferenceLine y={0} stroke={chartColors.ink} />
          {quantiles && <ReferenceLine y={quantiles.p50} stroke={chartColors.muted} strokeDasharray="4 4" />}
          <Tooltip {...tooltipProps} formatter={(value) => (typeof value === 'number' ? logits(value) : value)} />
          <Legend />
          {series.map((s) => {
            const data = points.filter((p) => p.flag === s.flag);
            return data.length === 0 ? null : (
              <Scatter key={s.name} isAnimationActive={false} name={s.name} data={data} fill={s.fill} shape={s.shape}>
                <ErrorBar dataKey="error" direction="y" stroke={chartColors.ink} width={4} />
              </Scatter>
            );
          })}
        </ScatterChart>
      )}
    </ChartFrame>
  );
}
