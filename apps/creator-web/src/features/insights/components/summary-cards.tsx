import type { InsightsReport } from '@exam/domain/insights';
import { Button } from '@exam/ui/button';
import { StatCard } from '@exam/ui/card';
import { CheckCircle2, PlayCircle, Send, Users } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Figure, formats } from './figure.tsx';
import { useTranslation } from 'react-i18next';

/** The insights summary: Cohort Size, Exam Started, Exam Submitted, Graded (with pending and Grade now). */
export function SummaryCards({ examId, report }: { examId: string; report: InsightsReport }) {
  const { t } = useTranslation('insights');
  const { cohort, explanations } = report;
  const figure = (value: number, key: string) => (
    <Figure value={value} format={formats.count} explanation={explanations[key]} />
  );
  return (
    <section aria-label={t('summaryCards.summary')} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        label={t('summaryCards.cohortSize')}
        value={figure(cohort.invited, 'cohort.invited')}
        icon={<Users aria-hidden />}
        hint={t('summaryCards.candidatesWhoOpenedThe')}
      />
      <StatCard
        label={t('summaryCards.examStarted')}
        value={figure(cohort.started, 'cohort.started')}
        icon={<PlayCircle aria-hidden />}
      />
      <StatCard
        label={t('summaryCards.examSubmitted')}
        value={figure(cohort.submitted, 'cohort.submitted')}
        icon={<Send aria-hidden />}
      />
      <StatCard
        label={t('summaryCards.graded')}
        value={figure(cohort.graded, 'cohort.graded')}
        icon={<CheckCircle2 aria-hidden />}
        hint={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="pending-count">{t('summaryCards.pendingPending', { pending: cohort.pending })}</span>
            {cohort.pending > 0 && (
              <Button asChild size="sm" variant="secondary" className="h-7">
                <Link to={paths.examSubmissions(examId)}>{t('summaryCards.gradeNow')}</Link>
              </Button>
            )}
          </span>
        }
      />
    </section>
  );
}
