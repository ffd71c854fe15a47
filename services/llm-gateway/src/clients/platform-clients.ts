// Default import, called at request time: test doubles (msw) patch the module's request function.
import http from 'node:http';
import https from 'node:https';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  InternalAttemptSchema,
  InternalExamSchema,
  type InternalAttempt,
  type InternalExam,
} from '@exam/domain/internal';

/** exam-service's view of an exam, answer keys and the encrypted creator key included. */
export type ExamSource = { findExam(examId: string): Promise<InternalExam | undefined> };
/** results-service's view of an attempt: is it still open? */
export type AttemptSource = { findAttempt(attemptId: string): Promise<InternalAttempt | undefined> };

function unexpected(service: string, status: number): AppError {
  return new AppError(ErrorCode.UNAVAILABLE, `${service} answered ${status}`);
}

const agentOptions = { keepAlive: true, maxSockets: 256, maxFreeSockets: 256, scheduling: 'lifo' as const };
const httpAgent = new http.Agent(agentOptions);
const httpsAgent = new https.Agent(agentOptions);

/**
 * GET of an internal JSON route with the shared internal token, on keep-alive node:http (these calls
 * sit on the chat's path to the first token; fetch cost several times the CPU of a plain request).
 */
export function internalGet(baseUrl: string, internalToken: string, opts: { timeoutMs: number }) {
  return (path: string) =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const url = new URL(path, baseUrl);
      const secure = url.protocol === 'https:';
      const unreachable = (err: Error) =>
        reject(new AppError(ErrorCode.UNAVAILABLE, `Service at ${baseUrl} is unreachable: ${err.message}`));
      const req = (secure ? https : http).request(
        url,
        {
          agent: secure ? httpsAgent : httpAgent,
          headers: { 'x-internal-token': internalToken },
          timeout: opts.timeoutMs,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part: string) => (text += part));
          res.on('error', unreachable);
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
            } catch (err) {
              reject(
                new AppError(
                  ErrorCode.UNAVAILABLE,
                  `Service at ${baseUrl} answered no JSON: ${(err as Error).message}`,
                ),
              );
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
      req.on('error', unreachable);
      req.end();
    });
}

export function httpExamSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): ExamSource {
  const get = internalGet(baseUrl, internalToken, opts);
  return {
    async findExam(examId) {
      const { status, body } = await get(`/internal/exams/${encodeURIComponent(examId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpected('exam-service', status);
      return InternalExamSchema.parse(body);
    },
  };
}

export function httpAttemptSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): AttemptSource {
  const get = internalGet(baseUrl, internalToken, opts);
  return {
    async findAttempt(attemptId) {
      const { status, body } = await get(`/internal/attempts/${encodeURIComponent(attemptId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpected('results-service', status);
      return InternalAttemptSchema.parse(body);
    },
  };
}

/**
 * Keeps each exam for ttlMs in this replica (the chat asks for it on every message). Only settings are
 * cached, never counters; an edit by the creator reaches the chat after at most ttlMs.
 */
export function cachedExamSource(source: ExamSource, opts: { ttlMs: number; now: () => number }): ExamSource {
  if (opts.ttlMs <= 0) return source;
  const entries = new Map<string, { at: number; exam: Promise<InternalExam | undefined> }>();
  return {
    findExam(examId) {
      const now = opts.now();
      const hit = entries.get(examId);
      if (hit && now - hit.at < opts.ttlMs) return hit.exam;
      const exam = source.findExam(examId);
      entries.set(examId, { at: now, exam });
      // A failure is not cached: the next message asks again.
      exam.catch(() => entries.delete(examId));
      if (entries.size > 10_000) entries.delete(entries.keys().next().value as string);
      return exam;
    },
  };
}

/**
 * Remembers that an attempt is open for ttlMs, in a bounded LRU, so a candidate's later messages skip
 * the call to results-service. Only "open" is remembered, and never past the attempt's deadline (then
 * results-service is asked again, since it applies the grace period). The cost: a candidate who submits
 * can still chat for at most ttlMs (default 5 s) on this replica.
 */
export function cachedAttemptSource(
  source: AttemptSource,
  opts: { ttlMs: number; now: () => number; maxEntries?: number },
): AttemptSource {
  if (opts.ttlMs <= 0) return source;
  const maxEntries = opts.maxEntries ?? 10_000;
  const entries = new Map<string, { until: number; attempt: InternalAttempt }>();
  return {
    async findAttempt(attemptId) {
      const now = opts.now();
      const hit = entries.get(attemptId);
      entries.delete(attemptId);
      if (hit && now < hit.until) {
        entries.set(attemptId, hit);
        return hit.attempt;
      }
      const attempt = await source.findAttempt(attemptId);
      if (attempt?.isOpen) {
        const deadline = attempt.deadline ? Date.parse(attempt.deadline) : Infinity;
        entries.set(attemptId, { until: Math.min(opts.now() + opts.ttlMs, deadline), attempt });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return attempt;
    },
  };
}
