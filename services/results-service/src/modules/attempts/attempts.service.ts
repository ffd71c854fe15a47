import {
  AttemptMessages,
  DEADLINE_GRACE_SECONDS,
  type AttemptState,
  type ProctorEvent,
  type SaveAnswer,
  type SaveAnswerResponse,
  type SubmitResponse,
} from '@exam/domain/attempt';
import type { AiProvider } from '@exam/domain/ai-catalogue';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { PublicExam } from '@exam/domain/public-exam';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../deps.ts';
import { NEEDS_FILES, type AttemptRow, type AttemptsRepository, type SubmitAttemptRow } from './attempts.repository.ts';
import type { SubmissionFollowUp, SubmissionRow } from './attempt-rows.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import { candidateView } from '../../scoring/candidate-view.ts';
import { gradeSubmission } from '../../scoring/score.ts';
import type { RunLanguage } from '@exam/domain/coding';
import {
  answersWithWorkspace,
  needsWorkspaceForTests,
  repositoryRootOf,
  testGradingsOf,
  usesWorkspaceFile,
} from '../../scoring/test-code.ts';
import type { SectionsService } from './sections.service.ts';

const GRACE_MS = DEADLINE_GRACE_SECONDS * 1000;

/** Closed = submitted, or past the deadline plus the grace for saves already in flight (docs/product.md#sitting-an-exam). */
export function closedReason(attempt: Pick<AttemptRow, 'submittedAt' | 'deadline'>, now: Date): string | undefined {
  if (attempt.submittedAt) return AttemptMessages.submitted;
  if (attempt.deadline && now.getTime() > attempt.deadline.getTime() + GRACE_MS) return AttemptMessages.expired;
  return undefined;
}

/**
 * The follow-up a submission opens (docs/product.md#follow-up-questions): the settings the snapshot kept at start,
 * copied to the submission's follow_ups row so a later edit of the exam does not move it. The submission never waits
 * for llm-gateway: the questions are generated when the candidate's page asks for them (modules/follow-up).
 */
function followUpOf(snapshot: ExamSnapshot): SubmissionFollowUp | null {
  const settings = snapshot.followUp;
  if (!settings) return null;
  return {
    count: settings.questions,
    secondsPerQuestion: settings.secondsPerQuestion,
    rubric: settings.rubric.map((level) => ({ label: level.label, points: level.points })),
  };
}

