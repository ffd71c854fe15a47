import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  ExamGrantsSchema,
  InternalAttemptSchema,
  InternalExamSchema,
  WorkspaceDemandSchema,
} from '@exam/domain/internal';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';
import type { ExamDirectory } from '../deps.ts';

/** Reads the exam's workspace settings from exam-service and the attempt's state from results-service. */
export function createHttpExamDirectory(opts: {
  examServiceUrl: string;
  resultsServiceUrl: string;
  internalToken: string;
}): ExamDirectory {
  const exams = createInternalClient(opts.examServiceUrl, opts.internalToken);
  const attempts = createInternalClient(opts.resultsServiceUrl, opts.internalToken);
  async function findExam(examId: string) {
    const { status, body } = await exams(`/internal/exams/${encodeURIComponent(examId)}`);
    if (status === 404) return undefined;
    if (status !== 200) throw unexpectedStatus('exam-service', status, `exam ${examId}`);
    return parseUpstream('exam-service', InternalExamSchema, body, 'an exam');
  }
  async function workspaceExam(examId: string) {
    const exam = await findExam(examId);
    if (!exam) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
    // The key (encrypted) stays behind: only the gateway ever uses it.
    const { enabled, provider, model } = exam.aiSettings;
    return {
      codingWorkspace: exam.codingWorkspace,
      aiSettings: { enabled, provider, model },
      questions: exam.questions,
    };
  }
  async function attemptState(attemptId: string) {
    const { status, body } = await attempts(`/internal/attempts/${encodeURIComponent(attemptId)}`);
    if (status === 404) return { isOpen: false, deadline: null };
    if (status !== 200) throw unexpectedStatus('results-service', status, `attempt ${attemptId}`);
    const { isOpen, deadline } = parseUpstream('results-service', InternalAttemptSchema, body, 'an attempt');
    return { isOpen, deadline };
  }
  return {
    workspaceExam,
    attemptState,
    async workspaceSettings(examId) {
      return (await workspaceExam(examId)).codingWorkspace;
    },
    async workspaceDemand(horizonSeconds, graceSeconds) {
      const query = new URLSearchParams({ horizonSeconds: String(horizonSeconds), graceSeconds: String(graceSeconds) });
      const { status, body } = await exams(`/internal/workspace-demand?${query}`);
      if (status !== 200) throw unexpectedStatus('exam-service', status, 'workspace demand');
      return parseUpstream('exam-service', WorkspaceDemandSchema, body, 'a workspace demand').demand;
    },
    async examAccess(examId) {
      const exam = await findExam(examId);
      return exam && { ownerId: exam.ownerId, members: exam.members };
    },
    async examGrants(creatorId) {
      const { status, body } = await exams(`/internal/creators/${encodeURIComponent(creatorId)}/exam-grants`);
      if (status !== 200) throw unexpectedStatus('exam-service', status, `exam grants of ${creatorId}`);
      return parseUpstream('exam-service', ExamGrantsSchema, body, 'exam grants').grants;
    },
    async isAttemptOpen(attemptId) {
      return (await attemptState(attemptId)).isOpen;
    },
  };
}
