import type { QuestionAgreement } from '@exam/domain/question-grading';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useGradingAgreement } from '../api/get-grading-agreement.ts';
import { formatDifference, formatInterval, formatKappa, formatShare } from '../lib/agreement-format.ts';

/** Why a figure is missing or says little, as the server computed it (packages/psychometrics/src/agreement.ts). */
export function AgreementNotes({ agreement }: { agreement: QuestionAgreement }) {
  const { t } = useTranslation('question-grading');
  const notes = [
    agreement.notes.kappa && t('agreement.noteKappa', { note: agreement.notes.kappa }),
    agreement.notes.weightedKappa && t('agreement.noteWeightedKappa', { note: agreement.notes.weightedKappa }),
    agreement.notes.interval && t('agreement.noteInterval', { note: agreement.notes.interval }),
  ].filter((note): note is string => Boolean(note));
  if (notes.length === 0) return null;
  return (
    <ul className="flex flex-col gap-0.5 text-xs text-muted" aria-label={t('agreement.notes')}>
      {notes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}

/** Weighted κ with its 95% interval when there is one: "0.78 (95% CI 0.65–0.91)". */
export function WeightedKappa({ agreement }: { agreement: QuestionAgreement }) {
  const { t } = useTranslation('question-grading');
  const interval = formatInterval(agreement);
  const value = formatKappa(agreement.weightedKappa);
  return <>{interval ? t('agreement.withInterval', { value, interval }) : value}</>;
}

/**
 * How far the AI's suggestions agree with the graders on this question: answers compared, exact agreement,
 * Cohen's κ, quadratic-weighted κ with its 95% interval, and the mean absolute difference in points.
 */
export function AgreementFigures({ examId, questionIndex }: { examId: string; questionIndex: number }) {
  const { t } = useTranslation('question-grading');
  const agreement = useGradingAgreement(examId);
  const figures = agreement.data?.questions.find((q) => q.questionIndex === questionIndex);
  return (
    <Card role="region" aria-label={t('agreement.title')}>
      <CardHeader title={t('agreement.title')} />
      <CardBody className="flex flex-col gap-3">
        {agreement.isError ? (
          <p role="alert" className="text-sm text-danger">
            {userMessageOf(agreement.error)}
          </p>
        ) : agreement.isPending ? null : !figures || figures.n === 0 ? (
          <p className="text-sm text-muted">{t('agreement.none')}</p>
        ) : (
          <>
            <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="agreement-figures">
              <dt className="text-muted">{t('agreement.n')}</dt>
              <dd className="tabular-nums">{figures.n}</dd>
              <dt className="text-muted">{t('agreement.exact')}</dt>
              <dd className="tabular-nums">{formatShare(figures.exactAgreement)}</dd>
              <dt className="text-muted">{t('agreement.kappa')}</dt>
              <dd className="tabular-nums">{formatKappa(figures.kappa)}</dd>
              <dt className="text-muted">{t('agreement.weightedKappa')}</dt>
              <dd className="tabular-nums">
                <WeightedKappa agreement={figures} />
              </dd>
              <dt className="text-muted">{t('agreement.meanDifference')}</dt>
              <dd className="tabular-nums">
                {t('agreement.points', {
                  points: formatDifference(figures.meanAbsoluteDifference),
                  count: figures.meanAbsoluteDifference,
                })}
              </dd>
            </dl>
            <AgreementNotes agreement={figures} />
          </>
        )}
      </CardBody>
    </Card>
  );
}
