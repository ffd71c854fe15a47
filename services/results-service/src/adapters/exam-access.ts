import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import {
  AdmitResponseSchema,
  ReleaseNoticeResponseSchema,
  RosterEmailsSchema,
  type AdmitRequest,
} from '@exam/domain/roster';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { ExamAccess } from '../deps.ts';

/** exam-service's access rules and roster mails: POST /internal/exams/{id}/admit, …/release-notices, GET …/roster-emails. */
export function createHttpExamAccess(
  baseUrl: string,
  internalToken: string,
  opts: { timeoutMs?: number } = {},
): ExamAccess {
  const request = createInternalClient(baseUrl, internalToken, opts);
  const path = (examId: string, action: string) => `/internal/exams/${encodeURIComponent(examId)}/${action}`;
  return {
    async admit(examId: string, candidate: AdmitRequest) {
      const { status, body } = await request(path(examId, 'admit'), { method: 'POST', body: candidate });
      if (status === 200) return parseUpstream('exam-service', AdmitResponseSchema, body, 'an admission');
      // A refusal is the candidate's answer (which field, why): passed on as exam-service gave it.
      if (status === 403 || status === 404) {
        const { error } = parseUpstream('exam-service', ErrorBodySchema, body, 'a refusal');
        throw new AppError(status === 403 ? ErrorCode.FORBIDDEN : ErrorCode.NOT_FOUND, error.message, error.issues);
      }
      throw unexpectedStatus('exam-service', status, `admission to exam ${examId}`);
    },
    async notifyRelease(examId: string, candidateKeys: string[]) {
      const { status, body } = await request(path(examId, 'release-notices'), {
        method: 'POST',
        body: { candidateKeys },
      });
      if (status !== 200) throw unexpectedStatus('exam-service', status, `release notices of exam ${examId}`);
      return parseUpstream('exam-service', ReleaseNoticeResponseSchema, body, 'release notices').queued;
    },
    async rosterEmails(examId: string) {
      const { status, body } = await request(path(examId, 'roster-emails'));
      if (status !== 200) throw unexpectedStatus('exam-service', status, `the roster e-mails of exam ${examId}`);
      const { emails } = parseUpstream('exam-service', RosterEmailsSchema, body, 'roster e-mails');
      return new Map(emails.map((e) => [e.candidateKey, e.email]));
    },
  };
}
