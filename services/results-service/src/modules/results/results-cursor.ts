import { AppError, ErrorCode } from '@exam/domain/errors';
import { z } from 'zod';

/**
 * GET /api/results keyset cursors: the (completedAt, id) of the last result of a page, so the next
 * page starts strictly after it in the list's order however many results share that instant. Opaque
 * to clients (base64url JSON). Timestamps are stored from JavaScript Dates, so milliseconds are exact.
 */
export type ResultsCursor = { completedAt: Date; id: string };

const CursorSchema = z.tuple([z.iso.datetime(), z.string().min(1).max(64)]);

export function encodeCursor(cursor: ResultsCursor): string {
  return Buffer.from(JSON.stringify([cursor.completedAt.toISOString(), cursor.id])).toString('base64url');
}

export function decodeCursor(value: string): ResultsCursor {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = CursorSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError(ErrorCode.VALIDATION, 'The cursor is not one this list handed out', [
      { path: 'cursor', message: 'Pass the nextCursor of the previous page unchanged' },
    ]);
  }
  return { completedAt: new Date(parsed.data[0]), id: parsed.data[1] };
}
