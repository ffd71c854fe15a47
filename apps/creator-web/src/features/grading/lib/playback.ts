import { upperBound } from './replay-model.ts';

/** Playback speeds, and "skip idle": real time while something happens, jumping over the pauses. */
export const SPEEDS = ['1', '2', '4', '8', '16', 'skip-idle'] as const;
export type Speed = (typeof SPEEDS)[number];

/** Asks the player to show a moment (ms since the start); `n` changes with every request, even to the same moment. */
export type ReplayRequest = { t: number; n: number };

/** "Skip idle" jumps over a pause longer than this... */
export const IDLE_GAP_MS = 3000;
/** ...to this long before what ends it, so the change is seen happening. */
export const IDLE_LEAD_MS = 500;
/** How often a playing replay moves on (ten frames a second is smooth enough for text and cheap to render). */
export const TICK_MS = 100;
/** A tick never moves on more than this much real time (a tab put to sleep does not leap on waking). */
export const MAX_TICK_ELAPSED_MS = 1000;

/** Where playback is after `elapsedMs` of real time at `speed` from `t`, never past `durationMs`. */
export function advance(
  t: number,
  elapsedMs: number,
  speed: Speed,
  activity: ReadonlyArray<number>,
  durationMs: number,
): number {
  const elapsed = Math.min(Math.max(0, elapsedMs), MAX_TICK_ELAPSED_MS);
  let next = t + elapsed * (speed === 'skip-idle' ? 1 : Number(speed));
  if (speed === 'skip-idle') {
    const upcoming = activity[upperBound(activity, next, (n) => n)] ?? durationMs;
    if (upcoming - next > IDLE_GAP_MS) next = upcoming - IDLE_LEAD_MS;
  }
  return Math.min(durationMs, Math.round(next));
}
