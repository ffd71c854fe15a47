import type { Timeline } from '@exam/domain/timeline';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { AlertTriangle } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_TICK_ELAPSED_MS, TICK_MS, advance, type ReplayRequest, type Speed } from '../../lib/playback.ts';
import {
  buildReplayModel,
  formatElapsed,
  latestAt,
  stepFrom,
  upperBound,
  type ReplayEvent,
} from '../../lib/replay-model.ts';
import { ReplayContext } from './replay-context.tsx';
import { ReplayControls } from './replay-controls.tsx';
import { ReplayEvents } from './replay-events.tsx';
import { ReplayMoment } from './replay-moment.tsx';
import { useDescribeEvent } from './use-describe-event.ts';

const byTime = (item: { t: number }) => item.t;

/**
 * The attempt's replay: a scrubber with play, pause and speeds, and at the chosen moment every answer and workspace
 * file as it was, the assistant conversation and the proctoring events beside them. A live region says the time and
 * the event when the replay pauses or is stepped, never on every frame.
 */
export function AttemptReplay({ timeline, request }: { timeline: Timeline; request?: ReplayRequest | null }) {
  const { t: tr } = useTranslation('process');
  const describe = useDescribeEvent();
  const model = useMemo(() => buildReplayModel(timeline), [timeline]);
  const listed = useMemo(() => model.events.filter((e) => e.event.kind !== 'answer-edit'), [model]);
  const [now, setNow] = useState(0);
  const nowRef = useRef(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>('1');
  const [announcement, setAnnouncement] = useState('');
  const section = useRef<HTMLElement>(null);
  const titleId = useId();

  const seek = useCallback((time: number) => {
    nowRef.current = time;
    setNow(time);
  }, []);
  const eventAt = useCallback(
    (time: number) => {
      const latest = latestAt(model.events, time);
      return latest >= 0 ? describe(model.events[latest]!.event) : tr('replay.noEventYet');
    },
    [model, describe, tr],
  );
  const announce = useCallback(
    (time: number) =>
      setAnnouncement(
        tr('replay.announce', {
          time: formatElapsed(time),
          event: time >= model.durationMs ? tr('replay.ended') : eventAt(time),
        }),
      ),
    [model, eventAt, tr],
  );
  const pauseAt = useCallback(
    (time: number) => {
      setPlaying(false);
      seek(time);
      announce(time);
    },
    [seek, announce],
  );

  useEffect(() => {
    if (!playing) return;
    let last = Date.now();
    const timer = setInterval(() => {
      const elapsed = Math.min(Date.now() - last, MAX_TICK_ELAPSED_MS);
      last = Date.now();
      const next = advance(nowRef.current, elapsed, speed, model.activity, model.durationMs);
      if (next >= model.durationMs) pauseAt(model.durationMs);
      else seek(next);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [playing, speed, model, seek, pauseAt]);

  // "Watch this answer": a question's section asks for a moment; the replay goes there and takes the focus.
  useEffect(() => {
    if (!request) return;
    pauseAt(Math.min(request.t, model.durationMs));
    section.current?.scrollIntoView?.({ block: 'start' });
    section.current?.querySelector<HTMLInputElement>('input[type="range"]')?.focus();
  }, [request, model, pauseAt]);

  const togglePlay = () => {
    if (playing) return pauseAt(nowRef.current);
    if (nowRef.current >= model.durationMs) seek(0);
    setAnnouncement('');
    setPlaying(true);
  };
  const jump = useCallback((e: ReplayEvent) => pauseAt(e.t), [pauseAt]);
  const step = (count: number | 'start' | 'end') =>
    pauseAt(count === 'start' ? 0 : count === 'end' ? model.durationMs : stepFrom(model, nowRef.current, count));
  // While playing, the slider's spoken value changes only when a new event is reached, not on every frame.
  const latest = latestAt(model.events, now);
  const valueText = !playing
    ? tr('replay.valueText', { time: formatElapsed(now), event: eventAt(now) })
    : latest < 0
      ? tr('replay.valueTextPlayingNone')
      : tr('replay.valueTextPlaying', { time: formatElapsed(model.events[latest]!.t), event: eventAt(now) });
  const nothing = model.events.length === 0 && model.answers.every((a) => a.steps.length === 0);
  const currentListed = listed[latestAt(listed, now)]?.index ?? -1;

  return (
    <Card>
      <section ref={section} aria-labelledby={titleId} data-testid="attempt-replay">
        <CardHeader title={<span id={titleId}>{tr('replay.title')}</span>} description={tr('replay.description')} />
        <CardBody className="flex flex-col gap-4">
          {timeline.unavailable.map((part) => (
            <p key={part} role="note" className="flex items-center gap-2 text-sm text-amber-800">
              <AlertTriangle aria-hidden className="h-4 w-4" /> {tr(`section.unavailable.${part}`)}
            </p>
          ))}
          {nothing ? (
            <p className="text-sm text-muted">{tr('replay.empty')}</p>
          ) : (
            <>
              <ReplayControls
                t={now}
                durationMs={model.durationMs}
                playing={playing}
                speed={speed}
                valueText={valueText}
                events={model.events}
                onTogglePlay={togglePlay}
                onSpeed={setSpeed}
                onScrub={seek}
                onStep={step}
              />
              <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="replay-announcement">
                {announcement}
              </p>
              <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
                <ReplayMoment answers={model.answers} files={model.files} t={now} />
                <ReplayContext
                  integrity={model.integrity}
                  integrityCount={upperBound(model.integrity, now, byTime)}
                  conversation={model.conversation}
                  conversationCount={upperBound(model.conversation, now, byTime)}
                />
              </div>
              <ReplayEvents events={listed} current={currentListed} onJump={jump} />
            </>
          )}
        </CardBody>
      </section>
    </Card>
  );
}
