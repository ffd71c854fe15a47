import type { ErrorCode } from '@exam/domain/errors';
import { ApiError } from '../../../lib/api-client.ts';
import type { TakerDb } from '../../../lib/taker-db.ts';
import { i18n } from '../../../i18n/index.ts';

export type FailureKind = 'retry' | 'closed' | 'drop';

/** What each sender needs: the outbox, whom to send as, and how a failure is reported. */
export type SendContext = {
  db: TakerDb;
  attemptId: string;
  token: string;
  /** The attempt's start (server clock, ms): operations travel with their time since then. */
  startedAtMs: number;
  /** Most operations one save carries (OPERATIONS_PER_SAVE_MAX unless a test says fewer). */
  operationsPerSave?: number | undefined;
  isClosed: () => boolean;
  close: (message: string) => void;
  /** A retryable failure: the page shows 'offline' or 'saving' and the next try is scheduled. */
  noteFailure: (error: unknown) => void;
  /**
   * A kept file's upload is over: `answer` is what the question now holds ('File: {name}' from the
   * server), or '' with `error` when the server refused the file for good.
   */
  onUploadSettled?: ((questionIndex: number, answer: string, error?: string) => void) | undefined;
  /**
   * An answer the server refused because its section is locked or not reached yet (sections.ts): it stays on the
   * screen and on this device, and the page hears why.
   */
  onSectionRefused?: ((questionIndex: number, message: string) => void) | undefined;
};

/** Returns 'retry' for failures worth repeating; anything else cannot succeed later. */
export function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof ApiError)) return 'retry';
  if (error.code === ('ATTEMPT_CLOSED' satisfies ErrorCode)) return 'closed';
  return error.isRetryable ? 'retry' : 'drop';
}

/**
 * A failed answer or file send: a closed attempt is closed here and a retryable failure schedules the
 * queue's next try; 'drop' (the server will never take it) is left to the caller.
 */
export function handleSendFailure(ctx: SendContext, error: unknown): FailureKind {
  const kind = classifyFailure(error);
  if (kind === 'closed') ctx.close(error instanceof ApiError ? error.userMessage : i18n.t('exam:sync.closed'));
  if (kind === 'retry') ctx.noteFailure(error);
  return kind;
}
