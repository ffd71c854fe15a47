import type { InsightsReport } from '@exam/domain/insights';
import type { KeyboardEvent } from 'react';
import { CartesianGrid, Legend, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, tooltipProps } from './chart-frame.tsx';
import { DataTable } from './data-table.tsx';

/** One colour and one shape per question type, so colour is never the only cue. */
const SERIES = [
  { color: 'var(--color-brand-600)', shape: 'circle' },
  { color: 'var(--color-warning)', shape: 'square' },
  { color: 'var(--color-success)', shape: 'triangle' },
  { color: 'var(--color-danger)', shape: 'diamond' },
  { color: 'var(--color-muted)', shape: 'star' },
] as const;

type Point = { questionIndex: number; x: number; y: number; label: string; name: string };

/**
 * Facility (x) against discrimination index (y) per question: the easy questions sit right, the ones that
 * separate strong from weak candidates high. A point is a button that goes to the question's row.
 */
export function ItemMapChart({
  report,
  onSelectQuestion,
}: {
  report: InsightsReport;
  onSelectQuestion: (questionIndex: number) => void;
}) {
  const { t } = useTranslation('insights');
  const typeName = (type: string) => t(`common:questionType.${type}` as 'common:questionType.mcq', type);
  const plotted = report.items.filter((item) => item.facility !== null && item.discriminationIndex !== null);
  const types = [...new Set(report.items.map((item) => item.type))];
  const pointOf = (item: (typeof plotted)[number]): Point => {
    const number = item.questionIndex + 1;
    const x = 100 * item.facility!;
    const y = item.discriminationIndex!;
    return {
      questionIndex: item.questionIndex,
      x,
      y,
      label: String(number),
      name: t('charts.itemMap.point', {
        number,
        type: typeName(item.type),
        facility: formats.percent(x),
        discrimination: formats.percent(y),
      }),
    };
  };
  const go = (point: Point) => onSelectQuestion(point.questionIndex);
  const reason = report.reasons['items.0.discriminationIndex'] ?? report.reasons['items.0.facility'];
  return (
    <ChartFrame
      name="item-map"
      title={t('charts.itemMap.title')}
      caption={t('charts.itemMap.caption')}
      needs={plotted.length === 0 ? (reason ?? t('charts.itemMap.needs')) : null}
      summary={t('charts.itemMap.summary', { count: plotted.length, total: report.items.length })}
      table={
        <DataTable
          label={t('charts.itemMap.tableLabel')}
          headers={[
            t('charts.question'),
            t('charts.type'),
            t('charts.itemMap.facility'),
            t('charts.itemMap.discrimination'),
          ]}
          rows={report.items.map((item) => [
            <button
              key="go"
              type="button"
              className="font-medium text-brand-600 underline-offset-4 hover:underline"
              onClick={() => onSelectQuestion(item.questionIndex)}
            >
              {t('charts.questionNumber', { number: item.questionIndex + 1 })}
            </button>,
            typeName(item.type),
            item.facility === null ? '—' : formats.fractionPercent(item.facility),
            item.discriminationIndex === null ? '—' : formats.percent(item.discriminationIndex),
          ])}
        />
      }
    >
      {(width) => (
        <ScatterChart
          width={width}
          height={300}
          margin={{ top: 10, right: 20, bottom: 20, left: 0 }}
          // The points are buttons, so the chart is a named group rather than an image (whose content is hidden).
          role="group"
          aria-label={t('charts.itemMap.label', { count: plotted.length })}
          title={t('charts.itemMap.label', { count: plotted.length })}
          accessibilityLayer={false}
        >
          <CartesianGrid stroke={chartColors.grid} />
          <XAxis
            type="number"
            dataKey="x"
            domain={[0, 100]}
            tickFormatter={(v: number) => `${v}%`}
            label={{
              value: t('charts.itemMap.facility'),
              position: 'insideBottom',
              offset: -12,
              fill: chartColors.muted,
            }}
            {...axisProps}
          />
          <YAxis
            type="number"
            dataKey="y"
            domain={[(min: number) => Math.min(0, Math.floor(min / 10) * 10), 100]}
            tickFormatter={(v: number) => `${v}%`}
            width={48}
            {...axisProps}
          />
          <ZAxis range={[90, 90]} />
          <ReferenceLine y={0} stroke={chartColors.muted} />
          <ReferenceLine y={30} stroke={chartColors.good} strokeDasharray="4 4" />
          <Tooltip {...tooltipProps} content={({ payload }) => <PointTip point={payload?.[0]?.payload as Point} />} />
          <Legend verticalAlign="top" height={28} />
          {types.map((type, i) => {
            const series = SERIES[i % SERIES.length]!;
            const points = plotted.filter((item) => item.type === type).map(pointOf);
            return (
              <Scatter
                isAnimationActive={false}
                key={type}
                name={typeName(type)}
                data={points}
                fill={series.color}
                legendType={series.shape}
                shape={(props: { cx?: number; cy?: number; payload?: Point }) => (
                  <PointMark {...props} shape={series.shape} color={series.color} onSelect={go} />
                )}
              />
            );
          })}
        </ScatterChart>
      )}
    </ChartFrame>
  );
}

function PointTip({ point }: { point: Point | undefined }) {
  if (!point) return null;
  return (
    <div className="rounded-md border border-line bg-surface px-2 py-1 text-xs text-ink shadow-sm">{point.name}</div>
  );
}

const SYMBOL: Record<(typeof SERIES)[number]['shape'], (r: number) => string> = {
  circle: (r) => `M ${-r} 0 a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0`,
  square: (r) => `M ${-r} ${-r} h ${2 * r} v ${2 * r} h ${-2 * r} Z`,
  triangle: (r) => `M 0 ${-r * 1.2} L ${r * 1.1} ${r * 0.8} L ${-r * 1.1} ${r * 0.8} Z`,
  diamond: (r) => `M 0 ${-r * 1.3} L ${r * 1.1} 0 L 0 ${r * 1.3} L ${-r * 1.1} 0 Z`,
  star: (r) =>
    Array.from({ length: 10 }, (_, i) => {
      const radius = i % 2 ? r * 0.5 : r * 1.3;
      const angle = (Math.PI / 5) * i - Math.PI / 2;
      return `${i ? 'L' : 'M'} ${radius * Math.cos(angle)} ${radius * Math.sin(angle)}`;
    }).join(' ') + ' Z',
};

/** A question's point: its type's shape and colour, its number beside it; click or Enter goes to the question. */
function PointMark({
  cx,
  cy,
  payload,
  shape,
  color,
  onSelect,
}: {
  cx?: number | undefined;
  cy?: number | undefined;
  payload?: Point | undefined;
  shape: (typeof SERIES)[number]['shape'];
  color: string;
  onSelect: (point: Point) => void;
}) {
  if (cx === undefined || cy === undefined || !payload) return null;
  const activate = () => onSelect(payload);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate();
    }
  };
  return (
    <g
      transform={['translate(', cx, ',', cy, ')'].join('')}
      role="button"
      tabIndex={0}
      aria-label={payload.name}
      data-testid="item-map-point"
      className="cursor-pointer outline-none focus-visible:[&>path]:stroke-[3]"
      onClick={activate}
      onKeyDown={onKeyDown}
    >
      <path d={SYMBOL[shape](6)} fill={color} stroke="var(--color-ink)" strokeWidth={1} />
      <text x={9} y={-7} fontSize={11} fill="var(--color-ink)" aria-hidden>
        {payload.label}
      </text>
    </g>
  );
}
