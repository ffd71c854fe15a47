import { formatDuration } from '@exam/domain/grading';
import type { ResultDetail } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { AlertTriangle, ArrowLeft, FileQuestion, Save } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ScoreBadge } from '../../../components/score-badge.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useCandidateResultId, useGradeResult, useResult } from '../api/result-queries.ts';
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
import { QuestionCard } from './question-card.tsx';
import { useWarnBeforeLeaving } from '../hooks/use-warn-before-leaving.ts';
import { WorkspaceFiles } from './workspace-files.tsx';
import { WorkspaceStartFailureNote } from './workspace-start-failure.tsx';

function NotFound({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <Card className="mx-auto max-w-lg">
      <EmptyState
        icon={<FileQuestion aria-hidden />}
        title={title}
        action={<Button onClick={() => void navigate(-1)}>Go Back</Button>}
      />
    </Card>
  );
}

/** /creator/grade/{examId}/candidate/{candidateId}: one candidate's submission, graded on one page. */
export function Grader({ examId, candidateId }: { examId: string; candidateId: string }) {
  const candidate = useCandidateResultId(examId, candidateId);
  const detail = useResult(candidate.data ?? '');

  if (!examId || !candidateId) return <NotFound title="Missing exam or candidate ID" />;
  // An unknown result (404) is 'Data not found'; anything else can be tried again.
  const failed =
    candidate.error ?? (detail.error instanceof ApiError && detail.error.status === 404 ? null : detail.error);
  if (!failed && (candidate.isPending || detail.isPending)) return <PageSpinner label="Loading submission…" />;
  if (failed) {
    const retry = () => void (candidate.isError ? candidate.refetch() : detail.refetch());
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title="Could not load the submission"
          description={userMessageOf(failed)}
          action={<Button onClick={retry}>Try again</Button>}
        />
      </Card>
    );
  }
  if (!detail.data) return <NotFound title="Data not found" />;
  return <GraderForm key={detail.data.id} examId={examId} detail={detail.data} />;
}

function GraderForm({ examId, detail }: { examId: string; detail: ResultDetail }) {
  const navigate = useNavigate();
  const save = useGradeResult(detail.id);
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
        toast.success('Grading saved');
        void navigate(paths.examSubmissions(examId));
      },
    });
  };

  const name = detail.userName.trim() || 'Anonymous';

  return (
    <>
      <PageHeader
        back={
          <Button asChild variant="ghost" size="sm">
            <Link to={paths.examInsights(examId)}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Insights
            </Link>
          </Button>
        }
        title={`Grading: ${name}`}
        description={detail.examTitle}
        actions={
          <Button onClick={submit} disabled={save.isPending}>
            <Save aria-hidden className="h-4 w-4" /> {save.isPending ? 'Saving…' : 'Save Grading'}
          </Button>
        }
      />
      {unsaved && (
        <p
          role="status"
          className="mb-4 rounded-lg border border-yellow-200 bg-yellow-50 px-4 py-2 text-sm text-yellow-800"
        >
          You have unsaved changes
        </p>
      )}
      {save.isError && (
        <div role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-2 text-sm text-danger">
          The grading could not be saved: {userMessageOf(save.error)} Your changes are kept; press Save Grading to try
          again.
        </div>
      )}
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <section aria-label="Questions & Answers" className="flex flex-col gap-4">
          <h2 className="text-lg font-semibold">Questions &amp; Answers</h2>
          {detail.questionAnswers.map((qa, index) => (
            <QuestionCard
              key={qa.questionIndex}
              resultId={detail.id}
              qa={qa}
              grade={
                grades[index] ?? { points: qa.points, feedback: qa.feedback, criteria: qa.criteria, touched: false }
              }
              actions={markingActionsFor(qa, (next) => update(index, next))}
              reasonError={fieldErrors.get(index)}
            />
          ))}
        </section>
        <aside className="flex flex-col gap-6">
          <CandidateInfoCard name={name} detail={detail} unsaved={unsaved} />
          <WorkspaceStartFailureNote attemptId={detail.attemptId} />
          <WorkspaceFiles files={detail.workspace_files} />
          <ChatHistory attemptId={detail.attemptId} />
        </aside>
      </div>
    </>
  );
}

function CandidateInfoCard({ name, detail, unsaved }: { name: string; detail: ResultDetail; unsaved: boolean }) {
  return (
    <Card>
      <CardHeader title="Candidate Info" />
      <CardBody>
        <dl aria-label="Candidate Info" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted">Name</dt>
          <dd>{name}</dd>
          <dt className="text-muted">ID</dt>
          <dd>{detail.studentId || 'N/A'}</dd>
          <dt className="text-muted">Submitted</dt>
          <dd>{formatDateTime(detail.completedAt)}</dd>
          <dt className="text-muted">Time Spent</dt>
          <dd>{formatDuration(detail.timeSpent)}</dd>
          <dt className="text-muted">Score</dt>
          <dd data-testid="grader-score">
            <ScoreBadge result={detail} />
            {unsaved && <p className="mt-1 text-xs text-muted">Saved score; save to apply your changes.</p>}
          </dd>
        </dl>
      </CardBody>
    </Card>
  );
}
