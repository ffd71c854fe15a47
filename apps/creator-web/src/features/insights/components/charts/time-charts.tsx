import type { InsightsReport } from '@exam/domain/insights';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from 'react-i18next';
import { formats } from '../figure.tsx';
import { axisProps, chartColors, ChartFrame, svgA11y, tooltipProps } from './chart-frame.tsx';
import { histogram, niceWidth } from './chart-data.ts';
import { DataTable } from './data-table.tsx';

const HEIGHT = 240;
const minutes = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

/** Median seconds each question was on screen, from the exam page's question-view events. */
export function TimePerQuestionChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const timed = report.items.filter((item) => typeof item.time?.medianSeconds === 'number');
  const data = timed.map((item) => ({
    question: t('charts.questionShort', { number: item.questionIndex + 1 }),
    median: item.time!.medianSeconds!,
  }));
  return (
    <ChartFrame
      name="time-per-question"
      title={t('charts.timePerQuestion.title')}
      caption={t('charts.timePerQuestion.caption')}
      needs={timed.length === 0 ? t('charts.timePerQuestion.needs') : null}
      table={
        <DataTable
          label={t('charts.timePerQuestion.tableLabel')}
          headers={[
            t('charts.question'),
            t('charts.timePerQuestion.median'),
            t('charts.timePerQuestion.mean'),
            t('charts.candidates'),
          ]}
          rows={timed.map((item) => [
            t('charts.questionNumber', { number: item.questionIndex + 1 }),
            formats.seconds(item.time!.medianSeconds!),
            item.time!.meanSeconds === null ? '—' : formats.seconds(item.time!.meanSeconds),
            item.time!.candidates,
          ])}
        />
      }
    >
      {(width) => (
        <BarChart
          width={width}
          height={HEIGHT}
          data={data}
          {...svgA11y(t('charts.timePerQuestion.label', { count: data.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} vertical={false} />
          <XAxis dataKey="question" {...axisProps} />
          <YAxis width={56} tickFormatter={(v: number) => formats.seconds(v)} {...axisProps} />
          <Tooltip
            {...tooltipProps}
            formatter={(value) => [formats.seconds(Number(value)), t('charts.timePerQuestion.median')]}
          />
          <Bar isAnimationActive={false} dataKey="median" fill={chartColors.primary} />
        </BarChart>
      )}
    </ChartFrame>
  );
}

/** How long candidates took from start to submit, in bins of a round number of minutes. */
export function TimeToCompleteChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const times = report.candidates.map((c) => c.timeSpent).filter((v): v is number => typeof v === 'number');
  const maxMinutes = Math.max(1, ...times.map(minutes));
  const width = niceWidth(maxMinutes, 10);
  const bins = histogram(times.map(minutes), 0, width, Math.max(1, Math.ceil(maxMinutes / width)));
  const range = (from: number, to: number) => t('charts.timeToComplete.range', { from, to });
  const data = bins.map((bin) => ({ ...bin, range: range(bin.from, bin.to) }));
  return (
    <ChartFrame
      name="time-to-complete"
      title={t('charts.timeToComplete.title')}
      caption={t('charts.timeToComplete.caption')}
      needs={times.length < 2 ? t('charts.needsCandidates', { count: 2 }) : null}
      table={
        <DataTable
          label={t('charts.timeToComplete.tableLabel')}
          headers={[t('charts.timeToComplete.minutes'), t('charts.candidates')]}
          rows={data.map((bin) => [bin.range, bin.count])}
        />
      }
    >
      {(chartWidth) => (
        <BarChart
          width={chartWidth}
          height={HEIGHT}
          data={data}
          barCategoryGap={1}
          {...svgA11y(t('charts.timeToComplete.label', { count: times.length }))}
        >
          <CartesianGrid stroke={chartColors.grid} vertical={false} />
          <XAxis dataKey="range" {...axisProps} />
          <YAxis allowDecimals={false} width={32} {...axisProps} />
          <Tooltip {...tooltipProps} formatter={(count) => [count, t('charts.candidates')]} />
          <Bar isAnimationActive={false} dataKey="count" fill={chartColors.primary} />
        </BarChart>
      )}
    </ChartFrame>
  );
}

/** Questions to the assistant by time since each candidate's start, over the exam's duration. */
export function AiUseChart({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const use = report.aiUse;
  const total = use?.buckets.reduce((sum, b) => sum + b.messages, 0) ?? 0;
  const data =
    use?.buckets.map((b) => ({
      ...b,
      range: t('charts.timeToComplete.range', { from: minutes(b.from), to: minutes(b.from + use.bucketSeconds) }),
    })) ?? [];
  return (
    <ChartFrame
      name="ai-use"
      title={t('charts.aiUse.title')}
      caption={t('charts.aiUse.caption')}
      needs={!use ? t('charts.aiUse.needsReport') : total === 0 ? t('charts.aiUse.needs') : null}
      summary={t('charts.aiUse.summary', { count: total })}
      table={
        <DataTable
          label={t('charts.aiUse.tableLabel')}
          headers={[t('charts.timeToComplete.minutes'), t('charts.aiUse.messages'), t('charts.candidates')]}
          rows={data.map((b) => [b.range, b.messages, b.candidates])}
        />
      }
    >
      {(width) => (
        <BarChart
          width={width}
          height={HEIGHT}
          data={data}
          barCategoryGap={1}
          {...svgA11y(t('charts.aiUse.label', { count: total }))}
        >
          <CartesianGrid stroke={chartColors.grid} vertical={false} />
          <XAxis dataKey="range" {...axisProps} />
          <YAxis allowDecimals={false} width={32} {...axisProps} />
          <Tooltip {...tooltipProps} />
          <Bar
            isAnimationActive={false}
            dataKey="messages"
            name={t('charts.aiUse.messages')}
            fill={chartColors.secondary}
          />
        </BarChart>
      )}
    </ChartFrame>
  );
}
