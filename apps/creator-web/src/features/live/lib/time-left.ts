import { i18n } from '../../../i18n/index.ts';

/** '1:05:09', '4:07', '0:00': a countdown as a proctor reads it. */
export function formatTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** The server's seconds left, counted down locally since the answer arrived (between two polls). */
export function secondsLeftNow(secondsLeft: number, receivedAtMs: number, nowMs: number): number {
  return Math.max(0, secondsLeft - Math.floor(Math.max(0, nowMs - receivedAtMs) / 1000));
}

/** '12 s ago', '3 min ago', '2 h ago': how long since the candidate's page last talked to the server. */
export function formatAgo(iso: string | null, serverNowIso: string): string {
  if (!iso) return '—';
  const seconds = Math.max(0, Math.round((Date.parse(serverNowIso) - Date.parse(iso)) / 1000));
  if (seconds < 60) return i18n.t('live:ago.seconds', { n: seconds });
  if (seconds < 3600) return i18n.t('live:ago.minutes', { n: Math.floor(seconds / 60) });
  return i18n.t('live:ago.hours', { n: Math.floor(seconds / 3600) });
}
