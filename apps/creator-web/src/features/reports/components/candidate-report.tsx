import type { CandidateReport as Report, ReportTopic } from '@exam/domain/candidate-report';
import { formatPercentage, formatPoints } from '@exam/domain/grading';
import { Button } from '@exam/ui/button';
import { Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { formatCount } from '../../../lib/format-number.ts';

type Level = '0' | '1' | '2' | '3' | '4';

/** '12 min 30 s', '40 s', '30 min'. */
function useDuration() {
  const { t } = useTranslation('reports');
  return (total: number) => {
    const minutes = Math.floor(total / 60);
    const seconds = Math.round(total % 60);
    if (minutes === 0) return t('report.durationSeconds', { seconds });
    if (seconds === 0) return t('report.durationMinutes', { minutes });
    return t('report.durationMinutesSeconds', { minutes, seconds });
  };
}

const percentOf = (points: number, max: number) => (max > 0 ? Math.round((points / max) * 100) : 0);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="break-inside-avoid border-t border-line pt-2" aria-label={title}>
      <h2 className="mb-1 text-sm font-semibold uppercase tracking-wide text-ink">{title}</h2>
      {children}
    </section>
  );
}

function Topics({ topics }: { topics: Report['topics'] }) {
  const { t } = useTranslation('reports');
  const heading = {
    topic: t('report.topicsByTopic'),
    section: t('report.topicsBySection'),
    question: t('report.topicsByQuestion'),
  }[topics.groupedBy];
  const column = {
    topic: t('report.colTopic'),
    section: t('report.colSection'),
    question: t('report.colQuestion'),
  }[topics.groupedBy];
  const labelOf = (row: ReportTopic) => {
    if (topics.groupedBy === 'question') return `${t('report.questionN', { n: row.number })} · ${row.label}`;
    if (row.label) return row.label;
    return topics.groupedBy === 'section' ? t('report.sectionN', { n: row.number }) : t('report.noTopic');
  };
  return (
    <Section title={heading}>
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-muted">
          <tr>
            <th scope="col" className="py-0.5 pr-3 font-medium">
              {column}
            </th>
            <th scope="col" className="py-0.5 pr-3 text-right font-medium">
              {t('report.colPoints')}
            </th>
            <th scope="col" className="w-2/5 py-0.5 font-medium">
              {t('report.colPercent')}
            </th>
          </tr>
        </thead>
        <tbody>
          {topics.rows.map((row) => {
            const percent = percentOf(row.points, row.maxPoints);
            return (
              <tr key={`${row.number}-${row.label}`} className="border-t border-line">
                <th scope="row" className="py-0.5 pr-3 font-normal text-ink">
                  {labelOf(row)}
                  {row.pending > 0 && (
                    <span className="text-muted"> ({t('report.awaiting', { count: row.pending })})</span>
                  )}
                </th>
                <td className="py-0.5 pr-3 text-right tabular-nums">
                  {formatPoints(row.points)} / {formatPoints(row.maxPoints)}
                </td>
                <td className="py-0.5">
                  <div className="flex items-center gap-2">
                    <div className="h-2 flex-1 rounded bg-slate-200 print:border print:border-slate-400" aria-hidden>
                      <div className="h-2 rounded bg-brand-600" style={{ width: `${percent}%` }} />
                    </div>
                    <span className="w-10 text-right tabular-nums">{percent}%</span>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Section>
  );
}

function Cohort({ percentile }: { percentile: Report['percentile'] }) {
  const { t } = useTranslation('reports');
  let text: string;
  if (percentile.withheld === 'pending') text = t('report.withheldPending');
  else if (percentile.withheld === 'small-cohort' || percentile.value === null)
    text = t('report.withheldSmall', { count: percentile.cohortSize, minimum: percentile.minimumCohort });
  else text = t('report.percentile', { value: Math.round(percentile.value), count: percentile.cohortSize });
  return (
    <Section title={t('report.cohort')}>
      <p className="text-sm text-ink" data-testid="report-percentile">
        {text}
      </p>
      <p className="text-xs text-muted">{t('report.percentileHow')}</p>
    </Section>
  );
}

function Process({ process }: { process: Report['process'] }) {
  const { t } = useTranslation('reports');
  if (!process)
    return (
      <Section title={t('report.process')}>
        <p className="text-sm text-muted">{t('report.processMissing')}</p>
      </Section>
    );
  return (
    <Section title={t('report.process')}>
      <p className="text-sm text-ink" data-testid="report-process">
        {process.characters === 0
          ? t('report.processNoText')
          : t('report.processShares', {
              characters: formatCount(process.characters),
              typed: process.typedPercent,
              pasted: process.pastedPercent,
              assistant: process.assistantPercent,
              other: process.autocompletePercent + process.restoredPercent,
            })}{' '}
        {t('report.processMessages', { count: process.assistantMessages })}
      </p>
    </Section>
  );
}

function Collaboration({ collaboration }: { collaboration: Report['collaboration'] }) {
  const { t } = useTranslation('reports');
  const { t: tc } = useTranslation('collaboration');
  let body: ReactNode;
  if (collaboration.state === 'not-used') body = <p className="text-sm text-ink">{t('report.collaborationNotUsed')}</p>;
  else if (collaboration.state === 'unavailable')
    body = <p className="text-sm text-muted">{t('report.collaborationUnavailable')}</p>;
  else
    body = (
      <>
        <p className="text-xs text-muted">{t('report.collaborationIntro')}</p>
        <dl className="mt-1 grid grid-cols-[8rem_1fr] gap-x-3 gap-y-0.5 text-sm">
          {collaboration.dimensions.map((d) => (
            <div key={d.dimension} className="contents">
              <dt className="font-medium text-ink">{tc(`dimension.${d.dimension}`)}</dt>
              <dd className="text-ink">
                {d.level === null ? (
                  <span className="text-muted">{t('report.notAssessed')}</span>
                ) : (
                  <>
                    <span className="font-semibold tabular-nums">{t('report.level', { level: d.level })}</span>
                    {' · '}
                    {tc(`scale.${d.dimension}.${String(d.level) as Level}`)}
                  </>
                )}
                <span className="text-muted">
                  {' '}
                  ({d.basis === 'process' ? t('report.basisProcess') : t('report.basisJudgement')})
                </span>
              </dd>
            </div>
          ))}
        </dl>
      </>
    );
  return <Section title={t('report.collaboration')}>{body}</Section>;
}

function Integrity({ integrity }: { integrity: Report['integrity'] }) {
  const { t } = useTranslation('reports');
  const duration = useDuration();
  const { focusLost, fullscreenExits } = integrity;
  return (
    <Section title={t('report.integrity')}>
      <p className="text-xs text-muted">{t('report.integrityIntro')}</p>
      <ul className="mt-1 list-disc pl-5 text-sm text-ink" data-testid="report-integrity">
        <li>{t('report.focusLost', { count: focusLost.count, seconds: duration(focusLost.seconds ?? 0) })}</li>
        <li>
          {integrity.fullScreenRequired
            ? t('report.fullscreen', { count: fullscreenExits.count, seconds: duration(fullscreenExits.seconds ?? 0) })
            : t('report.fullscreenNotRequired')}
        </li>
        <li>{t('report.pastes', { count: integrity.pastesBlocked })}</li>
      </ul>
    </Section>
  );
}

/**
 * The one-page candidate report (docs/product.md#candidate-report), laid out to print on one A4 or Letter page:
 * written for a reader who has never seen the platform, with the integrity signals as observations.
 */
export function CandidateReport({ report }: { report: Report }) {
  const { t } = useTranslation('reports');
  const duration = useDuration();
  const { score, time } = report;
  return (
    <article className="mx-auto flex max-w-[190mm] flex-col gap-2 bg-surface p-6 text-ink print:max-w-none print:p-0">
      <header className="flex items-start justify-between gap-4">
        <div>
          <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('report.title')}</p>
          <h1 className="text-2xl font-semibold text-ink">{report.candidate.name}</h1>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
            <dt className="text-muted">{t('report.candidateId')}</dt>
            <dd>{report.candidate.studentId}</dd>
            <dt className="text-muted">{t('report.exam')}</dt>
            <dd>{report.exam.title}</dd>
            <dt className="text-muted">{t('report.submitted')}</dt>
            <dd>
              {formatDateTime(report.submittedAt)} · {t('report.attempt')} {report.attemptNo}
            </dd>
          </dl>
        </div>
        <div className="text-right">
          <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('report.score')}</p>
          <p className="text-3xl font-semibold tabular-nums" data-testid="report-score">
            {formatPercentage(score.percentage)}
          </p>
          <p className="text-sm tabular-nums text-muted">
            {t('report.points', { points: formatPoints(score.points), max: formatPoints(score.maxPoints) })}
          </p>
          <Button size="sm" variant="secondary" className="mt-2 print:hidden" onClick={() => window.print()}>
            <Printer aria-hidden className="h-4 w-4" />
            {t('report.print')}
          </Button>
        </div>
      </header>
      {score.status === 'pending' && <p className="text-sm text-warning">{t('report.pendingNote')}</p>}
      <Topics topics={report.topics} />
      <div className="grid grid-cols-2 gap-4">
        <Cohort percentile={report.percentile} />
        <Section title={t('report.time')}>
          <p className="text-sm text-ink" data-testid="report-time">
            {time.limitSeconds === null
              ? t('report.timeUntimed', { spent: duration(time.spentSeconds) })
              : t('report.timeUsed', { spent: duration(time.spentSeconds), limit: duration(time.limitSeconds) })}
          </p>
        </Section>
      </div>
      <Process process={report.process} />
      <Collaboration collaboration={report.collaboration} />
      <Integrity integrity={report.integrity} />
      <Section title={t('report.howToRead')}>
        <ul className="list-disc pl-5 text-xs text-muted">
          <li>{t('report.howToRead1')}</li>
          <li>{t('report.howToRead2')}</li>
          <li>{t('report.howToRead3')}</li>
          <li>{t('report.howToRead4')}</li>
        </ul>
      </Section>
      <footer className="border-t border-line pt-1 text-xs text-muted">
        {t('report.expiresOn', { date: formatDate(report.expiresAt) })}
      </footer>
    </article>
  );
}
