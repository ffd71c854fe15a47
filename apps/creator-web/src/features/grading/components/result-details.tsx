import { formatDuration } from '@exam/domain/grading';
import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner, Spinner } from '@exam/ui/spinner';
import { AlertTriangle, FileQuestion, RotateCw, Save } from 'lucide-react';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { firstAwaitingQuestion, GradeByQuestionLink } from '../../../components/grade-by-question-link.tsx';
import { BackToDashboard } from '../../../components/back-to-dashboard.tsx';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useFollowUp } from '../api/follow-up.ts';
import { examContextOf, useResultExam } from '../api/get-result-exam.ts';
import { useResult } from '../api/grade-result.ts';
import { markingActionsFor } from '../grading-state.ts';
import { ChatHistory } from './chat-history.tsx';
import { EventsSummary } from './events-summary.tsx';
import { FollowUpsForQuestion, FollowUpSummary, OtherFollowUps } from './follow-up-section.tsx';
import { examIndexOf, inExamOrder } from '../lib/exam-numbering.ts';
import { QuestionNumberingProvider } from './question-numbering.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { GradeHistory } from './grade-history.tsx';
import { QuestionCard } from './question-card.tsx';
import { ReleaseButton } from './release-button.tsx';
import { DeleteResultButton } from './delete-result-button.tsx';
import { LmsSyncChip } from '../../../components/lms-sync-chip.tsx';
import { useGradingAutosave } from '../hooks/use-grading-autosave.ts';
import { useWarnBeforeLeaving } from '../hooks/use-warn-before-leaving.ts';
import { WorkspaceFiles } from './workspace-files.tsx';
import { useTranslation } from 'react-i18next';
import {
  AgentActivitySection,
  AttemptReplaySection,
  QuestionProcess,
  ReceiptCheckSection,
  useAttemptProcess,
} from './attempt-process.tsx';
import { AgenticTask } from './agent/agentic-task.tsx';
import { repositoryRoot } from '../lib/repository-diff.ts';

/** /creator/result/{resultId}: the result with auto-saved grading. */
export function ResultDetails({ resultId }: { resultId: string }) {
  const { t } = useTranslation('grading');
  const result = useResult(resultId);
  if (result.isPending) return <PageSpinner label={t('resultDetails.loadingResult')} />;
  if (result.isError) {
    const missing = result.error instanceof ApiError && result.error.status === 404;
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={missing ? <FileQuestion aria-hidden /> : <AlertTriangle aria-hidden />}
          title={missing ? t('resultDetails.resultNotFound') : t('resultDetails.couldNotLoadThe')}
          description={missing ? undefined : userMessageOf(result.error)}
          action={<BackToDashboard />}
        />
      </Card>
    );
  }
  return <ResultView key={result.data.id} detail={result.data} />;
}

