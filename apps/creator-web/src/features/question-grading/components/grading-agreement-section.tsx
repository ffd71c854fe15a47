import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { questionName } from '../../../lib/display-names.ts';
import { useGradingAgreement } from '../api/get-grading-agreement.ts';
import { formatDifference, formatKappa, formatShare } from '../lib/agreement-format.ts';
import { AgreementNotes, WeightedKappa } from './agreement-figures.tsx';

/**
 * The insights page's "AI–human agreement": per question with suggestions, how far they agree with the graders
 * (GET …/grading/agreement), each question linking to its grading screen. Absent until a suggestion exists.
 */
export function GradingAgreementSection({ examId }: { examId: string }) {
  const { t } = useTranslation('question-grading');
  const agreement = useGradingAgreement(examId);
  if (agreement.isPending) return null;
  if (agreement.isError) {
    return (
      <p role="alert" className="text-sm text-danger">
        {t('agreement.couldNotLoad', { message: userMessageOf(agreement.error) })}
      </p>
    );
  }
  const questions = agreement.data.questions;
  if (questions.length === 0) return null;
  const headers = [
    t('agreement.question'),
    t('agreement.n'),
    t('agreement.exact'),
    t('agreement.kappa'),
    t('agreement.weightedKappa'),
    t('agreement.meanDifference'),
  ];
  return (
    <Card role="region" aria-label={t('agreement.title')}>
      <CardHeader title={t('agreement.title')} description={t('agreement.description')} />
      <CardBody>
        <Table aria-label={t('agreement.title')}>
          <TableHead>
            <tr>
              {headers.map((header) => (
                <TableHeaderCell key={header}>{header}</TableHeaderCell>
              ))}
            </tr>
          </TableHead>
          <TableBody>
            {questions.map((q) => (
              <TableRow key={q.questionIndex} data-testid={`agreement-row-${q.questionIndex}`}>
                <TableCell>
                  <Link className="text-brand-700 underline" to={paths.gradeQuestion(examId, q.questionIndex)}>
                    {t('agreement.questionName', { n: q.questionIndex + 1, title: questionName(q.title) })}
                  </Link>
                  <AgreementNotes agreement={q} />
                </TableCell>
                <TableCell className="tabular-nums">{q.n}</TableCell>
                <TableCell className="tabular-nums">{formatShare(q.exactAgreement)}</TableCell>
                <TableCell className="tabular-nums">{formatKappa(q.kappa)}</TableCell>
                <TableCell className="tabular-nums">
                  <WeightedKappa agreement={q} />
                </TableCell>
                <TableCell className="tabular-nums">{formatDifference(q.meanAbsoluteDifference)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardBody>
    </Card>
  );
}
