import { AppError, ErrorCode } from '@exam/domain/errors';
import type { FastifyInstance } from 'fastify';

/** Where in a parsed JSON value the first string holding U+0000 sits ('answer', 'questions.2.options.0'). */
export function nulPath(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '\\u0000')].join('.');
    const found = nulPath(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * JSON bodies through Fastify's own parser (prototype-poisoning checks included), refusing any string that
 * holds U+0000: PostgreSQL's text and jsonb cannot store it, so such a body would otherwise reach the
 * database and fail there as a 500. The escape is looked for in the raw text first (one scan), and only
 * a body containing it is walked to name the field.
 */
export function rejectNulInJson(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw.toString();
    parse(request, body, (err, value) => {
      if (err || !body.includes('\\u0000')) return done(err, value);
      const path = nulPath(value);
      if (path === undefined) return done(null, value);
      const reason = 'must not contain the NUL character (U+0000)';
      done(new AppError(ErrorCode.VALIDATION, `${path}: ${reason}`, [{ path, message: reason }]), undefined);
    });
  });
}
