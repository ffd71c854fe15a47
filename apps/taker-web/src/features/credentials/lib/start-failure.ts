import { RESUME_CODE_FIELD } from '@exam/domain/attempt-binding';
import { ApiError } from '../../../lib/api-client.ts';

/**
 * How the details form shows a refused start: the resume code is asked for, is wrong or waits, or the start
 * itself must wait. `message` is the service's (English) text, translated where it is shown; undefined when
 * the start failed without an answer from the service.
 */
export type StartFailure =
  | { kind: 'code'; message: string; sentCode: boolean }
  | { kind: 'wait'; message: string }
  | { kind: 'other'; message: string | undefined };

export function startFailure(error: unknown, sentCode: boolean): StartFailure {
  if (!(error instanceof ApiError)) return { kind: 'other', message: undefined };
  const aboutCode = error.issues?.some((issue) => issue.path === RESUME_CODE_FIELD) ?? false;
  if (aboutCode && (error.status === 403 || error.status === 429))
    return { kind: 'code', message: error.userMessage, sentCode: sentCode || error.status === 429 };
  if (error.status === 429) return { kind: 'wait', message: error.userMessage };
  return { kind: 'other', message: error.userMessage };
}
