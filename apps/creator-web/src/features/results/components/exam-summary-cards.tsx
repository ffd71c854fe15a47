import { formatPercentage } from '@exam/domain/grading';
import type { ExamResultsSummary } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';

type Props = { exams: ExamResultsSummary['exams']; questionCounts: Map<string, number> | undefined };

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums text-ink">{value}</dd>
    </div>
  );
}

/** One card per exam with candidates on the Results tab: 'Invites Sent' counts those who started. */
export function ExamSummaryCards({ exams, questionCounts }: Props) {
  return (
    <section aria-label="Exam summaries" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {exams.map((exam) => {
        const questions = questionCounts?.get(exam.examId);
        return (
          <Card key={exam.examId} className="flex flex-col gap-4 p-5" aria-label={exam.examTitle} role="group">
            <div>
              <h3 className="truncate text-base font-semibold text-ink">{exam.examTitle}</h3>
              <p className="text-sm text-muted">
                {questions === undefined ? '— questions' : `${questions} question${questions === 1 ? '' : 's'}`}
              </p>
            </div>
            <dl className="grid grid-cols-2 gap-3">
              <Figure label="Invites Sent" value={exam.started} />
              <Figure label="Attempts" value={exam.submitted} />
              <Figure label="Graded" value={exam.graded} />
              <Figure label="Avg Score" value={exam.avgScore === null ? '—' : formatPercentage(exam.avgScore)} />
            </dl>
            <p className="text-sm text-muted">{exam.pending} awaiting grading</p>
            <Button asChild variant="secondary" size="sm" className="self-start">
              <Link to={paths.examInsights(exam.examId)} aria-label={`View Insights for ${exam.examTitle}`}>
                <BarChart3 aria-hidden className="h-4 w-4" /> View Insights
              </Link>
            </Button>
          </Card>
        );
      })}
    </section>
  );
}
