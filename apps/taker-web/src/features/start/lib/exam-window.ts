import type { WindowState } from '@exam/domain/cohort';
import { formatDateTimeWithZone } from '../../../i18n/format.ts';
import { i18n } from '../../../i18n/index.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
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

// In the page's language at the moment of the call: components call these while rendering, so a language
// switch (which re-renders every component that uses a translation) rewrites them.
export const opensOnMessage = (opensAt: string) =>
  i18n.t('start:window.opensOn', { when: formatDateTimeWithZone(opensAt) });
export const closesOnMessage = (closesAt: string) =>
  i18n.t('start:window.closesOn', { when: formatDateTimeWithZone(closesAt) });

/** What the candidate reads about the window: when it opens, that it closed, or when it closes. */
export function windowMessage(window: { opensAt: string | null; closesAt: string | null }, state: WindowState) {
  if (state === 'not-yet-open' && window.opensAt) return opensOnMessage(window.opensAt);
  if (state === 'closed') return i18n.t('common:server.windowClosed');
  if (window.closesAt) return closesOnMessage(window.closesAt);
  return null;
}

const ISO_IN_OPENS_MESSAGE = /^This exam opens at (\S+)\.$/;

/**
 * A refused start as the candidate reads it. results-service says WindowMessages.notYetOpen(opensAt) with the
 * instant in ISO; the page names it in the candidate's own zone instead (from the message, or the window the
 * briefing showed). The other refusals (closed, no attempts left, …) are the server's, in the page's language.
 */
export function startRefusalMessage(error: unknown, knownOpensAt: string | null): string {
  if (!(error instanceof ApiError)) return i18n.t('start:briefing.startFailed');
  const match = ISO_IN_OPENS_MESSAGE.exec(error.userMessage);
  if (match) {
    const opensAt = [match[1], knownOpensAt].find((iso) => iso && !Number.isNaN(Date.parse(iso)));
    if (opensAt) return opensOnMessage(opensAt);
  }
  return translateServerMessage(error.userMessage);
}
