import { formatDuration } from '@exam/domain/grading';
import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { AlertTriangle, ArrowLeft, FileQuestion, Save } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { firstAwaitingQuestion, GradeByQuestionLink } from '../../../components/grade-by-question-link.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useFollowUp } from '../api/follow-up.ts';
import { examContextOf, useResultExam } from '../api/get-result-exam.ts';
import { useCandidateResultId, useGradeResult, useResult } from '../api/grade-result.ts';
import {
  followServer,
  gradesOf,
  markingActionsFor,
  reasonErrors,
  toEntries,
  type QuestionGrade,
} from '../grading-state.ts';
import { ChatHistory } from './chat-history.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { FollowUpsForQuestion, FollowUpSummary, OtherFollowUps } from './follow-up-section.tsx';
import { examIndexOf, inExamOrder } from '../lib/exam-numbering.ts';
import { QuestionNumberingProvider } from './question-numbering.tsx';
import { QuestionCard } from './question-card.tsx';
import { useWarnBeforeLeaving } from '../hooks/use-warn-before-leaving.ts';
import { WorkspaceFiles } from './workspace-files.tsx';
import { useTranslation } from 'react-i18next';
import { WorkspaceStartFailureNote } from './workspace-start-failure.tsx';
import { AttemptReplaySection, QuestionProcess, useAttemptProcess } from './attempt-process.tsx';

function NotFound({ title }: { title: string }) {
  const { t } = useTranslation('grading');
  const navigate = useNavigate();
  return (
    <Card className="mx-auto max-w-lg">
      <EmptyState
        icon={<FileQuestion aria-hidden />}
        title={title}
        action={<Button onClick={() => void navigate(-1)}>{t('grader.goBack')}</Button>}
      />
    </Card>
  );
}

/** /creator/grade/{examId}/candidate/{candidateId}: one candidate's submission, graded on one page. */
export function Grader({ examId, candidateId }: { examId: string; candidateId: string }) {
  const { t } = useTranslation('grading');
  const candidate = useCandidateResultId(examId, candidateId);
  const detail = useResult(candidate.data ?? '');

  if (!examId || !candidateId) return <NotFound title={t('grader.missingExamOrCandidate')} />;
  // An unknown result (404) is 'Data not found'; anything else can be tried again.
  const failed =
    candidate.error ?? (detail.error instanceof ApiError && detail.error.status === 404 ? null : detail.error);
  if (!failed && (candidate.isPending || detail.isPending))
    return <PageSpinner label={t('grader.loadingSubmission')} />;
  if (failed) {
    const retry = () => void (candidate.isError ? candidate.refetch() : detail.refetch());
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('grader.couldNotLoadThe')}
          description={userMessageOf(failed)}
          action={<Button onClick={retry}>{t('grader.tryAgain')}</Button>}
        />
      </Card>
    );
  }
  if (!detail.data) return <NotFound title={t('grader.dataNotFound')} />;
  return <GraderForm key={detail.data.id} examId={examId} detail={detail.data} />;
}

