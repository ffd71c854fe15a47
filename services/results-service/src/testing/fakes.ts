import { randomUUID } from 'node:crypto';
import type { RunReport, RunRequest } from '@exam/domain/coding';
import type { InternalExam, WorkspaceFile } from '@exam/domain/internal';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { LtiScoreOutcome, LtiScoreRequest } from '@exam/domain/lti-ags';
import { ACCESS_CODE_FIELD, RosterMessages, type AdmitRequest } from '@exam/domain/roster';
import type {
  AttemptTranscript,
  CodeRunner,
  ExamAccess,
  ExamGrantsSource,
  ExamSource,
  LtiScores,
  TranscriptSource,
  WorkspaceFiles,
} from '../deps.ts';

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
export function fakeExamSource(): ExamSource &
  ExamGrantsSource & { put(exam: InternalExam): InternalExam; remove(id: string): void } {
  const exams = new Map<string, InternalExam>();
  return {
    // exam-service's GET /internal/creators/{id}/exam-grants, read from the members of the exams put here.
    listGrants: async (creatorId) =>
      [...exams.values()].flatMap((exam) =>
        exam.members
          .filter((m) => m.creatorId === creatorId)
          .map((m) => ({ examId: exam.id, role: m.role, mayRelease: m.mayRelease })),
      ),
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
  const accessCodes = new Map<string, string>();
  const names = new Map<string, string>();
  const emails = new Map<string, Array<[string, string]>>();
  const access: ExamAccess & {
    admitted: { examId: string; candidate: AdmitRequest }[];
    released: { examId: string; candidateKeys: string[] }[];
    refuse(examId: string, refusal: { message: string; field?: string }): void;
    /** Admits only starts that give this access code, as exam-service does for an exam with access `code`. */
    requireCode(examId: string, code: string): void;
    /** Admits this candidate key under another name, as a roster would. */
    rename(examId: string, studentId: string, name: string): void;
    /** Gives a roster candidate (by candidate key) an e-mail, as exam-service's roster holds it. */
    setEmail(examId: string, candidateKey: string, email: string): void;
    down: boolean;
  } = {
    admitted: [],
    released: [],
    down: false,
    refuse: (examId, refusal) => void refusals.set(examId, refusal),
    requireCode: (examId, code) => void accessCodes.set(examId, code),
    rename: (examId, studentId, name) => void names.set(`${examId}/${studentId}`, name),
    setEmail: (examId, candidateKey, email) =>
      void emails.set(examId, [...(emails.get(examId) ?? []), [candidateKey, email]]),
    async admit(examId, candidate) {
      const refusal = refusals.get(examId);
      if (refusal) {
        const issues = refusal.field ? [{ path: refusal.field, message: refusal.message }] : undefined;
        throw new AppError(ErrorCode.FORBIDDEN, refusal.message, issues);
      }
      const code = accessCodes.get(examId);
      if (code !== undefined && candidate.accessCode?.trim() !== code) {
        const message = candidate.accessCode?.trim() ? RosterMessages.wrongCode : RosterMessages.codeRequired;
        throw new AppError(ErrorCode.FORBIDDEN, message, [{ path: ACCESS_CODE_FIELD, message }]);
      }
      access.admitted.push({ examId, candidate });
      return { name: names.get(`${examId}/${candidate.studentId}`) ?? candidate.name };
    },
    async notifyRelease(examId, candidateKeys) {
      if (access.down) throw new AppError(ErrorCode.UNAVAILABLE, 'exam-service is unreachable');
      access.released.push({ examId, candidateKeys });
      return candidateKeys.length;
    },
    async rosterEmails(examId) {
      if (access.down) throw new AppError(ErrorCode.UNAVAILABLE, 'exam-service is unreachable');
      return new Map(emails.get(examId) ?? []);
    },
  };
  return access;
}

/**
 * workspace-orchestrator's runner stand-in. A test passes when the code (or a file of an agentic task's repository)
 * says so: the line `pass <testId>` or `pass all`. Runs finish at once unless `hold` is set (then `finish()` completes them); `unavailable` makes
 * every new run refused with that reason. Records every request, so a test can see what reached the runner.
 */
export function fakeCodeRunner() {
  const reports = new Map<string, RunReport>();
  const pending = new Map<string, RunRequest>();
  let counter = 0;
  const prefix = randomUUID().slice(0, 8);
  const judge = (request: RunRequest): RunReport['verdicts'] =>
    request.tests.map((t) => {
      // An agentic task's program is its source file and the repository laid out under it.
      const program = [request.code, ...(request.files ?? []).map((f) => f.content)].join('\n');
      const passed = program.includes(`pass ${t.id}`) || program.includes('pass all');
      return {
        testId: t.id,
        name: t.name,
        visible: t.visible,
        outcome: passed ? 'passed' : 'failed',
        points: passed ? t.points : 0,
        maxPoints: t.points,
        timeMs: 5,
        exitCode: 0,
        stdin: t.stdin,
        expected: t.expected,
        // `echo …` prints its input (the console's custom input), as the orchestrator's fake engine does.
        actual: request.code.startsWith('echo') ? t.stdin : passed ? t.expected : 'something else',
        stderr: '',
      };
    });
  const complete = (runId: string, request: RunRequest) => {
    const verdicts = judge(request);
    const report = reports.get(runId)!;
    reports.set(runId, {
      ...report,
      state: 'done',
      verdicts,
      points: verdicts.filter((v) => v.outcome === 'passed').reduce((s, v) => s + v.maxPoints, 0),
      finishedAt: new Date().toISOString(),
    });
  };
  const runner: CodeRunner & {
    requests: RunRequest[];
    hold: boolean;
    unavailable: string | undefined;
    down: boolean;
    /** Milliseconds each enqueue takes (to hold a job's transaction open while another runs). */
    delayMs: number;
    /** Runs inside each enqueue before it answers (what the orchestrator does meanwhile, e.g. write to the database). */
    beforeEnqueue: (() => Promise<void>) | undefined;
    finish(): void;
    /** Ends a run with this state instead of verdicts (the runner failing). */
    fail(runId: string, state: 'error' | 'unavailable', reason: string): void;
  } = {
    requests: [],
    hold: false,
    unavailable: undefined,
    down: false,
    delayMs: 0,
    beforeEnqueue: undefined,
    async enqueue(request) {
      if (runner.delayMs) await new Promise((resolve) => setTimeout(resolve, runner.delayMs));
      await runner.beforeEnqueue?.();
      if (runner.unavailable !== undefined) return { ok: false, reason: runner.unavailable };
      if (runner.down) throw new AppError(ErrorCode.UPSTREAM, 'workspace-orchestrator answered 500 for a new run');
      runner.requests.push(request);
      // Unique across apps: the suites share one database, where test_runs keys runs by their id.
      const runId = `run-${prefix}-${++counter}`;
      const maxPoints = request.tests.reduce((s, t) => s + t.points, 0);
      const report: RunReport = {
        runId,
        state: 'queued',
        verdicts: [],
        points: 0,
        maxPoints,
        queuedAt: new Date().toISOString(),
        finishedAt: null,
      };
      reports.set(runId, report);
      if (runner.hold) pending.set(runId, request);
      else complete(runId, request);
      return { ok: true, report };
    },
    async get(runId) {
      if (runner.down) throw new AppError(ErrorCode.UNAVAILABLE, 'workspace-orchestrator is unreachable');
      return reports.get(runId);
    },
    async lookup(ids) {
      if (runner.down) throw new AppError(ErrorCode.UNAVAILABLE, 'workspace-orchestrator is unreachable');
      return ids.flatMap((id) => reports.get(id) ?? []);
    },
    finish() {
      for (const [runId, request] of pending) complete(runId, request);
      pending.clear();
    },
    fail(runId, state, reason) {
      pending.delete(runId);
      const report = reports.get(runId);
      if (report) reports.set(runId, { ...report, state, reason, finishedAt: new Date().toISOString() });
    },
  };
  return runner;
}

/**
 * exam-service's LTI score publisher stand-in: records every score asked for and answers with the queued
 * outcomes (then 'sent'); an Error queued is thrown, as an exam-service that cannot be reached would.
 */
export function fakeLtiScores() {
  const outcomes: Array<LtiScoreOutcome | Error> = [];
  const scores: LtiScores & { sent: LtiScoreRequest[]; answer(...next: Array<LtiScoreOutcome | Error>): void } = {
    sent: [],
    answer(...next) {
      outcomes.push(...next);
    },
    async publish(score) {
      scores.sent.push(score);
      const next = outcomes.shift() ?? { outcome: 'sent' };
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return scores;
}
