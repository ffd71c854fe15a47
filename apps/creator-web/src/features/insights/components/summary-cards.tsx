import type { InsightsReport } from '@exam/domain/insights';
import { Button } from '@exam/ui/button';
import { StatCard } from '@exam/ui/card';
import { CheckCircle2, PlayCircle, Send, Users } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Figure, formats } from './figure.tsx';

/** The insights summary: Cohort Size, Exam Started, Exam Submitted, Graded (with pending and Grade now). */
export function SummaryCards({ examId, report }: { examId: string; report: InsightsReport }) {
  const { cohort, explanations } = report;
  const figure = (value: number, key: string) => (
    <Figure value={value} format={formats.count} explanation={explanations[key]} />
  );
  return (
    <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard
        label="Cohort Size"
        value={figure(cohort.invited, 'cohort.invited')}
        icon={<Users aria-hidden />}
        hint="Candidates who opened the exam"
      />
      <StatCard
        label="Exam Started"
        value={figure(cohort.started, 'cohort.started')}
        icon={<PlayCircle aria-hidden />}
      />
      <StatCard
        label="Exam Submitted"
        value={figure(cohort.submitted, 'cohort.submitted')}
        icon={<Send aria-hidden />}
      />
      <StatCard
        label="Graded"
        value={figure(cohort.graded, 'cohort.graded')}
        icon={<CheckCircle2 aria-hidden />}
        hint={
          <span className="flex flex-wrap items-center gap-2">
            <span data-testid="pending-count">{cohort.pending} pending</span>
            {cohort.pending > 0 && (
              <Button asChild size="sm" variant="secondary" className="h-7">
                <Link to={paths.examSubmissions(examId)}>Grade now</Link>
              </Button>
            )}
          </span>
        }
      />
    </section>
  );
}
