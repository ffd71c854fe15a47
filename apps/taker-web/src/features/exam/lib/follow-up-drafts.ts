/**
 * A follow-up answer as typed, kept in localStorage until the server has acknowledged its seq, so a reload, a
 * crash or a lost connection loses nothing (docs/product.md "Follow-up questions"). One entry per attempt and
 * question; the server's copy wins once it holds the same seq or a later one.
 */
export type FollowUpDraft = { answer: string; seq: number };

const PREFIX = 'exam-taker:follow-up:';
const keyOf = (attemptId: string, n: number) => `${PREFIX}${attemptId}:${n}`;

/** Storage can be refused (private modes, quota): the draft then lives only in the page and on the server. */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function findDraft(attemptId: string, n: number): FollowUpDraft | undefined {
  try {
    const value = JSON.parse(storage()?.getItem(keyOf(attemptId, n)) ?? 'null') as Partial<FollowUpDraft> | null;
    return typeof value?.answer === 'string' && typeof value.seq === 'number'
      ? { answer: value.answer, seq: value.seq }
      : undefined;
  } catch {
    return undefined;
  }
}

export function keepDraft(attemptId: string, n: number, draft: FollowUpDraft): void {
  try {
    storage()?.setItem(keyOf(attemptId, n), JSON.stringify(draft));
  } catch (error) {
    console.warn('The follow-up draft could not be kept on this device', error);
  }
}

/** The server holds `seq` (or the question is closed): a draft at or below it is dropped, a newer one kept. */
export function forgetDraft(attemptId: string, n: number, upToSeq = Infinity): void {
  const draft = findDraft(attemptId, n);
  if (draft && draft.seq <= upToSeq) storage()?.removeItem(keyOf(attemptId, n));
}

/** What the page starts from: this device's draft when it is newer than the server's, else the server's. */
export function initialDraft(
  attemptId: string,
  n: number,
  server: FollowUpDraft,
): FollowUpDraft & { pending: boolean } {
  const local = findDraft(attemptId, n);
  if (local && local.seq > server.seq) return { ...local, pending: true };
  if (local) forgetDraft(attemptId, n);
  return { ...server, pending: false };
}
