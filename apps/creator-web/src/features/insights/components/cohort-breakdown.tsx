import type { InsightsReport } from '@exam/domain/insights';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Progress } from '@exam/ui/progress';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Figure, formats } from './figure.tsx';

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
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between text-sm">
        <span className="text-muted">{label}</span>
        <Figure value={value} explanation={explanation} reason={reason} className="font-medium" />
      </div>
      <Progress value={value ?? 0} label={label} />
      {value === null && <p className="text-xs text-muted">{reason ?? 'Not available.'}</p>}
    </div>
  );
}

/** Cohort Breakdown: Overall Performance bars and the Topical Performance table. */
export function CohortBreakdown({ report }: { report: InsightsReport }) {
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
    <section aria-label="Cohort Breakdown" className="grid gap-6 lg:grid-cols-2">
      <Card>
        <CardHeader title="Overall Performance" description="Cohort averages." />
        <CardBody className="flex flex-col gap-4">
          <div className="flex items-center justify-between text-sm">
            <span className="text-muted">Questions</span>
            <Figure value={overall.questions} format={formats.count} className="font-medium" />
          </div>
          <Bar
            label="Raw Score"
            value={overall.rawScorePercent}
            explanation={explanations['candidate.rawScore']}
            reason={reasons['overall.rawScorePercent']}
          />
          <Bar
            label="Ability"
            value={overall.abilityPercent}
            explanation={explanations['candidate.ability']}
            reason={reasons['overall.abilityPercent']}
          />
          <Bar
            label="Reasoning"
            value={overall.reasoningPercent}
            explanation={report.reasoningFormula}
            reason={reasons['overall.reasoningPercent']}
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Topical Performance" description="Averages per question topic." />
        <Table aria-label="Topical Performance">
          <TableHead>
            <tr>
              {['Topic', 'Questions', 'Raw Score', 'Ability', 'Reasoning'].map((h) => (
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
