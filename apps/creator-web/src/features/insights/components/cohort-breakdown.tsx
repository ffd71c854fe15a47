import type { InsightsReport } from '@exam/domain/insights';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Progress } from '@exam/ui/progress';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Figure, formats } from './figure.tsx';
import { useTranslation } from 'react-i18next';

function Bar({
  label,
  value,
  explanation,
  reason,
}: {
  label: string;
  value: number | null;
  explanation?: string | undefined;
  reason?: string | undefined;
}) {
  const { t } = useTranslation('insights');
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted">{label}</span>
        <Figure value={value} explanation={explanation} reason={reason} className="font-medium" />
      </div>
      <Progress value={value ?? 0} label={label} />
      {value === null && <p className="text-xs text-muted">{reason ?? t('cohortBreakdown.notAvailable')}</p>}
    </div>
  );
}

/** Cohort Breakdown: Overall Performance bars and the Topical Performance table. */
export function CohortBreakdown({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const { overall, topics, explanations, reasons } = report;
  const topicCell = (
    topic: string,
    field: 'rawScorePercent' | 'abilityPercent' | 'reasoningPercent',
    value: number | null,
  ) => (
    <Figure
      value={value}
      explanation={
        field === 'reasoningPercent'
          ? `${explanations['topic.reasoningPercent'] ?? ''} ${report.reasoningFormula}`.trim()
          : explanations[`topic.${field}`]
      }
      reason={reasons[`topics.${topic}.${field}`]}
    />
  );
  return (
    <section aria-label={t('cohortBreakdown.cohortBreakdown')} className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader title={t('cohortBreakdown.overallPerformance')} description={t('cohortBreakdown.cohortAverages')} />
        <CardBody className="flex flex-col gap-4">
          <div className="flex items-center justify-between text-sm">
            <span className="text-muted">{t('cohortBreakdown.questions')}</span>
            <Figure value={overall.questions} format={formats.count} className="font-medium" />
          </div>
          <Bar
            label={t('measures.itemsCorrect.label')}
            value={overall.rawScorePercent}
            explanation={t('measures.itemsCorrect.help')}
            reason={reasons['overall.rawScorePercent']}
          />
          <Bar
            label={t('measures.irtAbility.label')}
            value={overall.abilityPercent}
            explanation={t('measures.irtAbility.help')}
            reason={reasons['overall.abilityPercent']}
          />
          <Bar
            label={t('measures.reasoning.label')}
            value={overall.reasoningPercent}
            explanation={t('measures.reasoning.help')}
            reason={reasons['overall.reasoningPercent']}
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title={t('cohortBreakdown.topicalPerformance')}
          description={t('cohortBreakdown.averagesPerQuestionTopic')}
        />
        <Table aria-label={t('cohortBreakdown.topicalPerformance')}>
          <TableHead>
            <tr>
              {[
                t('cohortBreakdown.topic'),
                t('cohortBreakdown.questions'),
                t('measures.itemsCorrect.label'),
                t('measures.irtAbility.label'),
                t('measures.reasoning.label'),
              ].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
            </tr>
          </TableHead>
          <TableBody>
            {topics.map((t) => (
              <TableRow key={t.topic}>
                <TableCell className="font-medium">{t.topic}</TableCell>
                <TableCell className="tabular-nums">{t.questions}</TableCell>
                <TableCell>{topicCell(t.topic, 'rawScorePercent', t.rawScorePercent)}</TableCell>
                <TableCell>{topicCell(t.topic, 'abilityPercent', t.abilityPercent)}</TableCell>
                <TableCell>{topicCell(t.topic, 'reasoningPercent', t.reasoningPercent)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
    </section>
  );
}
