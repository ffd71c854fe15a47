import { AppError, ErrorCode, type Issue } from '@exam/domain/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

function validationIssues(err: FastifyError): Issue[] {
  if (!hasZodFastifySchemaValidationErrors(err)) return [];
  return err.validation.map((v) => {
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    return { path: path || (err.validationContext ?? 'body'), message: v.message ?? 'Invalid value' };
  });
}

/**
 * The multipart parser (@fastify/busboy, under @fastify/multipart) reports a body without a boundary, or one
 * that ends before its closing boundary, as plain errors with no status; reading a file part of such a body
 * ends in Node's premature-close error. Each is the client's fault (or the client went away).
 */
const MALFORMED_MULTIPART = /^(Multipart: Boundary not found|Boundary required)$|unexpected end of multipart data$/i;

/** How much of a refused body is read and thrown away so its sender sees the answer (see drainRefusedBody). */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Fastify answers a body it refuses (too large, unparsable) with `Connection: close` and stops reading. A
 * client still sending then meets a reset, and the kernel drops the answer it had not read yet: a proxy in
 * front (the web servers) sees a broken connection instead of the 413. Reading the rest and discarding it,
 * up to a bound, lets the sender finish and read the answer; past the bound the connection is cut.
 */
function drainRefusedBody(request: FastifyRequest, reply: FastifyReply) {
  if (request.raw.readableEnded) return;
  reply.removeHeader('connection');
  let seen = 0;
  request.raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_MAX_BYTES) request.raw.socket.destroy();
  });
  request.raw.resume();
}

export function isMalformedMultipart(
  err: { message?: unknown; statusCode?: unknown; code?: unknown },
  isMultipart: boolean,
) {
  if (err.statusCode !== undefined || !isMultipart) return false;
  return (
    err.code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    (typeof err.message === 'string' && MALFORMED_MULTIPART.test(err.message))
  );
}

/**
 * One mapping from errors to responses: AppError by its code, schema failures as 400 with the field
 * and reason, Fastify's own client errors (bad JSON, body too large) as they are, anything else as a
 * logged, generic 500.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply
        .status(err.statusCode)
        .send({ error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = validationIssues(err);
      const first = issues[0];
      const message = first ? `${first.path}: ${first.message}` : 'Invalid request';
      return reply.status(400).send({ error: { code: ErrorCode.VALIDATION, message, issues } });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, cause: err.cause }, 'response did not match its schema');
      return reply.status(500).send({ error: { code: ErrorCode.INTERNAL, message: 'Internal server error' } });
    }
    if (isMalformedMultipart(err, /^multipart\//i.test(request.headers['content-type'] ?? ''))) {
      const reason = /premature|unexpected end/i.test(`${err.code} ${err.message}`)
        ? 'it ended before its closing boundary'
        : err.message;
      const message = `The multipart body is malformed: ${reason}`;
      return reply
        .status(400)
        .send({ error: { code: ErrorCode.VALIDATION, message, issues: [{ path: 'body', message: reason }] } });
    }
    const status = err.statusCode ?? 500;
    if (err.code?.startsWith('FST_ERR_CTP_')) drainRefusedBody(request, reply);
    if (status < 500) {
      const code =
        status === 413
          ? ErrorCode.PAYLOAD_TOO_LARGE
          : status === 429
            ? ErrorCode.RATE_LIMITED
            : status === 401
              ? ErrorCode.UNAUTHENTICATED
              : ErrorCode.VALIDATION;
      return reply.status(status).send({ error: { code, message: err.message } });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: { code: ErrorCode.INTERNAL, message: 'Internal server error' } });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      error: { code: ErrorCode.NOT_FOUND, message: `Route ${request.method} ${request.url.split('?')[0]} not found` },
    });
  });
});
