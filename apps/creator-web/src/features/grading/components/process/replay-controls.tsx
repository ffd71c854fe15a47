import { Button } from '@exam/ui/button';
import { cn } from '@exam/ui/lib/cn';
import { Pause, Play } from 'lucide-react';
import { memo, useId, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEEDS, type Speed } from '../../lib/playback.ts';
import { formatElapsed, type ReplayEvent } from '../../lib/replay-model.ts';

/** Events that get a tick under the scrubber, so the eye finds them on the time line. */
const MARKED = new Set(['paste-blocked', 'paste-allowed', 'focus-lost', 'fullscreen-exit', 'assistant-user', 'submit']);

/** Ticks under the scrubber for the events worth finding by eye (decoration: the events list names them all). */
const EventTicks = memo(function EventTicks({ events, durationMs }: { events: ReplayEvent[]; durationMs: number }) {
  if (durationMs <= 0) return null;
  return (
    <div aria-hidden className="relative h-2">
      {events
        .filter((e) => MARKED.has(e.event.kind))
        .map((e) => (
          <span
            key={e.index}
            className={cn(
              'absolute top-0 h-2 w-0.5 rounded-full',
              e.event.kind === 'assistant-user'
                ? 'bg-violet-600'
                : e.event.kind === 'submit'
                  ? 'bg-ink'
                  : 'bg-amber-600',
            )}
            style={{ left: `${(e.t / durationMs) * 100}%` }}
          />
        ))}
    </div>
  );
});

type Props = {
  t: number;
  durationMs: number;
  playing: boolean;
  speed: Speed;
  /** The scrubber's spoken value: the time and the latest event. */
  valueText: string;
  events: ReplayEvent[];
  onTogglePlay: () => void;
  onSpeed: (speed: Speed) => void;
  /** A pointer (or any other) move of the slider. */
  onScrub: (t: number) => void;
  /** Arrow keys step `count` events; Home/End go to either end. */
  onStep: (count: number | 'start' | 'end') => void;
};

/** Arrow keys step one event, Page Up/Down ten (the WAI-ARIA slider pattern's larger step), Home/End the ends. */
const KEY_STEPS: Record<string, number | 'start' | 'end'> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
  PageUp: 10,
  PageDown: -10,
  Home: 'start',
  End: 'end',
};

export function ReplayControls({
  t: now,
  durationMs,
  playing,
  speed,
  valueText,
  events,
  onTogglePlay,
  onSpeed,
  onScrub,
  onStep,
}: Props) {
  const { t } = useTranslation('process');
  const id = useId();
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const step = KEY_STEPS[event.key];
    if (step === undefined) return;
    event.preventDefault();
    onStep(step);
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={onTogglePlay}>
          {playing ? <Pause aria-hidden className="h-4 w-4" /> : <Play aria-hidden className="h-4 w-4" />}
          {playing ? t('replay.pause') : t('replay.play')}
        </Button>
        <p className="tabular-nums text-sm text-ink">
          <span className="sr-only">{t('replay.elapsed')} </span>
          {t('replay.clock', { time: formatElapsed(now), total: formatElapsed(durationMs) })}
        </p>
        <fieldset className="ml-auto flex flex-wrap items-center gap-1">
          <legend className="sr-only">{t('replay.speed')}</legend>
          <span aria-hidden className="mr-1 text-sm text-muted">
            {t('replay.speed')}
          </span>
          {SPEEDS.map((value) => (
            <label key={value} className="cursor-pointer">
              <input
                type="radio"
                name={`${id}-speed`}
                value={value}
                checked={speed === value}
                onChange={() => onSpeed(value)}
                className="peer sr-only"
              />
              <span className="inline-block rounded-md border border-line px-2 py-1 text-sm text-ink peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-checked:font-semibold peer-checked:text-brand-700 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-500">
                {value === 'skip-idle' ? t('replay.skipIdle') : t('replay.speedTimes', { speed: value })}
              </span>
            </label>
          ))}
        </fieldset>
      </div>
      <div>
        <label htmlFor={`${id}-scrubber`} className="sr-only">
          {t('replay.time')}
        </label>
        <input
          id={`${id}-scrubber`}
          type="range"
          min={0}
          max={durationMs}
          step={1}
          value={now}
          aria-valuetext={valueText}
          onChange={(event) => onScrub(Number(event.target.value))}
          onKeyDown={keyDown}
          className="w-full accent-brand-600"
        />
        <EventTicks events={events} durationMs={durationMs} />
      </div>
    </div>
  );
}
