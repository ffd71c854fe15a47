import type { InsightsReport } from '@exam/domain/insights';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { chosenModel, histogram, itemParameters } from './chart-data.ts';
import { DataTable } from './data-table.tsx';

/** Half a logit per row: fine enough to tell items apart, coarse enough that 30 candidates make a shape. */
const STEP = 0.5;

/**
 * The person–item (Wright) map: candidates' abilities to the left and the items' difficulties to the right
 * of one logit scale (Wright & Stone 1979, Best Test Design, ch. 4). An item sits level with the candidates
 * who have even odds of getting it right.
 */
export function WrightMapChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const model = chosenModel(report);
  const abilities = report.candidates.map((c) => c.abilityTheta).filter((v): v is number => v !== null);
  const difficulties = report.items.flatMap((item) => {
    const parameters = itemParameters(item, model);
    return parameters ? [{ questionIndex: item.questionIndex, b: parameters.b }] : [];
  });
  const all = [...abilities, ...difficulties.map((d) => d.b)];
  const low = Math.floor(Math.min(-3, ...all) / STEP) * STEP;
  const high = Math.ceil(Math.max(3, ...all) / STEP) * STEP;
  const rows = Math.max(1, Math.round((high - low) / STEP));
  const people = histogram(abilities, low, STEP, rows);
  const items = histogram(
    difficulties.map((d) => d.b),
    low,
    STEP,
    rows,
  );
  // Highest logits at the top, as Wright maps are drawn; candidates counted negative so they grow leftwards.
  const data = people
    .map((bin, i) => ({
      band: formats.decimal(bin.mid),
      from: bin.from,
      to: bin.to,
      candidates: -bin.count,
      items: items[i]!.count,
      questions: difficulties
        .filter((d) => d.b >= bin.from && (d.b < bin.to || (i === rows - 1 && d.b <= bin.to)))
        .map((d) => d.questionIndex + 1),
    }))
    .reverse();
  const needs =
    abilities.length < 2
      ? (report.reasons.rasch ?? t('charts.needsAbilities', { count: 2 }))
      : difficulties.length === 0
        ? (report.reasons[model === '2pl' ? 'twoPl' : 'rasch'] ?? t('charts.wright.needsItems'))
        : null;
  const candidatesLabel = t('charts.candidates');
  const itemsLabel = t('charts.questions');
  const modelName = t(`charts.model.${model === '2pl' ? 'twoPl' : 'rasch'}`);
  return (
    <ChartFrame
      name="wright"
      title={t('charts.wright.title')}
      caption={t('charts.wright.caption', { model: modelName })}
      needs={needs}
      summary={t('charts.wright.summary', { candidates: abilities.length, items: difficulties.length })}
      table={
        <DataTable
          label={t('charts.wright.tableLabel')}
          headers={[t('charts.wright.logits'), candidatesLabel, itemsLabel]}
          rows={data
            .filter((row) => row.candidates !== 0 || row.items !== 0)
            .map((row) => [
              t('charts.wright.band', { from: formats.decimal(row.from), to: formats.decimal(row.to) }),
              -row.candidates,
              row.questions.map((n) => t('charts.questionNumber', { number: n })).join(', '),
            ])}
        />
      }
    >
      {(width) => (
        <BarChart
          width={width}
          height={Math.max(260, rows * 18)}
          data={data}
          layout="vertical"
          stackOffset="sign"
          barCategoryGap={1}
          {...svgA11y(t('charts.wright.label', { candidates: abilities.length, items: difficulties.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} horizontal={false} />
          <XAxis
            type="number"
            allowDecimals={false}
            tickFormatter={(v: number) => String(Math.abs(v))}
            {...axisProps}
          />
          <YAxis type="category" dataKey="band" width={48} interval={1} {...axisProps} />
          <Tooltip
            {...tooltipProps}
            formatter={(value, name) => [Math.abs(Number(value)), name]}
            labelFormatter={(band) => t('charts.wright.logitValue', { value: String(band) })}
          />
          <Legend />
          <ReferenceLine x={0} stroke={chartColors.ink} />
          <Bar
            isAnimationActive={false}
            dataKey="candidates"
            name={candidatesLabel}
            stackId="map"
            fill={chartColors.primary}
          />
          <Bar isAnimationActive={false} dataKey="items" name={itemsLabel} stackId="map" fill={chartColors.secondary} />
        </BarChart>
      )}
    </ChartFrame>
  );
}