function ResultView({ detail }: { detail: ResultDetail }) {
  const { t } = useTranslation('grading');
  const grading = useGradingAutosave(detail);
  const attemptProcess = useAttemptProcess(detail.id);
  const followUp = useFollowUp(detail.id);
  const exam = useResultExam(detail.examId);
  useWarnBeforeLeaving(grading.unsaved);
  const name = detail.userName.trim() || t('resultDetails.anonymous');
  const agenticTasks = detail.questionAnswers.filter((qa) => qa.starterFiles).length;

  return (
    <QuestionNumberingProvider answers={detail.questionAnswers}>
      <PageHeader
        back={<BackToDashboard />}
        title={t('resultDetails.examResultDetails')}
        description={detail.examTitle}
        actions={
          <>
            <span data-testid="result-score">
              <ScoreBadge result={detail} />
            </span>
            <FollowUpSummary query={followUp} />
            {detail.lmsSync && <LmsSyncChip resultId={detail.id} sync={detail.lmsSync} />}
            <ReleaseButton detail={detail} />
            <DeleteResultButton detail={detail} exam={exam.data} />
            <GradeByQuestionLink examId={detail.examId} questionIndex={firstAwaitingQuestion(detail.questionAnswers)} />
            {grading.unsaved && (
              <Button onClick={grading.saveNow} disabled={grading.saving}>
                <Save aria-hidden className="h-4 w-4" /> {t('resultDetails.saveGrading')}
              </Button>
            )}
          </>
        }
      />
      <div aria-live="polite" className="mb-4 min-h-6 text-sm">
        {grading.saving ? (
          <Spinner label={t('resultDetails.savingGrading')} />
        ) : grading.error ? (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-danger"
          >
            <span>{t('resultDetails.theGradingCouldNot', { error: grading.error })}</span>
            <Button variant="secondary" size="sm" onClick={grading.saveNow}>
              <RotateCw aria-hidden className="h-4 w-4" /> {t('resultDetails.retryNow')}
            </Button>
          </div>
        ) : grading.unsaved ? (
          <p className="text-muted">{t('resultDetails.unsavedChanges')}</p>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_24rem]">
        <section aria-label={t('resultDetails.answers')} className="flex flex-col gap-4">
          {inExamOrder(detail.questionAnswers).map((qa) => (
            <QuestionCard
              key={qa.questionIndex}
              resultId={detail.id}
              qa={qa}
              {...examContextOf(exam.data, qa)}
              grade={
                grading.grades[qa.questionIndex] ?? {
                  points: qa.points,
                  feedback: qa.feedback,
                  criteria: qa.criteria,
                  touched: false,
                }
              }
              actions={markingActionsFor(qa, (next) => grading.change(qa.questionIndex, next))}
              reasonError={grading.fieldErrors.get(qa.questionIndex)}
              task={
                qa.starterFiles && (
                  <AgenticTask
                    starterFiles={qa.starterFiles}
                    files={detail.workspace_files}
                    root={qa.repositoryRoot ?? repositoryRoot(examIndexOf(qa) + 1, agenticTasks)}
                    questionIndex={qa.questionIndex}
                  />
                )
              }
              process={<QuestionProcess process={attemptProcess} questionIndex={qa.questionIndex} />}
              followUps={
                <FollowUpsForQuestion
                  resultId={detail.id}
                  followUp={followUp.data}
                  examQuestionIndex={examIndexOf(qa)}
                />
              }
            />
          ))}
          <OtherFollowUps resultId={detail.id} followUp={followUp.data} answers={detail.questionAnswers} />
        </section>
        <aside className="flex flex-col gap-6">
          <Card>
            <CardHeader title={t('resultDetails.studentInformation')} />
            <CardBody>
              <dl
                aria-label={t('resultDetails.studentInformation')}
                className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm"
              >
                <dt className="text-muted">{t('resultDetails.name')}</dt>
                <dd>{name}</dd>
                <dt className="text-muted">{t('resultDetails.studentId')}</dt>
                <dd>{detail.studentId || 'N/A'}</dd>
                <dt className="text-muted">{t('resultDetails.exam')}</dt>
                <dd>{detail.examTitle}</dd>
                <dt className="text-muted">{t('resultDetails.submitted')}</dt>
                <dd>{formatDateTime(detail.completedAt)}</dd>
                <dt className="text-muted">{t('resultDetails.timeSpent')}</dt>
                <dd>{formatDuration(detail.timeSpent)}</dd>
                <dt className="text-muted">{t('resultDetails.completion')}</dt>
                <dd>
                  {t('resultDetails.answeredcountTotalquestionsAnswered', {
                    answeredCount: detail.answeredCount,
                    totalQuestions: detail.totalQuestions,
                  })}
                </dd>
              </dl>
            </CardBody>
          </Card>
          <ReceiptCheckSection resultId={detail.id} />
          <ChatHistory attemptId={detail.attemptId} title={t('resultDetails.aiConversation')} />
          <WorkspaceFiles files={detail.workspace_files} />
          <GradeHistory history={detail.history} />
          <EventsSummary summary={detail.eventSummary} />
        </aside>
      </div>
      <div className="mt-6 flex flex-col gap-6">
        <AgentActivitySection process={attemptProcess} agenticTask={agenticTasks > 0} />
        <AttemptReplaySection process={attemptProcess} />
      </div>
    </QuestionNumberingProvider>
  );
}
