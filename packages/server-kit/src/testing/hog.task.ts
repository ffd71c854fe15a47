import { AppError, ErrorCode } from '@exam/domain/errors';
import { threadId } from 'node:worker_threads';

/** A worker-thread task for the isolated-worker tests: misbehaves as asked. */
export type HogInput = { mode: 'echo' | 'heap' | 'spin' | 'refuse' | 'throw'; value?: string };

export default function hogTask({ mode, value }: HogInput): { value?: string; threadId: number } {
  if (mode === 'heap') {
    const kept: unknown[] = [];
    for (;;) kept.push(Array.from({ length: 10_000 }, (_, i) => ({ i })));
  }
  if (mode === 'spin') for (;;);
  if (mode === 'refuse') throw new AppError(ErrorCode.VALIDATION, 'No.', [{ path: 'files', message: 'No.' }]);
  if (mode === 'throw') throw new Error('internal detail');
  return { value, threadId };
}
