import type { CohortCollaboration } from '@exam/domain/collaboration';
import type { InsightsReport } from '@exam/domain/insights';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { useTranslation } from 'react-i18next';
import { ChartFrame } from './charts/chart-frame.tsx';
import { DataTable } from './charts/data-table.tsx';

type Level = '0' | '1' | '2' | '3' | '4';
type DimensionCounts = CohortCollaboration['dimensions'][number];

/** One dimension's levels as horizontal bars (plain HTML: five bars need no chart library), with its table. */
function LevelsChart({ counts }: { counts: DimensionCounts }) {
  const { t } = useTranslation('insights');
  const { t: tc } = useTranslation('collaboration');
  const dimension = tc(`dimension.${counts.dimension}`);
  const measured = counts.levels.reduce((a, b) => a + b, 0);
  const most = Math.max(...counts.levels);
  const scale = (level: number) => tc(`scale.${counts.dimension}.${String(level) as Level}`);
  return (
    <ChartFrame
      name={`collaboration-${counts.dimension}`}
      title={dimension}
      caption={t('collaboration.chartCaption', { dimension, unmeasured: counts.unmeasured })}
      needs={measured === 0 ? t('collaboration.needs', { dimension }) : null}
      summary={t('collaboration.summary', { count: measured, level: counts.levels.indexOf(most) })}
      table={
        <DataTable
          label={t('collaboration.barsLabel', { dimension })}
          headers={[t('collaboration.level'), t('collaboration.candidates')]}
          rows={counts.levels.map((count, level) => [
            t('collaboration.tableLevel', { level, scale: scale(level) }),
            count,
          ])}
        />
      }
    >
      {() => (
        <ul aria-label={t('collaboration.barsLabel', { dimension })} className="flex flex-col gap-1.5">
          {counts.levels.map((count, level) => (
            <li key={level} className="grid grid-cols-[7rem_1fr] items-center gap-2 text-sm">
              <span className="text-muted" title={scale(level)}>
                {t('collaboration.bar', { level, count })}
              </span>
              <span className="h-3 rounded bg-canvas" aria-hidden>
                <span
                  className="block h-3 rounded bg-brand-600"
                  style={{ width: `${most > 0 ? (count / most) * 100 : 0}%` }}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </ChartFrame>
  );
}

function Agreement({ agreement }: { agreement: CohortCollaboration['agreement'] }) {
  const { t } = useTranslation('insights');
  const { t: tc } = useTranslation('collaboration');
  const percent = (value: number | null) =>
    value === null ? t('collaboration.agreement.none') : `${Math.round(value * 100)}%`;
  return (
    <Card>
      <CardHeader title={t('collaboration.agreement.title')} description={t('collaboration.agreement.description')} />
      <CardBody>
        <DataTable
          label={t('collaboration.agreement.tableLabel')}
          headers={[
            t('collaboration.agreement.dimension'),
            t('collaboration.agreement.decided'),
            t('collaboration.agreement.accepted'),
            t('collaboration.agreement.exact'),
            t('collaboration.agreement.kappa'),
          ]}
          rows={agreement.map((a) => [
            tc(`dimension.${a.dimension}`),
            a.decided,
            a.accepted,
            percent(a.exactAgreement),
            a.weightedKappa === null ? t('collaboration.agreement.none') : a.weightedKappa.toFixed(2),
          ])}
        />
      </CardBody>
    </Card>
  );
}

/** The cohort's collaboration profiles on insights: levels per dimension, and the suggestions' agreement. */
export function CollaborationBreakdown({ report }: { report: InsightsReport }) {
  const { t } = useTranslation('insights');
  // A report from before the profile existed: nothing to say.
  if (report.collaboration === undefined) return null;
  return (
    <section aria-label={t('collaboration.title')} className="flex flex-col gap-4">
      <Card>
        <CardHeader title={t('collaboration.title')} description={t('collaboration.description')} />
        {report.collaboration === null && (
          <CardBody>
            <p className="text-sm text-muted">{t('collaboration.none')}</p>
          </CardBody>
        )}
      </Card>
      {report.collaboration && (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            {report.collaboration.dimensions.map((counts) => (
              <LevelsChart key={counts.dimension} counts={counts} />
            ))}
          </div>
          <Agreement agreement={report.collaboration.agreement} />
        </>
      )}
    </section>
  );
}
