import type { Exam } from '@exam/domain/exam';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Input } from '@exam/ui/input';
import { PageSpinner } from '@exam/ui/spinner';
import { SwitchField } from '@exam/ui/switch';
import { toast } from '@exam/ui/toaster';
import { ArrowLeft, CheckCircle2, Copy, FileQuestion, Radio, WifiOff } from 'lucide-react';
import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { paths, takerPaths } from '../../../config/paths.ts';
import { useRuntimeConfig } from '../../../config/runtime-config.ts';
import { useExam } from '../../../features/exams/api/exam-queries.ts';
import { useSetExamLive } from '../../../features/exams/api/exam-mutations.ts';
import { copyExamUrl } from '../../../features/exams/components/published-exams-table.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';

function BackToDashboard({ variant = 'secondary' }: { variant?: 'secondary' | 'primary' }) {
  return (
    <Button asChild variant={variant}>
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
      </Link>
    </Button>
  );
}

export function ExamPublishedRoute() {
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  const setLive = useSetExamLive();
  const { takerOrigin } = useRuntimeConfig();

  if (exam.isPending) return <PageSpinner label="Loading exam…" />;
  if (exam.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title="Exam Not Found"
          description="It may have been deleted, or it belongs to another account."
          action={<BackToDashboard variant="primary" />}
        />
      </Card>
    );
  }

  const data = exam.data;
  const url = takerPaths.exam(takerOrigin, data.id);
  const toggleLive = (isLive: boolean) =>
    setLive.mutate(
      { examId: data.id, isLive },
      {
        onSuccess: () =>
          toast.success(
            isLive
              ? 'Exam is now live! Candidates can access it.'
              : 'Exam is no longer live. Candidates cannot access it.',
          ),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col items-center text-center">
        <div className="rounded-full bg-green-50 p-3 text-success">
          <CheckCircle2 aria-hidden className="h-8 w-8" />
        </div>
        <h1 className="mt-4 text-2xl font-semibold text-ink">Exam Published!</h1>
        <p className="mt-1 text-sm text-muted">Share the link below with your candidates.</p>
      </div>
      <CandidateLinkCard url={url} isLive={data.isLive} onToggleLive={toggleLive} />
      <ExamSummaryCard exam={data} />
      <div className="flex justify-center">
        <BackToDashboard />
      </div>
    </div>
  );
}

/** The link to share, and the switch that decides whether candidates can open it. */
function CandidateLinkCard({
  url,
  isLive,
  onToggleLive,
}: {
  url: string;
  isLive: boolean;
  onToggleLive: (isLive: boolean) => void;
}) {
  const urlId = useId();
  return (
    <Card>
      <CardHeader title="Candidate link" />
      <CardBody className="flex flex-col gap-5">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={urlId} className="text-sm font-medium text-ink">
            Exam URL
          </label>
          <div className="flex gap-2">
            <Input
              id={urlId}
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="font-mono"
            />
            <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => void copyExamUrl(url)}>
              <Copy aria-hidden className="h-4 w-4" /> Copy URL
            </Button>
          </div>
        </div>
        <SwitchField
          label="Make Exam Live"
          hint="Only live exams can be opened by candidates."
          checked={isLive}
          onCheckedChange={onToggleLive}
        />
        <div
          role="status"
          className={
            isLive
              ? 'flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800'
              : 'flex items-center gap-2 rounded-lg border border-yellow-200 bg-yellow-50 px-3 py-2 text-sm text-yellow-800'
          }
        >
          {isLive ? <Radio aria-hidden className="h-4 w-4" /> : <WifiOff aria-hidden className="h-4 w-4" />}
          {isLive
            ? 'This exam is live. Candidates can access it.'
            : 'This exam is offline. Candidates cannot access it until you make it live.'}
        </div>
      </CardBody>
    </Card>
  );
}

function ExamSummaryCard({ exam }: { exam: Exam }) {
  return (
    <Card>
      <CardHeader title="Summary" />
      <CardBody>
        <dl className="grid grid-cols-[10rem_1fr] gap-y-3 text-sm">
          <dt className="text-muted">Title</dt>
          <dd className="font-medium text-ink">{exam.title}</dd>
          <dt className="text-muted">Questions</dt>
          <dd className="text-ink">{exam.questions.length}</dd>
          <dt className="text-muted">AI assistant</dt>
          <dd>{exam.aiSettings.enabled ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>}</dd>
          <dt className="text-muted">Timer</dt>
          <dd className="text-ink">{exam.timerEnabled ? `${exam.timerMinutes} minutes` : 'No timer'}</dd>
        </dl>
      </CardBody>
    </Card>
  );
}
