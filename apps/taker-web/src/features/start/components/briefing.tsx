import type { Briefing as BriefingData, BriefingRequest } from '@exam/domain/cohort';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { RichText } from '@exam/ui/rich-text';
import { ArrowLeft, Play } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useBriefing } from '../api/get-briefing.ts';
import { startRefusalMessage, windowMessage } from '../lib/exam-window.ts';

export type BriefingProps = {
  request: BriefingRequest;
  /** Starts (or resumes) the attempt: the clock starts only now. */
  onStart: () => void;
  isStarting: boolean;
  /** The last refused start, shown in the candidate's words (409: not yet open, closed, no attempts left). */
  startError: unknown;
  onBack: () => void;
  /**
   * The briefing was refused for who the candidate is (403: a wrong access code, not on the roster): the
   * details form takes it back, with the refusal on its field.
   */
  onRefused?: (error: ApiError) => void;
};

/** '90 minutes (60 + extra time)', '60 minutes', 'No time limit'. */
export function durationText(briefing: Pick<BriefingData, 'durationMinutes' | 'baseDurationMinutes'>): string {
  const { durationMinutes: minutes, baseDurationMinutes: base } = briefing;
  if (minutes === null) return 'No time limit';
  const total = `${Math.round(minutes * 10) / 10} minutes`;
  return base !== null && minutes > base ? `${total} (${base} + extra time)` : total;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-line py-2 last:border-b-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd
        className="text-right text-sm font-medium text-ink"
        data-testid={`briefing-${label.toLowerCase().replace(/\s+/g, '-')}`}
      >
        {children}
      </dd>
    </div>
  );
}

function BriefingFacts({ briefing }: { briefing: BriefingData }) {
  const onOff = (on: boolean) => (on ? 'On' : 'Off');
  return (
    <dl className="mt-6 rounded-lg border border-line px-4" aria-label="About this exam">
      <Fact label="Duration">{durationText(briefing)}</Fact>
      <Fact label="Questions">{briefing.questionCount}</Fact>
      <Fact label="Availability">{windowMessage(briefing, briefing.windowState) ?? 'Open now, no closing time'}</Fact>
      <Fact label="Full screen">{briefing.fullScreenEnabled ? 'Required' : 'Not required'}</Fact>
      <Fact label="Coding workspace">{onOff(briefing.workspaceEnabled)}</Fact>
      <Fact label="AI assistant">{onOff(briefing.assistantEnabled)}</Fact>
      <Fact label="Attempts">{`${briefing.attemptsUsed} of ${briefing.attemptsAllowed} used`}</Fact>
    </dl>
  );
}

/** Why Start is not offered now, if it is not: the window, or every attempt used. */
function blockedReason(briefing: BriefingData): string | null {
  if (briefing.inProgress) return null;
  if (briefing.windowState !== 'open') return windowMessage(briefing, briefing.windowState);
  if (briefing.attemptsUsed >= briefing.attemptsAllowed) return 'You have used every attempt this exam allows.';
  return null;
}

/**
 * The briefing between the candidate's details and the exam (docs/product.md#cohorts): what the exam is, for
 * them, and a Start button. Nothing is created and no clock runs until Start.
 */
export function Briefing({ request, onStart, isStarting, startError, onBack, onRefused }: BriefingProps) {
  const briefing = useBriefing(request);
  const refusal = briefing.error instanceof ApiError && briefing.error.status === 403 ? briefing.error : null;
  useEffect(() => {
    if (refusal && onRefused) onRefused(refusal);
  }, [refusal, onRefused]);
  const back = (
    <Button variant="ghost" onClick={onBack} disabled={isStarting}>
      <ArrowLeft aria-hidden className="h-4 w-4" /> Change my details
    </Button>
  );

  if (briefing.isPending) {
    return (
      <Card className="flex w-full max-w-xl items-center justify-center p-8">
        <Spinner label="Preparing your briefing…" />
      </Card>
    );
  }
  // The details form takes a refusal back (its effect above): nothing to show here meanwhile.
  if (refusal && onRefused) return null;
  if (briefing.isError) {
    return (
      <Card className="w-full max-w-xl p-8">
        <h1 className="text-2xl font-semibold text-ink">Cannot show this exam</h1>
        <p role="alert" className="mt-3 text-sm text-danger">
          {briefing.error instanceof ApiError
            ? briefing.error.userMessage
            : 'Could not load the exam. Please try again.'}
        </p>
        <div className="mt-6">{back}</div>
      </Card>
    );
  }

  const data = briefing.data;
  const blocked = blockedReason(data);
  return (
    <Card className="w-full max-w-xl p-8">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">Briefing</p>
      <h1 className="mt-1 text-2xl font-semibold text-ink">{data.title || 'Exam'}</h1>
      <p className="mt-1 text-sm text-muted" data-testid="briefing-candidate">
        {request.name} ({request.studentId})
      </p>
      {data.description && (
        <RichText className="mt-4 text-sm text-ink" testId="briefing-description">
          {data.description}
        </RichText>
      )}
      <BriefingFacts briefing={data} />
      {data.rules && (
        <section className="mt-6" aria-label="Rules">
          <h2 className="text-sm font-semibold text-ink">Rules</h2>
          <RichText className="mt-1 text-sm text-ink" testId="briefing-rules">
            {data.rules}
          </RichText>
        </section>
      )}
      <p className="mt-6 text-sm text-muted">
        {data.inProgress
          ? 'You have an attempt in progress: Start Exam continues it with the time it has left.'
          : data.durationMinutes === null
            ? 'Take your time: this exam has no timer.'
            : 'The timer starts when you press Start Exam.'}
      </p>
      {(blocked || startError !== undefined) && (
        <p role="alert" className="mt-4 rounded-md bg-warning/10 p-3 text-sm text-ink" data-testid="briefing-refusal">
          {startError !== undefined ? startRefusalMessage(startError, data.opensAt) : blocked}
        </p>
      )}
      <div className="mt-6 flex flex-col gap-2">
        <Button onClick={onStart} disabled={isStarting || blocked !== null}>
          <Play aria-hidden className="h-4 w-4" /> {isStarting ? 'Starting…' : 'Start Exam'}
        </Button>
        {back}
      </div>
    </Card>
  );
}
