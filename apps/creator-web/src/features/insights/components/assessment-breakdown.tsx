import { formatPoints } from '@exam/domain/grading';
import { QUESTION_TYPES, type Question } from '@exam/domain/question';
import type { InsightsItem, InsightsReport } from '@exam/domain/insights';
import { Card, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Figure, formats } from './figure.tsx';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { i18n } from '../../../i18n/index.ts';

type Column = {
  header: ParseKeys<'insights'>;
  field: keyof InsightsItem & string;
  explanationKey: string;
  format: (v: number) => string;
};

/** Units per @exam/domain/insights: facility and guessability are fractions, the Moodle indices percent, Rasch logits. */
const COLUMNS: Column[] = [
  {
    header: 'assessmentBreakdown.column.facility',
    field: 'facility',
    explanationKey: 'item.facility',
    format: formats.fractionPercent,
  },
  {
    header: 'assessmentBreakdown.column.discrimination',
    field: 'discriminationIndex',
    explanationKey: 'item.discriminationIndex',
    format: formats.percent,
  },
  {
    header: 'assessmentBreakdown.column.discriminativeEfficiency',
    field: 'discriminativeEfficiency',
    explanationKey: 'item.discriminativeEfficiency',
    format: formats.percent,
  },
  {
    header: 'assessmentBreakdown.column.effectiveWeight',
    field: 'effectiveWeight',
    explanationKey: 'item.effectiveWeight',
    format: formats.percent,
  },
  {
    header: 'assessmentBreakdown.column.guessability',
    field: 'randomGuessScore',
    explanationKey: 'item.randomGuessScore',
    format: formats.fractionPercent,
  },
  {
    header: 'assessmentBreakdown.column.aiReference',
    field: 'aiReference',
    explanationKey: 'item.aiReference',
    format: formats.percent,
  },
  {
    header: 'assessmentBreakdown.column.raschDifficulty',
    field: 'raschDifficulty',
    explanationKey: 'item.raschDifficulty',
    format: (v) => i18n.t('insights:assessmentBreakdown.logits', { value: formats.decimal(v) }),
  },
];

/** The types whose points a key shares out among parts when the question gives partial credit. */
const PARTS_TYPES = new Set<string>(['ordering', 'matching', 'fill-blanks', 'mcq']);

/**
 * The question's type in words and, where the key gives partial credit, the mean mark in points (the facility is
 * that mean as a share of the points): a matching question right in two of three pairs on average reads 1.33 / 2.
 */
function ItemType({ item, question }: { item: InsightsItem; question: Question | undefined }) {
  const { t } = useTranslation(['insights', 'common']);
  const type = question?.type ?? item.type;
  const known = (QUESTION_TYPES as readonly string[]).includes(type);
  const partial =
    question?.scoring === 'partial' &&
    PARTS_TYPES.has(question.type) &&
    (question.type !== 'mcq' || question.multipleAnswers);
  return (
    <>
      <span className="whitespace-nowrap">{known ? t(`common:questionType.${type as Question['type']}`) : type}</span>
      {partial && item.facility !== null && (
        <span className="block whitespace-nowrap text-xs text-muted" data-testid="item-partial-credit">
          {t('assessmentBreakdown.partialCredit', {
            points: formatPoints(item.facility * question.points),
            maxPoints: formatPoints(question.points),
            count: question.points,
          })}
        </span>
      )}
    </>
  );
}

/** The id of a question's row, so the charts can send the reader to it. */
export const itemRowId = (questionIndex: number) => `insights-item-${questionIndex}`;

/**
 * The figures' headers may wrap onto two lines (they are wider than their values) to keep the table narrow;
 * where it still does not fit, it scrolls sideways in its frame.
 */
const FIGURE_HEADER = 'min-w-[4.5rem] whitespace-normal align-bottom leading-snug';

/** Assessment Breakdown: one row per question with Moodle's item statistics and the Rasch difficulty. */
export function AssessmentBreakdown({ report, questions }: { report: InsightsReport; questions: readonly Question[] }) {
  const { t } = useTranslation('insights');
  const summaryOf = (index: number) =>
    questions[index]?.title || t('assessmentBreakdown.questionValue', { value: index + 1 });
  // With pools each question is answered only by those who drew it: its N is shown beside its figures.
  const showDrawn =
    questions.some((q) => (q.poolId ?? null) !== null) ||
    report.items.some((i) => i.drawn !== undefined && i.drawn !== report.test.candidates);
  return (
    <Card>
      <CardHeader
        title={t('assessmentBreakdown.assessmentBreakdown')}
        description={t('assessmentBreakdown.perQuestion', { count: report.test.candidates })}
      />
      <Table aria-label={t('assessmentBreakdown.assessmentBreakdown')}>
        <TableHead>
          <tr>
            <TableHeaderCell>#</TableHeaderCell>
            <TableHeaderCell>{t('assessmentBreakdown.topic')}</TableHeaderCell>
            <TableHeaderCell>{t('assessmentBreakdown.summary')}</TableHeaderCell>
            {/* The type column shows from a wide laptop up, so the figures never scroll out of a small one. */}
            <TableHeaderCell className="hidden xl:table-cell">{t('assessmentBreakdown.type')}</TableHeaderCell>
            {showDrawn && <TableHeaderCell>{t('assessmentBreakdown.nDrewIt')}</TableHeaderCell>}
            {COLUMNS.map((c) => (
              <TableHeaderCell key={c.field} className={FIGURE_HEADER}>
                {t(c.header)}
              </TableHeaderCell>
            ))}
          </tr>
        </TableHead>
        <TableBody>
          {report.items.map((item) => (
            <TableRow
              key={item.questionIndex}
              id={itemRowId(item.questionIndex)}
              tabIndex={-1}
              className="scroll-mt-24 focus:bg-brand-50 focus:outline-2 focus:outline-brand-500"
              data-testid="item-row"
            >
              <TableCell className="tabular-nums">{item.questionIndex + 1}</TableCell>
              <TableCell>{item.topic}</TableCell>
              <TableCell className="max-w-40 truncate" title={summaryOf(item.questionIndex)}>
                {summaryOf(item.questionIndex)}
              </TableCell>
              <TableCell className="hidden xl:table-cell">
                <ItemType item={item} question={questions[item.questionIndex]} />
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