export function createAttemptsService(
  repo: AttemptsRepository,
  deps: Pick<Deps, 'clock' | 'ids' | 'examSource' | 'workspaceFiles'>,
  log: FastifyBaseLogger,
  opts: {
    serverKeys: Partial<Record<AiProvider, boolean>>;
    uploadMaxBytes: number;
    eventsPerAttemptMax: number;
    /** A submission was stored (its process record is pending): wakes the job that computes it. */
    onSubmitted?: () => void;
    /** Where the attempt is among its exam's sections; every answer write asks it first. */
    sections: SectionsService;
    /** The languages the candidate chose for questions that offer several, by question index. */
    chosenLanguages?: (attemptId: string) => Promise<Map<number, RunLanguage>>;
  },
) {
  const { sections } = opts;
  const cutoff = (now: Date) => new Date(now.getTime() - GRACE_MS);

  async function getAttempt(attemptId: string): Promise<AttemptRow> {
    const attempt = await repo.findAttempt(attemptId);
    if (!attempt) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
    return attempt;
  }

  /** The files are kept in the result, or a question graded by tests runs a file of the workspace. */
  const needsFiles = (attempt: SubmitAttemptRow) =>
    attempt.examSnapshot.codingWorkspace.enabled &&
    (attempt.examSnapshot.codingWorkspace.saveFilesInResults ||
      needsWorkspaceForTests(attempt.examSnapshot) ||
      attempt.examSnapshot.questions.some((q) => usesWorkspaceFile(attempt.examSnapshot, q)));

  /** CollectFilesRequestSchema's cap on the files collected first. */
  const MAX_PRIORITY_FILES = 500;

  /** Workspace files are a bonus: an unreachable orchestrator must never block a submission. */
  async function collectFiles(attempt: SubmitAttemptRow): Promise<Record<string, WorkspaceFile>> {
    const attemptId = attempt.id;
    // The files the questions run or grade are collected before any other (a full workspace keeps them).
    const { questions } = attempt.examSnapshot;
    const priorityFiles = questions
      .flatMap((q) => [
        ...(q.workspaceFile ? [q.workspaceFile] : []),
        // An agentic task's starter files, where the candidate's versions of them are graded.
        ...(q.repository?.files ?? []).map((f) => `${repositoryRootOf(attempt.examSnapshot, q.id)}${f.path}`),
      ])
      .slice(0, MAX_PRIORITY_FILES);
    try {
      return await deps.workspaceFiles.collect(attemptId, { priorityFiles });
    } catch (err) {
      log.warn({ err, attemptId }, 'workspace files could not be collected; storing none');
      return {};
    }
  }

  function resultRow(
    locked: SubmitAttemptRow,
    saved: Map<number, string>,
    workspaceFiles: Record<string, WorkspaceFile>,
    languages: ReadonlyMap<number, RunLanguage>,
  ): SubmissionRow {
    const now = deps.clock.now();
    // A question answered in the workspace is graded on its workspace file when the collect returned it.
    const answers = answersWithWorkspace(locked.examSnapshot, saved, workspaceFiles, languages);
    const graded = gradeSubmission(locked.examSnapshot, answers);
    // Time stops at the deadline: a late submit (within grace, or by the finalizer) does not add time.
    const completedAt = locked.deadline && locked.deadline < now ? locked.deadline : now;
    return {
      id: deps.ids.next(),
      attemptId: locked.id,
      examId: locked.examId,
      ownerId: locked.ownerId,
      examTitle: locked.examSnapshot.title,
      userName: locked.name,
      studentId: locked.studentId,
      totalQuestions: graded.grades.length,
      answeredCount: graded.answeredCount,
      score: graded.score,
      maxScore: graded.maxScore,
      status: graded.status,
      pendingCount: graded.pendingCount,
      gradedAt: graded.status === 'pending' ? null : completedAt,
      releasedAt: null,
      timeSpent: Math.max(0, Math.round((completedAt.getTime() - locked.startedAt.getTime()) / 1000)),
      startedAt: locked.startedAt,
      completedAt,
      grades: graded.grades,
      workspaceFiles: locked.examSnapshot.codingWorkspace.saveFilesInResults ? workspaceFiles : {},
      testGradings: testGradingsOf(locked.examSnapshot, answers, workspaceFiles, languages),
      followUp: followUpOf(locked.examSnapshot),
      // How the answers came to be is computed after the commit, off the submit path (a deadline's burst of submits
      // would otherwise replay every answer's operations at once): modules/submissions/process-records.service.ts.
      processPending: true,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * Scores and stores. When the exam keeps workspace files they are collected first, outside any lock.
   * Candidates' submits go the optimistic way (one read, one conditional write); when a save slipped in
   * between, or for the finalizer, the locking transaction decides. `skipLocked` lets finalizers on
   * several replicas pass over attempts another one holds (undefined comes back).
   */
  async function submitAttempt(attemptId: string, skipLocked: boolean) {
    let files: Record<string, WorkspaceFile> | undefined;
    const languages = (await opts.chosenLanguages?.(attemptId)) ?? new Map<number, RunLanguage>();
    if (!skipLocked) {
      const read = await repo.readForSubmit(attemptId);
      if (!read) return undefined;
      if (read.attempt.resultId)
        return {
          resultId: read.attempt.resultId,
          answered: read.answered,
          total: read.total,
          followUp: followUpOf(read.attempt.examSnapshot) !== null,
          created: false,
        };
      if (needsFiles(read.attempt)) files = await collectFiles(read.attempt);
      const row = resultRow(read.attempt, read.saved, files ?? {}, languages);
      if (await repo.commitSubmission(row, read.attempt.answersVersion)) {
        return {
          resultId: row.id,
          answered: row.answeredCount,
          total: row.totalQuestions,
          followUp: row.followUp !== null,
          created: true,
        };
      }
    }
    for (;;) {
      // The row whose snapshot asked for files (its questions name the files collected first).
      const asked: { row?: SubmitAttemptRow } = {};
      const outcome = await repo.submit(attemptId, {
        skipLocked,
        build: (locked, saved) => {
          if (files !== undefined || !needsFiles(locked)) return resultRow(locked, saved, files ?? {}, languages);
          asked.row = locked;
          return NEEDS_FILES;
        },
      });
      if (outcome !== NEEDS_FILES) return outcome;
      if (!asked.row) throw new Error('the submission asked for workspace files without its attempt');
      files = await collectFiles(asked.row);
    }
  }

  return {
    getAttempt,

    async state(attemptId: string): Promise<AttemptState> {
      const attempt = await getAttempt(attemptId);
      const [saved, section] = await Promise.all([
        repo.answersOf(attemptId),
        sections.state(attemptId, attempt.examSnapshot),
      ]);
      return {
        attemptId: attempt.id,
        examId: attempt.examId,
        name: attempt.name,
        studentId: attempt.studentId,
        startedAt: attempt.startedAt.toISOString(),
        deadline: attempt.deadline?.toISOString() ?? null,
        submittedAt: attempt.submittedAt?.toISOString() ?? null,
        resultId: attempt.resultId,
        serverNow: deps.clock.now().toISOString(),
        answers: Object.fromEntries([...saved].map(([index, value]) => [String(index), value])),
        uploadMaxBytes: opts.uploadMaxBytes,
        ...(section ? { section } : {}),
      };
    },

    /**
     * The exam as this attempt shows it to the candidate: its snapshot, stripped like the public view. With
     * sections, only the questions of the sections reached (a prefix of the candidate's list, so every index
     * stays that question's); `questionCount` and `sections` still tell the whole exam.
     */
    async examView(attemptId: string): Promise<PublicExam> {
      const attempt = await getAttempt(attemptId);
      const [live, { reached }] = await Promise.all([
        deps.examSource.findExam(attempt.examId),
        sections.reach(attemptId, attempt.examSnapshot),
      ]);
      const view = candidateView(attempt, live, opts.serverKeys);
      return reached < view.questions.length ? { ...view, questions: view.questions.slice(0, reached) } : view;
    },

    /** How many of the candidate's questions they have reached, and whether the assistant answers in their section. */
    reach: (attempt: Pick<AttemptRow, 'id' | 'examSnapshot'>) => sections.reach(attempt.id, attempt.examSnapshot),

    /** POST /api/attempts/{id}/sections/advance: while the attempt is open (409 with the reason otherwise). */
    async advanceSection(attemptId: string, from: number) {
      const attempt = await getAttempt(attemptId);
      const closed = closedReason(attempt, deps.clock.now());
      if (closed) throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed);
      return sections.advance(attemptId, attempt.examSnapshot, from);
    },

    /**
     * One call when the attempt takes the save (applied, or stale: a newer seq is stored); the slower lookup only
     * explains a refusal. The save's edit operations are stored with it, stale or not (they are the page's log,
     * not the answer's value), and the response says how many the server holds for the question. With sections,
     * a question of a locked section or of one not reached yet is refused first (sections.service.ts).
     */
    async saveAnswer(attemptId: string, questionIndex: number, body: SaveAnswer): Promise<SaveAnswerResponse> {
      await sections.checkWrite(attemptId, questionIndex);
      for (let tries = 1; ; tries++) {
        const now = deps.clock.now();
        const outcome = await repo.saveAnswerIfOpen({
          attemptId,
          questionIndex,
          answer: body.answer,
          seq: body.seq,
          now,
          cutoff: cutoff(now),
          ...(body.operations ? { operations: body.operations } : {}),
        });
        if (outcome) {
          return {
            questionIndex,
            seq: outcome.seq,
            applied: outcome.applied,
            ...(body.operations
              ? { operationsEnd: outcome.operationsEnd, operationsCapped: outcome.operationsCapped }
              : {}),
          };
        }
        const attempt = await getAttempt(attemptId);
        const closed = closedReason(attempt, now);
        if (closed) throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed);
        if (questionIndex >= attempt.questionCount)
          throw new AppError(ErrorCode.VALIDATION, `This exam has no question ${questionIndex + 1}`);
        // Refused, yet open now: the deadline moved in between (an extension). Once more, then as closed.
        if (tries >= 2) throw new AppError(ErrorCode.ATTEMPT_CLOSED, AttemptMessages.expired);
      }
    },

    /** Like answers, events are taken only while the attempt is open; past the per-attempt cap they are dropped. */
    async recordEvents(attemptId: string, list: ProctorEvent[]): Promise<{ recorded: number; dropped: number }> {
      const now = deps.clock.now();
      const outcome = await repo.insertEventsIfOpen({
        attemptId,
        list,
        now,
        cutoff: cutoff(now),
        max: opts.eventsPerAttemptMax,
      });
      if (!outcome.open) {
        const closed = closedReason(await getAttempt(attemptId), now);
        throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed ?? AttemptMessages.submitted);
      }
      return { recorded: outcome.stored, dropped: list.length - outcome.stored };
    },

    async saveFile(
      attemptId: string,
      questionIndex: number,
      file: { fileName: string; mimeType: string; content: Buffer },
    ) {
      const now = deps.clock.now();
      const attempt = await getAttempt(attemptId);
      const closed = closedReason(attempt, now);
      if (closed) throw new AppError(ErrorCode.ATTEMPT_CLOSED, closed);
      const question = attempt.examSnapshot.questions[questionIndex];
      if (!question) throw new AppError(ErrorCode.VALIDATION, `This exam has no question ${questionIndex + 1}`);
      if (question.type !== 'file-upload')
        throw new AppError(ErrorCode.VALIDATION, 'This question does not take a file');
      await sections.checkWrite(attemptId, questionIndex);
      const answer = `File: ${file.fileName}`;
      if (!(await repo.saveFileIfOpen({ attemptId, questionIndex, ...file, answer, now, cutoff: cutoff(now) }))) {
        throw new AppError(
          ErrorCode.ATTEMPT_CLOSED,
          closedReason(await getAttempt(attemptId), now) ?? AttemptMessages.submitted,
        );
      }
      return { questionIndex, fileName: file.fileName, size: file.content.length, answer };
    },

    /** Idempotent: a repeat returns the first submission. Whatever the client sent is never read. */
    async submit(attemptId: string): Promise<SubmitResponse> {
      const submitted = await submitAttempt(attemptId, false);
      if (!submitted) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      if (submitted.created) opts.onSubmitted?.();
      return {
        resultId: submitted.resultId,
        answered: submitted.answered,
        total: submitted.total,
        followUp: submitted.followUp,
      };
    },

    /**
     * Submits every attempt whose deadline plus grace has passed, from its saved answers. Safe to run
     * on several replicas at once: each attempt is claimed under FOR UPDATE SKIP LOCKED and submitted
     * only when it has no result yet. Returns how many results this run created.
     */
    async finalizeExpired(batchSize = 100): Promise<number> {
      let created = 0;
      for (;;) {
        const expired = await repo.listExpired(cutoff(deps.clock.now()), batchSize);
        let progressed = false;
        for (const attempt of expired) {
          const outcome = await submitAttempt(attempt.id, true);
          if (outcome?.created) {
            created++;
            opts.onSubmitted?.();
          }
          if (outcome) progressed = true;
        }
        // Stop when nothing is left or every remaining one is held by another replica.
        if (expired.length < batchSize || !progressed) return created;
      }
    },
  };
}
export type AttemptsService = ReturnType<typeof createAttemptsService>;
