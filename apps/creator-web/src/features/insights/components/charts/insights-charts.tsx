import type { InsightsReport } from '@exam/domain/insights';
import { useTranslation } from 'react-i18next';
import { AidedAbilityChart } from './aided-ability-chart.tsx';
import { ItemCurveChart } from './item-curve-chart.tsx';
import { ItemMapChart } from './item-map-chart.tsx';
import { ScoreDistributionChart, TopicChart } from './score-charts.tsx';
import { AiUseChart, TimePerQuestionChart, TimeToCompleteChart } from './time-charts.tsx';
import { UpliftChart } from './uplift-chart.tsx';
import { WrightMapChart } from './wright-map-chart.tsx';

/**
 * The insights report as pictures, drawn from the same response as the tables. This module (and Recharts
 * with it) is loaded on its own, after the tables, so no other page of the app carries the chart library.
 */
export function InsightsCharts({
  report,
  onSelectQuestion,
}: {
  report: InsightsReport;
  onSelectQuestion: (questionIndex: number) => void;
}) {
  const { t } = useTranslation('insights');
  return (
    <section aria-label={t('charts.section')} className="grid gap-6 lg:grid-cols-2">
      <ScoreDistributionChart report={report} />
      <TopicChart report={report} />
      <ItemMapChart report={report} onSelectQuestion={onSelectQuestion} />
      <WrightMapChart report={report} />
      <ItemCurveChart report={report} />
      <UpliftChart report={report} />
      <AidedAbilityChart report={report} />
      <TimePerQuestionChart report={report} />
      <TimeToCompleteChart report={report} />
      <AiUseChart report={report} />
    </section>
  );
}
