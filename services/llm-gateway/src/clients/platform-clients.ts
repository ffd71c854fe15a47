import { AppError, ErrorCode } from '@exam/domain/errors';
import { InternalAttemptSchema, InternalExamSchema, type InternalAttempt, type InternalExam } from '@exam/domain/internal';
import { createInternalClient } from '@exam/server-kit/internal-client';

/** exam-service's view of an exam, answer keys and the encrypted creator key included. */
export type ExamSource = { findExam(examId: string): Promise<InternalExam | undefined> };
/** results-service's view of an attempt: is it still open? */
export type AttemptSource = { findAttempt(attemptId: string): Promise<InternalAttempt | undefined> };

function unexpected(service: string, status: number): AppError {
  return new AppError(ErrorCode.UNAVAILABLE, `${service} answered ${status}`);
}

export function httpExamSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): ExamSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async findExam(examId) {
      const { status, body } = await request<unknown>(`/internal/exams/${encodeURIComponent(examId)}`);
      if (status === 404) return undefined;
      if (status !== 200) throw unexpected('exam-service', status);
      return InternalExamSchema.parse(body);
    },
  };
}

export function httpAttemptSource(baseUrl: string, internalToken: string, opts: { timeoutMs: number }): AttemptSource {
  const request = createInternalClient(baseUrl, internalToken, opts);
  return {
    async findAttempt(attemptId) {
      const { status, body } = await request<unknown>(`/internal/attempts/${encodeURIComponent(attemptId)}`);
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
