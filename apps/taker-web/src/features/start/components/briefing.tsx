import type { Briefing as BriefingData, BriefingRequest } from '@exam/domain/cohort';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { RichText } from '@exam/ui/rich-text';
import { ArrowLeft, Play } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMinutes, formatNumber } from '../../../i18n/format.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { PlantedErrorsNote } from '../../../lib/planted-errors-note.tsx';
import { useBriefing } from '../api/get-briefing.ts';
import { useExamSummary } from '../api/get-exam-summary.ts';
import { BriefingSections } from './briefing-sections.tsx';
import { startRefusalMessage, windowMessage } from '../lib/exam-window.ts';

export type BriefingProps = {
  request: BriefingRequest;
  /**
   * Starts (or resumes) the attempt: the clock starts only now. `lastAttempt`: no attempt is left after this one,
   * so once it is submitted its resume code opens nothing (the completion page leaves it out).
   */
  onStart: (options: { lastAttempt: boolean }) => void;
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

/** '90 minutes (60 + extra time)', '60 minutes', 'No time limit' (in the page's language). */
export function durationText(
  briefing: Pick<BriefingData, 'durationMinutes' | 'baseDurationMinutes'>,
  t: TFunction<'start'>,
): string {
  const { durationMinutes: minutes, baseDurationMinutes: base } = briefing;
  if (minutes === null) return t('briefing.noTimeLimit');
  const total = formatMinutes(Math.round(minutes * 10) / 10);
  return base !== null && minutes > base ? t('briefing.withExtraTime', { total, base }) : total;
}

/** A follow-up question's time: '3 minutes', or '90 seconds' when it is not whole minutes. */
const questionTime = (seconds: number) =>
  seconds % 60 === 0
    ? formatMinutes(seconds / 60)
    : formatNumber(seconds, undefined, { style: 'unit', unit: 'second', unitDisplay: 'long' });

/** One row of the facts; `id` names it for tests whatever the language. */
function Fact({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-line py-2 last:border-b-0">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="text-right text-sm font-medium text-ink" data-testid={`briefing-${id}`}>
        {children}
      </dd>
    </div>
  );
}

function BriefingFacts({ briefing }: { briefing: BriefingData }) {
  const { t, i18n } = useTranslation('start');
  const onOff = (on: boolean) => (on ? t('briefing.on') : t('briefing.off'));
  const count = new Intl.NumberFormat(i18n.resolvedLanguage);
  return (
    <dl className="mt-6 rounded-lg border border-line px-4" aria-label={t('briefing.about')}>
      <Fact id="duration" label={t('briefing.facts.duration')}>
        {durationText(briefing, t)}
      </Fact>
      <Fact id="questions" label={t('briefing.facts.questions')}>
        {count.format(briefing.questionCount)}
      </Fact>
      <Fact id="availability" label={t('briefing.facts.availability')}>
        {windowMessage(briefing, briefing.windowState) ?? t('briefing.alwaysOpen')}
      </Fact>
      <Fact id="full-screen" label={t('briefing.facts.fullScreen')}>
        {briefing.fullScreenEnabled ? t('briefing.required') : t('briefing.notRequired')}
      </Fact>
      <Fact id="coding-workspace" label={t('briefing.facts.codingWorkspace')}>
        {onOff(briefing.workspaceEnabled)}
      </Fact>
      <Fact id="ai-assistant" label={t('briefing.facts.aiAssistant')}>
        {onOff(briefing.assistantEnabled)}
      </Fact>
      <Fact id="attempts" label={t('briefing.facts.attempts')}>
        {briefing.practice
          ? t('briefing.practice')
          : t('briefing.attemptsUsed', {
              used: count.format(briefing.attemptsUsed),
              allowed: count.format(briefing.attemptsAllowed),
            })}
      </Fact>
    </dl>
  );
}

/** Why Start is not offered now, if it is not: the window, or every attempt used. */
/** Whether the attempt Start begins (or resumes) is the candidate's last: attemptsUsed counts an open one too. */
export function isLastAttempt(
  briefing: Pick<BriefingData, 'practice' | 'attemptsAllowed' | 'attemptsUsed' | 'inProgress'>,
) {
  if (briefing.practice) return false;
  return briefing.attemptsUsed + (briefing.inProgress ? 0 : 1) >= briefing.attemptsAllowed;
}

function blockedReason(briefing: BriefingData, t: TFunction<['start', 'common']>): string | null {
  if (briefing.inProgress) return null;
  if (briefing.windowState !== 'open') return windowMessage(briefing, briefing.windowState);
  // A practice exam may be sat again and again (docs/product.md#practice-and-review).
  if (!briefing.practice && briefing.attemptsUsed >= briefing.attemptsAllowed) return t('common:server.noAttemptsLeft');
  return null;
}

/**
 * The briefing between the candidate's details and the exam (docs/product.md#cohorts): what the exam is, for
 * them, and a Start button. Nothing is created and no clock runs until Start.
 */
export function Briefing({ request, onStart, isStarting, startError, onBack, onRefused }: BriefingProps) {
  const { t } = useTranslation(['start', 'common']);
  const briefing = useBriefing(request);
  // The briefing's own answer says nothing of sections or planted errors; the exam's public summary does.
  const summary = useExamSummary(request.examId);
  const refusal = briefing.error instanceof ApiError && briefing.error.status === 403 ? briefing.error : null;
  useEffect(() => {
    if (refusal && onRefused) onRefused(refusal);
  }, [refusal, onRefused]);
  const back = (
    <Button variant="ghost" onClick={onBack} disabled={isStarting}>
      <ArrowLeft aria-hidden className="h-4 w-4" /> {t('briefing.changeDetails')}
    </Button>
  );

  if (briefing.isPending) {
    return (
      <Card className="flex w-full max-w-xl items-center justify-center p-8">
        <Spinner label={t('briefing.preparing')} />
      </Card>
    );
  }
  // The details form takes a refusal back (its effect above): nothing to show here meanwhile.
  if (refusal && onRefused) return null;
  if (briefing.isError) {
    return (
      <Card className="w-full max-w-xl p-8">
        <h1 className="text-2xl font-semibold text-ink">{t('briefing.cannotShow')}</h1>
        <p role="alert" className="mt-3 text-sm text-danger">
          {briefing.error instanceof ApiError
            ? translateServerMessage(briefing.error.userMessage)
            : t('briefing.loadFailed')}
        </p>
        <div className="mt-6">{back}</div>
      </Card>
    );
  }

  const data = briefing.data;
  // The follow-up questions after submit (docs/product.md "Follow-up questions"), said before Start.
  const followUp = summary.data?.aiSettings.followUp;
  const blocked = blockedReason(data, t);
  return (
    <Card className="w-full max-w-xl p-8">
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('briefing.eyebrow')}</p>
      <h1 className="mt-1 text-2xl font-semibold text-ink">{data.title || t('briefing.untitled')}</h1>
      <p className="mt-1 text-sm text-muted" data-testid="briefing-candidate">
        {request.name} ({request.studentId})
      </p>
      {data.description && (
        <RichText className="mt-4 text-sm text-ink" testId="briefing-description">
          {data.description}
        </RichText>
      )}
      <BriefingFacts briefing={data} />
      <BriefingSections sections={summary.data?.sections ?? []} />
      {data.rules && (
        <section className="mt-6" aria-label={t('briefing.rules')}>
          <h2 className="text-sm font-semibold text-ink">{t('briefing.rules')}</h2>
          <RichText className="mt-1 text-sm text-ink" testId="briefing-rules">
            {data.rules}
          </RichText>
        </section>
      )}
      {summary.data?.aiSettings.plantedErrors && <PlantedErrorsNote className="mt-6" />}
      {followUp && (
        <p role="note" className="mt-6 text-sm text-ink" data-testid="briefing-follow-up">
          {t('briefing.followUp', { count: followUp.questions, duration: questionTime(followUp.secondsPerQuestion) })}
        </p>
      )}
      <p className="mt-6 text-sm text-muted">
        {data.inProgress
          ? t('briefing.inProgress')
          : data.durationMinutes === null
            ? t('briefing.untimed')
            : t('briefing.timerStarts')}
      </p>
      {(blocked || startError !== undefined) && (
        <p role="alert" className="mt-4 rounded-md bg-warning/10 p-3 text-sm text-ink" data-testid="briefing-refusal">
          {startError !== undefined ? startRefusalMessage(startError, data.opensAt) : blocked}
        </p>
      )}
      <div className="mt-6 flex flex-col gap-2">
        <Button
          onClick={() => onStart({ lastAttempt: isLastAttempt(briefing.data) })}
          disabled={isStarting || blocked !== null}
        >
          <Play aria-hidden className="h-4 w-4" /> {isStarting ? t('briefing.starting') : t('briefing.start')}
        </Button>
        {back}
      </div>
    </Card>
  );
}
