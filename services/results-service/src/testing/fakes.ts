import type { InternalExam, WorkspaceFile } from '@exam/domain/internal';
import type { AttemptTranscript, ExamSource, TranscriptSource, WorkspaceFiles } from '../deps.ts';

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
