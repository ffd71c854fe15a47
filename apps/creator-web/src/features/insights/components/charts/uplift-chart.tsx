import type { InsightsReport, InsightsUplift } from '@exam/domain/insights';
import { CartesianGrid, ErrorBar, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { DataTable } from './data-table.tsx';

type Row = { label: string; uplift: InsightsUplift };
const points = (v: number) => `${v > 0 ? '+' : ''}${Math.round(v * 1000) / 10}`;

/**
 * AI uplift as a forest plot: per question, per topic and overall, facility of those who asked the assistant
 * minus that of those who did not, in percentage points with its 95 % interval. Candidates chose whether to
 * ask, so a difference is an association, not the assistant's effect.
 */
export function UpliftChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const rows: Row[] = [];
  if (report.aiUplift) {
    rows.push({ label: t('charts.uplift.overall'), uplift: report.aiUplift.overall });
    for (const topic of report.aiUplift.topics) rows.push({ label: topic.topic, uplift: topic });
  }
  for (const item of report.items) {
    if (item.aiUplift) {
      rows.push({ label: t('charts.questionShort', { number: item.questionIndex + 1 }), uplift: item.aiUplift });
    }
  }
  const plotted = rows
    .filter((r) => r.uplift.difference !== null && r.uplift.ciLow !== null && r.uplift.ciHigh !== null)
    .map((r) => ({
      label: r.label,
      difference: 100 * r.uplift.difference!,
      error: [100 * (r.uplift.difference! - r.uplift.ciLow!), 100 * (r.uplift.ciHigh! - r.uplift.difference!)],
    }));
  const share = (v: number | null) => (v === null ? '—' : formats.fractionPercent(v));
  return (
    <ChartFrame
      name="uplift"
      title={t('charts.uplift.title')}
      caption={`${t('charts.uplift.caption')} ${t('charts.uplift.caution')}`}
      needs={
        rows.length === 0
          ? t('charts.uplift.needsReport')
          : plotted.length === 0
            ? (report.aiUplift?.overall.caution ?? t('charts.uplift.needs'))
            : null
      }
      summary={
        report.aiUplift && report.aiUplift.overall.difference !== null
          ? t('charts.uplift.summary', {
              difference: points(report.aiUplift.overall.difference),
              low: points(report.aiUplift.overall.ciLow ?? 0),
              high: points(report.aiUplift.overall.ciHigh ?? 0),
              asked: report.aiUplift.overall.asked,
              notAsked: report.aiUplift.overall.notAsked,
            })
          : undefined
      }
      table={
        <DataTable
          label={t('charts.uplift.tableLabel')}
          headers={[
            t('charts.uplift.what'),
            t('charts.uplift.asked'),
            t('charts.uplift.notAsked'),
            t('charts.uplift.askedFacility'),
            t('charts.uplift.notAskedFacility'),
            t('charts.uplift.difference'),
            t('charts.uplift.interval'),
            t('charts.uplift.cautionHeader'),
          ]}
          rows={rows.map(({ label, uplift }) => [
            label,
            uplift.asked,
            uplift.notAsked,
            share(uplift.askedFacility),
            share(uplift.notAskedFacility),
            uplift.difference === null ? '—' : points(uplift.difference),
            uplift.ciLow === null || uplift.ciHigh === null
              ? '—'
              : `${points(uplift.ciLow)} … ${points(uplift.ciHigh)}`,
            uplift.caution ?? '',
          ])}
        />
      }
    >
      {(width) => (
        <ScatterChart
          width={width}
          height={Math.max(160, 40 + plotted.length * 28)}
          margin={{ top: 10, right: 20, bottom: 20, left: 10 }}
          {...svgA11y(t('charts.uplift.label', { count: plotted.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} horizontal={false} />
          <XAxis
            type="number"
            dataKey="difference"
            domain={[-100, 100]}
            ticks={[-100, -50, 0, 50, 100]}
            label={{ value: t('charts.uplift.axis'), position: 'insideBottom', offset: -12, fill: chartColors.muted }}
            {...axisProps}
          />
          <YAxis type="category" dataKey="label" width={96} allowDuplicatedCategory={false} {...axisProps} />
          <ReferenceLine x={0} stroke={chartColors.ink} />
          <Tooltip
            {...tooltipProps}
            formatter={(value) => (typeof value === 'number' ? formats.decimal(value) : value)}
          />
          <Scatter
            isAnimationActive={false}
            data={plotted}
            fill={chartColors.primary}
            shape="square"
            name={t('charts.uplift.difference')}
          >
            <ErrorBar dataKey="error" direction="x" stroke={chartColors.ink} width={6} />
          </Scatter>
        </ScatterChart>
      )}
    </ChartFrame>
  );
}
