import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { AlertTriangle } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTimeline } from '../api/get-timeline.ts';
import type { ReplayRequest } from '../lib/playback.ts';

// The replay, the coloured answers and the receipt check load with the page's first use of them, so the grading
// page's own chunk (and the results lists before it) do not carry them.
const AnswerProcess = lazy(async () => ({ default: (await import('./process/answer-process.tsx')).AnswerProcess }));
const AttemptReplay = lazy(async () => ({ default: (await import('./process/attempt-replay.tsx')).AttemptReplay }));
const AgentActivity = lazy(async () => ({ default: (await import('./agent/agent-activity.tsx')).AgentActivity }));
const ReceiptCheck = lazy(async () => ({ default: (await import('./process/receipt-check.tsx')).ReceiptCheck }));

/** The attempt's timeline, and the requests a question's section makes to the replay ("watch this answer"). */
export function useAttemptProcess(resultId: string) {
  const timeline = useTimeline(resultId);
  const [request, setRequest] = useState<ReplayRequest | null>(null);
  const watch = useCallback((t: number) => setRequest((last) => ({ t, n: (last?.n ?? 0) + 1 })), []);
  return { timeline, request, watch };
}
export type AttemptProcessState = ReturnType<typeof useAttemptProcess>;

function Loading() {
  const { t } = useTranslation('process');
  return <Spinner label={t('section.loading')} />;
}

/** "How this answer came to be" under one question. */
export function QuestionProcess({ process, questionIndex }: { process: AttemptProcessState; questionIndex: number }) {
  const { t } = useTranslation('process');
  const { timeline } = process;
  if (timeline.isPending) return <Loading />;
  if (timeline.isError) {
    return (
      <p className="border-t border-line pt-3 text-sm text-muted">
        {t('section.failed', { message: userMessageOf(timeline.error) })}
      </p>
    );
  }
  return (
    <Suspense fallback={<Loading />}>
      <AnswerProcess
        questionIndex={questionIndex}
        answer={timeline.data.answers.find((a) => a.questionIndex === questionIndex)}
        startedAt={timeline.data.startedAt}
        onWatch={process.watch}
      />
    </Suspense>
  );
}

/** The attempt's replay, or why it cannot show. */
export function AttemptReplaySection({ process }: { process: AttemptProcessState }) {
  const { t } = useTranslation('process');
  const { timeline } = process;
  if (timeline.isSuccess) {
    return (
      <Suspense
        fallback={
          <Card>
            <CardBody>
              <Spinner label={t('replay.loading')} />
            </CardBody>
          </Card>
        }
      >
        <AttemptReplay timeline={timeline.data} request={process.request} />
      </Suspense>
    );
  }
  return (
    <Card>
      <CardHeader title={t('replay.title')} />
      <CardBody>
        {timeline.isPending ? (
          <Spinner label={t('replay.loading')} />
        ) : (
          <div role="alert" className="flex flex-col items-start gap-2 text-sm text-danger">
            <p className="flex items-center gap-2">
              <AlertTriangle aria-hidden className="h-4 w-4" />
              {t('section.failed', { message: userMessageOf(timeline.error) })}
            </p>
            <Button variant="secondary" size="sm" onClick={() => void timeline.refetch()}>
              {t('section.retry')}
            </Button>
          </div>
        )}
      </CardBody>
    </Card>
  );
}

/**
 * The workspace agent's calls beside the file changes they caused: shown when the attempt's workspace had an agent
 * (the timeline carries `agentCalls`) or the result has an agentic task. The replay above says when the timeline
 * could not be loaded.
 */
export function AgentActivitySection({ process, agenticTask }: { process: AttemptProcessState; agenticTask: boolean }) {
  const { timeline } = process;
  if (!timeline.isSuccess || (timeline.data.agentCalls === undefined && !agenticTask)) return null;
  return (
    <Suspense fallback={<Loading />}>
      <AgentActivity timeline={timeline.data} />
    </Suspense>
  );
}

/** The check of a candidate's process receipt (the result page). */
export function ReceiptCheckSection({ resultId }: { resultId: string }) {
  return (
    <Suspense fallback={<Loading />}>
      <ReceiptCheck resultId={resultId} />
    </Suspense>
  );
}
