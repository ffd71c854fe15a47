import type { Question } from '@exam/domain/exam';
import type { InsightsItem, InsightsReport } from '@exam/domain/insights';
import { Card, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Figure, formats } from './figure.tsx';

type Column = {
  header: string;
  field: keyof InsightsItem & string;
  explanationKey: string;
  format: (v: number) => string;
};

/** Units per @exam/domain/insights: facility and guessability are fractions, the Moodle indices percent, Rasch logits. */
const COLUMNS: Column[] = [
  {
    header: 'Difficulty (facility)',
    field: 'facility',
    explanationKey: 'item.facility',
    format: formats.fractionPercent,
  },
  {
    header: 'Discrimination',
    field: 'discriminationIndex',
    explanationKey: 'item.discriminationIndex',
    format: formats.percent,
  },
  {
    header: 'Disc. efficiency',
    field: 'discriminativeEfficiency',
    explanationKey: 'item.discriminativeEfficiency',
    format: formats.percent,
  },
  {
    header: 'Effective weight',
    field: 'effectiveWeight',
    explanationKey: 'item.effectiveWeight',
    format: formats.percent,
  },
  {
    header: 'Guessability',
    field: 'randomGuessScore',
    explanationKey: 'item.randomGuessScore',
    format: formats.fractionPercent,
  },
  { header: 'AI Reference', field: 'aiReference', explanationKey: 'item.aiReference', format: formats.percent },
  {
    header: 'Rasch difficulty',
    field: 'raschDifficulty',
    explanationKey: 'item.raschDifficulty',
    format: (v) => `${formats.decimal(v)} logits`,
  },
];

/**
 * Eleven columns fit the page from 1024px wide only if the figures' headers may wrap onto two lines (they
 * are wider than their values); below that the table scrolls sideways in its frame.
 */
const FIGURE_HEADER = 'min-w-[4.5rem] whitespace-normal align-bottom leading-snug';

/** Assessment Breakdown: one row per question with Moodle's item statistics and the Rasch difficulty. */
export function AssessmentBreakdown({ report, questions }: { report: InsightsReport; questions: readonly Question[] }) {
  const summaryOf = (index: number) => questions[index]?.title || `Question ${index + 1}`;
  // With pools each question is answered only by those who drew it: its N is shown beside its figures.
  const showDrawn =
    questions.some((q) => (q.poolId ?? null) !== null) ||
    report.items.some((i) => i.drawn !== undefined && i.drawn !== report.test.candidates);
  return (
    <Card>
      <CardHeader
        title="Assessment Breakdown"
        description={`Per question, over ${report.test.candidates} submitted attempt${report.test.candidates === 1 ? '' : 's'}.`}
      />
      <Table aria-label="Assessment Breakdown">
        <TableHead>
          <tr>
            <TableHeaderCell>#</TableHeaderCell>
            <TableHeaderCell>Topic</TableHeaderCell>
            <TableHeaderCell>Summary</TableHeaderCell>
            {showDrawn && <TableHeaderCell>N (drew it)</TableHeaderCell>}
            {COLUMNS.map((c) => (
              <TableHeaderCell key={c.field} className={FIGURE_HEADER}>
                {c.header}
              </TableHeaderCell>
            ))}
          </tr>
        </TableHead>
        <TableBody>
          {report.items.map((item) => (
            <TableRow key={item.questionIndex} data-testid="item-row">
              <TableCell className="tabular-nums">{item.questionIndex + 1}</TableCell>
              <TableCell>{item.topic}</TableCell>
              <TableCell className="max-w-40 truncate" title={summaryOf(item.questionIndex)}>
                {summaryOf(item.questionIndex)}
              </TableCell>
              {showDrawn && <TableCell className="tabular-nums">{item.drawn ?? '—'}</TableCell>}
              {COLUMNS.map((c) => {
                const value = item[c.field];
                return (
                  <TableCell key={c.field} className="whitespace-nowrap">
                    <Figure
                      value={typeof value === 'number' ? value : null}
                      format={c.format}
                      explanation={report.explanations[c.explanationKey]}
                      reason={report.reasons[`items.${item.questionIndex}.${c.field}`]}
                    />
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
