import type { InsightsReport } from '@exam/domain/insights';
import { Select } from '@exam/ui/select';
import { useState } from 'react';
import { CartesianGrid, ComposedChart, LabelList, Legend, Line, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { chosenModel, itemParameters, probabilityRight } from './chart-data.ts';
import { DataTable } from './data-table.tsx';

const THETAS = Array.from({ length: 81 }, (_, i) => -4 + i * 0.1);

/**
 * A question's item characteristic curve: the probability of a right answer by ability as the chosen model
 * fits it, and the share actually right in each ability group (with its size). Points far from the curve
 * are what infit/outfit measure.
 */
export function ItemCurveChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const model = chosenModel(report);
  const [selected, setSelected] = useState(String(report.items[0]?.questionIndex ?? 0));
  const item = report.items.find((i) => String(i.questionIndex) === selected) ?? report.items[0];
  const parameters = item ? itemParameters(item, model) : null;
  const groups = item?.scoreGroups ?? [];
  const curve = parameters
    ? THETAS.map((theta) => ({ theta, fitted: probabilityRight(theta, parameters.a, parameters.b) }))
    : [];
  const observed = groups.map((g) => ({ theta: g.theta, observed: g.observed, n: `n=${g.n}` }));
  const number = (item?.questionIndex ?? 0) + 1;
  const reasonKey =
    model === '2pl' ? `items.${item?.questionIndex}.twoPl` : `items.${item?.questionIndex}.raschDifficulty`;
  const needs = !item
    ? t('charts.curve.needsItems')
    : !parameters
      ? (report.reasons[reasonKey] ?? t('charts.curve.needsFit'))
      : null;
  const modelName = t(`charts.model.${model === '2pl' ? 'twoPl' : 'rasch'}`);
  return (
    <ChartFrame
      name="curve"
      title={t('charts.curve.title')}
      caption={t('charts.curve.caption', { model: modelName })}
      needs={needs}
      controls={
        report.items.length > 0 && (
          <Select
            aria-label={t('charts.curve.choose')}
            className="w-44"
            value={selected}
            onValueChange={setSelected}
            options={report.items.map((i) => ({
              value: String(i.questionIndex),
              label: t('charts.questionNumber', { number: i.questionIndex + 1 }),
            }))}
          />
        )
      }
      summary={
        parameters
          ? [
              t('charts.curve.summary', {
                number,
                a: formats.decimal(parameters.a),
                b: formats.decimal(parameters.b),
              }),
              groups.length === 0 ? t('charts.curve.noGroups') : '',
            ].join(' ')
          : undefined
      }
      table={
        groups.length > 0 && parameters ? (
          <DataTable
            label={t('charts.curve.tableLabel', { number })}
            headers={[
              t('charts.curve.theta'),
              t('charts.curve.n'),
              t('charts.curve.observed'),
              t('charts.curve.fitted'),
            ]}
            rows={groups.map((g) => [
              formats.decimal(g.theta),
              g.n,
              formats.fractionPercent(g.observed),
              formats.fractionPercent(probabilityRight(g.theta, parameters.a, parameters.b)),
            ])}
          />
        ) : undefined
      }
    >
      {(width) => (
        <ComposedChart
          width={width}
          height={280}
          margin={{ top: 16, right: 20, bottom: 20, left: 0 }}
          {...svgA11y(t('charts.curve.label', { number, groups: groups.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} />
          <XAxis
            type="number"
            dataKey="theta"
            domain={[-4, 4]}
            ticks={[-4, -3, -2, -1, 0, 1, 2, 3, 4]}
            label={{ value: t('charts.curve.theta'), position: 'insideBottom', offset: -12, fill: chartColors.muted }}
            {...axisProps}
          />
          <YAxis
            type="number"
            domain={[0, 1]}
            tickFormatter={(v: number) => formats.fractionPercent(v)}
            width={48}
            {...axisProps}
          />
          <Tooltip
            {...tooltipProps}
            formatter={(value) => (typeof value === 'number' ? formats.fractionPercent(value) : value)}
            labelFormatter={(theta) => t('charts.curve.thetaValue', { value: formats.decimal(Number(theta)) })}
          />
          <Legend verticalAlign="top" height={28} />
          <Line
            data={curve}
            dataKey="fitted"
            name={t('charts.curve.fitted')}
            type="monotone"
            dot={false}
            stroke={chartColors.primary}
            strokeWidth={2}
            isAnimationActive={false}
          />
          <Scatter
            isAnimationActive={false}
            data={observed}
            dataKey="observed"
            name={t('charts.curve.observed')}
            fill={chartColors.secondary}
            shape="diamond"
          >
            <LabelList dataKey="n" position="top" fill={chartColors.muted} fontSize={11} />
          </Scatter>
        </ComposedChart>
      )}
    </ChartFrame>
  );
}
