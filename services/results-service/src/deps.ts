import { randomUUID } from 'node:crypto';
import type { InternalExam, WorkspaceFile } from '@exam/domain/internal';
import type { ResultsDatabase } from './db/database.ts';
import type { TranscriptSource } from './modules/insights/transcript-source.ts';

/** Where exams come from: exam-service owns them (see adapters/exam-source.ts). */
export type ExamSource = {
  /** The exam with its answer keys, or undefined when exam-service does not know it. */
  getExam(id: string): Promise<InternalExam | undefined>;
};

/** Collects a candidate's coding-workspace files at submit (workspace-orchestrator). */
export type WorkspaceFiles = {
  collect(attemptId: string): Promise<Record<string, WorkspaceFile>>;
};

/** What buildApp needs from the outside world; tests pass their own clock, ids and fakes. */
export type Deps = {
  database: ResultsDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  examSource: ExamSource;
  workspaceFiles: WorkspaceFiles;
  /** llm-gateway's chat transcripts for insights; app.ts wires the HTTP adapter when absent. */
  transcripts?: TranscriptSource;
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
