import type { InsightsReport } from '@exam/domain/insights';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Figure, formats } from './figure.tsx';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';

type Field = 'mean' | 'median' | 'sd' | 'skewness' | 'kurtosis' | 'cronbachAlpha' | 'errorRatio' | 'standardError';
const FIGURES: { field: Field; label: ParseKeys<'insights'>; format: (v: number) => string }[] = [
  { field: 'mean', label: 'testStatistics.figure.mean', format: formats.percent },
  { field: 'median', label: 'testStatistics.figure.median', format: formats.percent },
  { field: 'sd', label: 'testStatistics.figure.sd', format: formats.percent },
  { field: 'skewness', label: 'testStatistics.figure.skewness', format: formats.decimal },
  { field: 'kurtosis', label: 'testStatistics.figure.kurtosis', format: formats.decimal },
  { field: 'cronbachAlpha', label: 'testStatistics.figure.cronbachAlpha', format: formats.decimal },
  { field: 'errorRatio', label: 'testStatistics.figure.errorRatio', format: formats.percent },
  { field: 'standardError', label: 'testStatistics.figure.standardError', format: formats.percent },
];

/** Moodle's test statistics; mean, median, SD and standard error are percent of the maximum score. */
export function TestStatistics({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  return (
    <Card>
      <CardHeader
        title={t('testStatistics.testStatistics')}
        description={t('testStatistics.candidatesSubmittedAttemptsMaxscore', {
          candidates: report.test.candidates,
          maxScore: report.test.maxScore,
        })}
      />
      <CardBody>
        <dl aria-label={t('testStatistics.testStatistics')} className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {FIGURES.map(({ field, label, format }) => (
            <div key={field}>
              <dt className="text-xs text-muted">{t(label)}</dt>
              <dd className="text-lg font-semibold">
                <Figure
                  value={report.test[field]}
                  format={format}
                  explanation={report.explanations[`test.${field}`]}
                  reason={report.reasons[`test.${field}`]}
                />
              </dd>
            </div>
          ))}
        </dl>
      </CardBody>
    </Card>
  );
}
