import type { InternalExam, WorkspaceFile } from '@exam/domain/internal';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { AdmitRequest } from '@exam/domain/roster';
import type { AttemptTranscript, ExamAccess, ExamSource, TranscriptSource, WorkspaceFiles } from '../deps.ts';

/** A clock the test moves by hand. */
export function fakeClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

/** exam-service stand-in: the exams a test put in it. */
export function fakeExamSource(): ExamSource & { put(exam: InternalExam): InternalExam; remove(id: string): void } {
  const exams = new Map<string, InternalExam>();
  return {
    put(exam) {
      exams.set(exam.id, exam);
      return exam;
    },
    remove(id) {
      exams.delete(id);
    },
    findExam: async (id) => exams.get(id),
  };
}

/** workspace-orchestrator stand-in that records the attempts it was asked about. */
export function fakeWorkspaceFiles(
  files: Record<string, WorkspaceFile> | Error = {},
): WorkspaceFiles & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async collect(attemptId) {
      calls.push(attemptId);
      if (files instanceof Error) throw files;
      return files;
    },
  };
}

/** llm-gateway stand-in: transcripts put by the test, or down when `down` is set. */
export function fakeTranscripts() {
  const byExam = new Map<string, AttemptTranscript[]>();
  const source: TranscriptSource & { down: boolean; put(examId: string, t: AttemptTranscript): void } = {
    down: false,
    put(examId, transcript) {
      byExam.set(examId, [...(byExam.get(examId) ?? []), transcript]);
    },
    async listExamTranscripts(examId) {
      if (source.down) throw new Error('connect ECONNREFUSED 127.0.0.1:4003');
      return byExam.get(examId) ?? [];
    },
  };
  return source;
}

/**
 * exam-service's admission stand-in: admits everyone under the name given, unless the test lists a
 * refusal for the exam; records the admissions and release notices it was asked for.
 */
export function fakeExamAccess() {
  const refusals = new Map<string, { message: string; field?: string }>();
  const names = new Map<string, string>();
  const access: ExamAccess & {
    admitted: { examId: string; candidate: AdmitRequest }[];
    released: { examId: string; candidateKeys: string[] }[];
    refuse(examId: string, refusal: { message: string; field?: string }): void;
    /** Admits this candidate key under another name, as a roster would. */
    rename(examId: string, studentId: string, name: string): void;
    down: boolean;
  } = {
    admitted: [],
    released: [],
    down: false,
    refuse: (examId, refusal) => void refusals.set(examId, refusal),
    rename: (examId, studentId, name) => void names.set(`${examId}/${studentId}`, name),
    async admit(examId, candidate) {
      const refusal = refusals.get(examId);
      if (refusal) {
        const issues = refusal.field ? [{ path: refusal.field, message: refusal.message }] : undefined;
        throw new AppError(ErrorCode.FORBIDDEN, refusal.message, issues);
      }
      access.admitted.push({ examId, candidate });
      return { name: names.get(`${examId}/${candidate.studentId}`) ?? candidate.name };
    },
    async notifyRelease(examId, candidateKeys) {
      if (access.down) throw new AppError(ErrorCode.UNAVAILABLE, 'exam-service is unreachable');
      access.released.push({ examId, candidateKeys });
      return candidateKeys.length;
    },
  };
  return access;
}
