import { formatPercentage } from '@exam/domain/grading';
import type { ExamResultsSummary } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useTranslation } from 'react-i18next';

type Props = {
  exams: ExamResultsSummary['exams'];
  questionCounts: Map<string, number> | undefined;
  /** Invitations sent per exam (exam-service); undefined while unknown. */
  invitations: Map<string, number> | undefined;
};

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums text-ink">{value}</dd>
    </div>
  );
}

/**
 * One card per exam with candidates on the Results tab: 'Invites Sent' counts the invitations sent (roster entries
 * invited), 'Started' the candidates who opened an attempt, 'Attempts' those submitted.
 */
export function ExamSummaryCards({ exams, questionCounts, invitations }: Props) {
  const { t } = useTranslation('results');
  return (
    <section aria-label={t('examSummaryCards.examSummaries')} className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      {exams.map((exam) => {
        const questions = questionCounts?.get(exam.examId);
        return (
          <Card key={exam.examId} className="flex flex-col gap-4 p-5" aria-label={exam.examTitle} role="group">
            <div>
              <h3 className="truncate text-base font-semibold text-ink">{exam.examTitle}</h3>
              <p className="text-sm text-muted">
                {questions === undefined
                  ? t('examSummaryCards.questions')
                  : t('examSummaryCards.questionCount', { count: questions })}
              </p>
            </div>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Figure
                label={t('examSummaryCards.invitesSent')}
                value={invitations ? (invitations.get(exam.examId) ?? 0) : '—'}
              />
              <Figure label={t('examSummaryCards.started')} value={exam.started} />
              <Figure label={t('examSummaryCards.attempts')} value={exam.submitted} />
              <Figure label={t('examSummaryCards.graded')} value={exam.graded} />
              <Figure
                label={t('examSummaryCards.avgScore')}
                value={exam.avgScore === null ? '—' : formatPercentage(exam.avgScore)}
              />
            </dl>
            <p className="text-sm text-muted">
              {t('examSummaryCards.pendingAwaitingGrading', { pending: exam.pending })}
            </p>
            <Button asChild variant="secondary" size="sm" className="self-start">
              <Link
                to={paths.examInsights(exam.examId)}
                aria-label={t('examSummaryCards.viewInsightsForExamtitle', { examTitle: exam.examTitle })}
              >
                <BarChart3 aria-hidden className="h-4 w-4" /> {t('examSummaryCards.viewInsights')}
              </Link>
            </Button>
          </Card>
        );
      })}
    </section>
  );
}
