import { formatDuration } from '@exam/domain/grading';
import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner, Spinner } from '@exam/ui/spinner';
import { AlertTriangle, FileQuestion, RotateCw, Save } from 'lucide-react';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useResult } from '../api/result-queries.ts';
import { markingActionsFor } from '../grading-state.ts';
import { ChatHistory } from './chat-history.tsx';
import { EventsSummary } from './events-summary.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { GradeHistory } from './grade-history.tsx';
import { QuestionCard } from './question-card.tsx';
import { ReleaseButton } from './release-button.tsx';
import { useGradingAutosave } from '../hooks/use-grading-autosave.ts';
import { useWarnBeforeLeaving } from '../hooks/use-warn-before-leaving.ts';
import { WorkspaceFiles } from './workspace-files.tsx';

/** /creator/result/{resultId}: the result with auto-saved grading. */
export function ResultDetails({ resultId }: { resultId: string }) {
  const result = useResult(resultId);
  if (result.isPending) return <PageSpinner label="Loading result…" />;
  if (result.isError) {
    const missing = result.error instanceof ApiError && result.error.status === 404;
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={missing ? <FileQuestion aria-hidden /> : <AlertTriangle aria-hidden />}
          title={missing ? 'Result not found' : 'Could not load the result'}
          description={missing ? undefined : userMessageOf(result.error)}
          action={<BackToDashboard />}
        />
      </Card>
    );
  }
  return <ResultView key={result.data.id} detail={result.data} />;
}

function ResultView({ detail }: { detail: ResultDetail }) {
  const grading = useGradingAutosave(detail);
  useWarnBeforeLeaving(grading.unsaved);
  const name = detail.userName.trim() || 'Anonymous';

  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title="Exam Result Details"
        description={detail.examTitle}
        actions={
          <>
            <span data-testid="result-score">
              <ScoreBadge result={detail} />
            </span>
            <ReleaseButton detail={detail} />
            {grading.unsaved && (
              <Button onClick={grading.saveNow} disabled={grading.saving}>
                <Save aria-hidden className="h-4 w-4" /> Save Grading
              </Button>
            )}
          </>
        }
      />
      <div aria-live="polite" className="mb-4 min-h-6 text-sm">
        {grading.saving ? (
          <Spinner label="Saving grading…" />
        ) : grading.error ? (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-danger"
          >
            <span>
              The grading could not be saved: {grading.error} Your changes are kept and will be retried automatically.
            </span>
            <Button variant="secondary" size="sm" onClick={grading.saveNow}>
              <RotateCw aria-hidden className="h-4 w-4" /> Retry now
            </Button>
          </div>
        ) : grading.unsaved ? (
          <p className="text-muted">Unsaved changes…</p>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <section aria-label="Answers" className="flex flex-col gap-4">
          {detail.questionAnswers.map((qa, index) => (
            <QuestionCard
              key={qa.questionIndex}
              resultId={detail.id}
              qa={qa}
              grade={
                grading.grades[index] ?? {
                  points: qa.points,
                  feedback: qa.feedback,
                  criteria: qa.criteria,
                  touched: false,
                }
              }
              actions={markingActionsFor(qa, (next) => grading.change(index, next))}
              reasonError={grading.fieldErrors.get(index)}
            />
          ))}
        </section>
        <aside className="flex flex-col gap-6">
          <Card>
            <CardHeader title="Student Information" />
            <CardBody>
              <dl aria-label="Student Information" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                <dt className="text-muted">Name</dt>
                <dd>{name}</dd>
                <dt className="text-muted">Student ID</dt>
                <dd>{detail.studentId || 'N/A'}</dd>
                <dt className="text-muted">Exam</dt>
                <dd>{detail.examTitle}</dd>
                <dt className="text-muted">Submitted</dt>
                <dd>{formatDateTime(detail.completedAt)}</dd>
                <dt className="text-muted">Time Spent</dt>
                <dd>{formatDuration(detail.timeSpent)}</dd>
                <dt className="text-muted">Completion</dt>
                <dd>
                  {detail.answeredCount}/{detail.totalQuestions} answered
                </dd>
              </dl>
            </CardBody>
          </Card>
          <ChatHistory attemptId={detail.attemptId} title="AI Conversation" />
          <WorkspaceFiles files={detail.workspace_files} />
          <GradeHistory history={detail.history} />
          <EventsSummary summary={detail.eventSummary} />
        </aside>
      </div>
    </>
  );
}
