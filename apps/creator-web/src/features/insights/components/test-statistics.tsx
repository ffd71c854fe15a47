import type { InsightsReport } from '@exam/domain/insights';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Figure, formats } from './figure.tsx';

type Field = 'mean' | 'median' | 'sd' | 'skewness' | 'kurtosis' | 'cronbachAlpha' | 'errorRatio' | 'standardError';
const FIGURES: { field: Field; label: string; format: (v: number) => string }[] = [
  { field: 'mean', label: 'Mean', format: formats.percent },
  { field: 'median', label: 'Median', format: formats.percent },
  { field: 'sd', label: 'Standard deviation', format: formats.percent },
  { field: 'skewness', label: 'Skewness', format: formats.decimal },
  { field: 'kurtosis', label: 'Kurtosis', format: formats.decimal },
  { field: 'cronbachAlpha', label: "Cronbach's alpha", format: formats.decimal },
  { field: 'errorRatio', label: 'Error ratio', format: formats.percent },
  { field: 'standardError', label: 'Standard error', format: formats.percent },
];

/** Moodle's test statistics; mean, median, SD and standard error are percent of the maximum score. */
export function TestStatistics({ report }: { report: InsightsReport }) {
  return (
    <Card>
      <CardHeader
        title="Test Statistics"
        description={`${report.test.candidates} submitted attempts, ${report.test.maxScore} marks.`}
      />
      <CardBody>
        <dl aria-label="Test Statistics" className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          {FIGURES.map(({ field, label, format }) => (
            <div key={field}>
              <dt className="text-xs text-muted">{label}</dt>
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
