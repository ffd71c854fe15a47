import { WindowMessages, type WindowState } from '@exam/domain/cohort';
import { formatWithZone } from '@exam/ui/lib/local-time';
import { ApiError } from '../../../lib/api-client.ts';

/** Where a window stands at an instant (the candidate's clock; the server decides again at start). */
export function windowStateAt(window: { opensAt: string | null; closesAt: string | null }, nowMs: number): WindowState {
  if (window.opensAt && nowMs < Date.parse(window.opensAt)) return 'not-yet-open';
  if (window.closesAt && nowMs >= Date.parse(window.closesAt)) return 'closed';
  return 'open';
}

/** The next instant the state changes, if any: the page re-checks then. */
export function nextChangeAt(
  window: { opensAt: string | null; closesAt: string | null },
  nowMs: number,
): number | null {
  const future = [window.opensAt, window.closesAt]
    .map((iso) => (iso ? Date.parse(iso) : NaN))
    .filter((ms) => Number.isFinite(ms) && ms > nowMs);
  return future.length > 0 ? Math.min(...future) : null;
}

export const opensOnMessage = (opensAt: string) => `This exam opens on ${formatWithZone(opensAt)}.`;
export const closesOnMessage = (closesAt: string) => `This exam closes on ${formatWithZone(closesAt)}.`;

/** What the candidate reads about the window: when it opens, that it closed, or when it closes. */
export function windowMessage(window: { opensAt: string | null; closesAt: string | null }, state: WindowState) {
  if (state === 'not-yet-open' && window.opensAt) return opensOnMessage(window.opensAt);
  if (state === 'closed') return WindowMessages.closed;
  if (window.closesAt) return closesOnMessage(window.closesAt);
  return null;
}

const ISO_IN_OPENS_MESSAGE = /^This exam opens at (\S+)\.$/;

/**
 * A refused start as the candidate reads it. results-service says WindowMessages.notYetOpen(opensAt) with the
 * instant in ISO; the page names it in the candidate's own zone instead (from the message, or the window the
 * briefing showed). The other refusals (closed, no attempts left, …) are shown as the server words them.
 */
export function startRefusalMessage(error: unknown, knownOpensAt: string | null): string {
  if (!(error instanceof ApiError)) return 'Could not start the exam. Please try again.';
  const match = ISO_IN_OPENS_MESSAGE.exec(error.userMessage);
  if (match) {
    const opensAt = [match[1], knownOpensAt].find((iso) => iso && !Number.isNaN(Date.parse(iso)));
    if (opensAt) return opensOnMessage(opensAt);
  }
  return error.userMessage;
}
