import type { InsightsReport } from '@exam/domain/insights';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { histogram, mean, median, scorePercentOf } from './chart-data.ts';
import { DataTable } from './data-table.tsx';

const HEIGHT = 260;

/** Candidates' results in ten bins of 10 %, the mean and median as vertical lines. */
export function ScoreDistributionChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const scores = scorePercentOf(report);
  const bins = histogram(scores, 0, 10, 10);
  const scoreMean = scores.length ? mean(scores) : null;
  const scoreMedian = scores.length ? median(scores) : null;
  const label = t('charts.scores.label', { count: scores.length });
  const range = (from: number, to: number) => t('charts.scores.range', { from, to });
  return (
    <ChartFrame
      name="scores"
      title={t('charts.scores.title')}
      caption={t('charts.scores.caption')}
      needs={scores.length < 2 ? t('charts.needsCandidates', { count: 2 }) : null}
      summary={
        scoreMean !== null && scoreMedian !== null
          ? t('charts.scores.summary', {
              count: scores.length,
              mean: formats.percent(scoreMean),
              median: formats.percent(scoreMedian),
            })
          : undefined
      }
      table={
        <DataTable
          label={t('charts.scores.tableLabel')}
          headers={[t('charts.scores.score'), t('charts.candidates')]}
          rows={bins.map((bin) => [range(bin.from, bin.to), bin.count])}
        />
      }
    >
      {(width) => (
        <BarChart width={width} height={HEIGHT} data={bins} barCategoryGap={1} {...svgA11y(label)}>
          <CartesianGrid stroke={chartColors.grid} vertical={false} />
          <XAxis
            dataKey="mid"
            type="number"
            domain={[0, 100]}
            ticks={[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]}
            tickFormatter={(v: number) => `${v}%`}
            {...axisProps}
          />
          <YAxis allowDecimals={false} width={32} {...axisProps} />
          <Tooltip
            {...tooltipProps}
            labelFormatter={(mid) => range(Number(mid) - 5, Number(mid) + 5)}
            formatter={(count) => [count, t('charts.candidates')]}
          />
          <Bar
            isAnimationActive={false}
            dataKey="count"
            fill={chartColors.primary}
            barSize={Math.max(4, (width - 60) / 10 - 2)}
          />
          {scoreMean !== null && (
            <ReferenceLine
              x={scoreMean}
              stroke={chartColors.ink}
              strokeDasharray="6 3"
              label={{ value: t('charts.scores.mean'), position: 'top', fill: chartColors.ink, fontSize: 12 }}
            />
          )}
          {scoreMedian !== null && (
            <ReferenceLine
              x={scoreMedian}
              stroke={chartColors.secondary}
              strokeWidth={2}
              label={{
                value: t('charts.scores.median'),
                position: 'insideTopRight',
                fill: chartColors.ink,
                fontSize: 12,
              }}
            />
          )}
        </BarChart>
      )}
    </ChartFrame>
  );
}

/** Per topic: the raw score and the ability estimate, both percent, side by side. */
export function TopicChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const topics = report.topics.filter((topic) => topic.rawScorePercent !== null || topic.abilityPercent !== null);
  const cell = (value: number | null) => (value === null ? '—' : formats.percent(value));
  const raw = t('measures.itemsCorrect.label');
  const ability = t('measures.irtAbility.label');
  return (
    <ChartFrame
      name="topics"
      title={t('charts.topics.title')}
      caption={t('charts.topics.caption')}
      needs={topics.length === 0 ? t('charts.topics.needs') : null}
      table={
        <DataTable
          label={t('charts.topics.tableLabel')}
          headers={[t('charts.topic'), raw, ability]}
          rows={topics.map((topic) => [topic.topic, cell(topic.rawScorePercent), cell(topic.abilityPercent)])}
        />
      }
    >
      {(width) => (
        <BarChart
          width={width}
          height={HEIGHT}
          data={topics}
          {...svgA11y(t('charts.topics.label', { count: topics.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} vertical={false} />
          <XAxis dataKey="topic" {...axisProps} />
          <YAxis domain={[0, 100]} tickFormatter={(v: number) => `${v}%`} width={44} {...axisProps} />
          <Tooltip {...tooltipProps} formatter={(value) => formats.percent(Number(value))} />
          <Legend />
          <Bar isAnimationActive={false} dataKey="rawScorePercent" name={raw} fill={chartColors.primary} />
          <Bar isAnimationActive={false} dataKey="abilityPercent" name={ability} fill={chartColors.secondary} />
        </BarChart>
      )}
    </ChartFrame>
  );
}