function GraderForm({ examId, detail }: { examId: string; detail: ResultDetail }) {
  const { t } = useTranslation('grading');
  const navigate = useNavigate();
  const save = useGradeResult(detail.id);
  const attemptProcess = useAttemptProcess(detail.id);
  const followUp = useFollowUp(detail.id);
  const exam = useResultExam(detail.examId);
  const [grades, setGrades] = useState<QuestionGrade[]>(() => gradesOf(detail));
  const [unsaved, setUnsaved] = useState(false);
  useWarnBeforeLeaving(unsaved);
  // A test run finishing (the page polls while one is on its way) changes the questions nobody touched here.
  useEffect(() => setGrades((current) => followServer(current, detail)), [detail]);
  const fieldErrors =
    save.error instanceof ApiError && save.variables ? reasonErrors(save.error.issues, save.variables) : new Map();

  const update = (index: number, next: (g: QuestionGrade) => QuestionGrade) => {
    const current = grades[index];
    if (!current) return;
    const changed = next(current);
    if (changed === current) return;
    setGrades(grades.map((g, i) => (i === index ? changed : g)));
    setUnsaved(true);
  };
  const submit = () => {
    const entries = toEntries(grades);
    if (entries.length === 0) {
      void navigate(paths.examSubmissions(examId));
      return;
    }
    save.mutate(entries, {
      onSuccess: () => {
        setUnsaved(false);
        toast.success(t('grader.gradingSaved'));
        void navigate(paths.examSubmissions(examId));
      },
    });
  };

  const name = detail.userName.trim() || t('grader.anonymous');

  return (
    <QuestionNumberingProvider answers={detail.questionAnswers}>
      <PageHeader
        back={
          <Button asChild variant="ghost" size="sm">
            <Link to={paths.examInsights(examId)}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> {t('grader.backToInsights')}
            </Link>
          </Button>
        }
        title={t('grader.gradingName', { name })}
        description={detail.examTitle}
        actions={
          <>
            <GradeByQuestionLink examId={examId} questionIndex={firstAwaitingQuestion(detail.questionAnswers)} />
            <Button onClick={submit} disabled={save.isPending}>
              <Save aria-hidden className="h-4 w-4" /> {save.isPending ? t('grader.saving') : t('grader.saveGrading')}
            </Button>
          </>
        }
      />
      {unsaved && (
        <p
          role="status"
          className="mb-4 rounded-lg border border-yellow-200 bg-yellow-50 px-4 py-2 text-sm text-yellow-800"
        >
          {t('grader.youHaveUnsavedChanges')}
        </p>
      )}
      {save.isError && (
        <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-sm text-danger">
          {t('grader.theGradingCouldNot', { message: userMessageOf(save.error) })}
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <section aria-label={t('grader.questionsAnswers')} className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">{t('grader.questionsAnswers')}</h2>
          {inExamOrder(detail.questionAnswers).map((qa) => (
            <QuestionCard
              key={qa.questionIndex}
              resultId={detail.id}
              qa={qa}
              {...examContextOf(exam.data, qa)}
              grade={
                grades[qa.questionIndex] ?? {
                  points: qa.points,
                  feedback: qa.feedback,
                  criteria: qa.criteria,
                  touched: false,
                }
              }
              actions={markingActionsFor(qa, (next) => update(qa.questionIndex, next))}
              reasonError={fieldErrors.get(qa.questionIndex)}
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
          <CandidateInfoCard
            name={name}
            detail={detail}
            unsaved={unsaved}
            followUpSummary={<FollowUpSummary query={followUp} />}
          />
          <WorkspaceStartFailureNote attemptId={detail.attemptId} />
          <WorkspaceFiles files={detail.workspace_files} />
          <ChatHistory attemptId={detail.attemptId} />
        </aside>
      </div>
      <div className="mt-6">
        <AttemptReplaySection process={attemptProcess} />
      </div>
    </QuestionNumberingProvider>
  );
}

function CandidateInfoCard({
  name,
  detail,
  unsaved,
  followUpSummary,
}: {
  name: string;
  detail: ResultDetail;
  unsaved: boolean;
  /** The follow-up's own figure, under the score and apart from it. */
  followUpSummary: ReactNode;
}) {
  const { t } = useTranslation('grading');
  return (
    <Card>
      <CardHeader title={t('grader.candidateInfo')} />
      <CardBody>
        <dl aria-label={t('grader.candidateInfo')} className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted">{t('grader.name')}</dt>
          <dd>{name}</dd>
          <dt className="text-muted">{t('grader.id')}</dt>
          <dd>{detail.studentId || 'N/A'}</dd>
          <dt className="text-muted">{t('grader.submitted')}</dt>
          <dd>{formatDateTime(detail.completedAt)}</dd>
          <dt className="text-muted">{t('grader.timeSpent')}</dt>
          <dd>{formatDuration(detail.timeSpent)}</dd>
          <dt className="text-muted">{t('grader.score')}</dt>
          <dd data-testid="grader-score">
            <ScoreBadge result={detail} />
            {unsaved && <p className="mt-1 text-xs text-muted">{t('grader.savedScoreSaveTo')}</p>}
          </dd>
        </dl>
        <div className="mt-3 border-t border-line pt-3 empty:hidden">{followUpSummary}</div>
      </CardBody>
    </Card>
  );
}
