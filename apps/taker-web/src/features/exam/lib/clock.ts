/**
 * The countdown follows the server's deadline, never the device's clock: the page measures how far its clock is from
 * the server's, so a reload or a second device shows the same remaining time.
 */

/** Server clock minus client clock, taking the request's midpoint as the moment the server answered. */
export function computeClockOffset(serverNow: string, requestStartedAt: number, responseReceivedAt: number): number {
  const server = Date.parse(serverNow);
  if (Number.isNaN(server)) return 0;
  return server - (requestStartedAt + responseReceivedAt) / 2;
}

export function remainingSeconds(deadline: string, clockOffsetMs: number, clientNow: number): number {
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) return 0;
  return Math.max(0, Math.ceil((end - (clientNow + clockOffsetMs)) / 1000));
}

/** m:ss, minutes unbounded (a 90-minute exam starts at 90:00). */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
