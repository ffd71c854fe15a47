import type { CollaborationSuggestionReply, CollaborationSuggestionRequest } from '@exam/domain/collaboration';
import { randomUUID } from 'node:crypto';
import type { CodeRunner, RunnerAnswer } from '@exam/server-kit/code-runner-client';
import type { CreatorSessionCheck } from '@exam/server-kit/plugins/auth';
import type { RedisConnection } from '@exam/server-kit/redis';
import type {
  CollectFilesRequest,
  ExamGrantRow,
  InternalExam,
  InternalWorkspaceHistory,
  TranscriptMessage,
  WorkspaceFile,
} from '@exam/domain/internal';
import type { GenerateFollowUpsRequest, GenerateFollowUpsResponse } from '@exam/domain/follow-up';
import type { LtiScoreOutcome, LtiScoreRequest } from '@exam/domain/lti-ags';
import type {
  InternalSuggestReply,
  InternalSuggestRequest,
  SuggestionAvailability,
} from '@exam/domain/question-grading';
import type { AdmitRequest, AdmitResponse } from '@exam/domain/roster';
import type { AgentCall } from '@exam/domain/workspace-agents';
import type { ResultsDatabase } from './db/database.ts';

/** Where exams come from: exam-service owns them (see adapters/exam-source.ts). */
export type ExamSource = {
  /** The exam with its answer keys, or undefined when exam-service does not know it. */
  findExam(id: string): Promise<InternalExam | undefined>;
};

/** The exams shared with a creator, for cross-exam listings (see adapters/exam-grants.ts). */
export type ExamGrantsSource = {
  listGrants(creatorId: string): Promise<ExamGrantRow[]>;
};

/** exam-service's access rules and roster mails (see adapters/exam-access.ts). */
export type ExamAccess = {
  /** The name to record the new attempt under; throws FORBIDDEN (with the field) when the candidate may not start. */
  admit(examId: string, candidate: AdmitRequest): Promise<AdmitResponse>;
  /** Queues result-release notices to these candidates' roster entries; answers how many were queued. */
  notifyRelease(examId: string, candidateKeys: string[]): Promise<number>;
  /** The roster's e-mails by candidate key (the gradebook's Email column). */
  rosterEmails(examId: string): Promise<Map<string, string>>;
};

/**
 * Publishes a score to an LMS line item: exam-service holds the platform registrations and the tool's keys
 * (see adapters/lti-scores.ts). Never throws for the LMS's answer; an exam-service that cannot be reached throws.
 */
export type LtiScores = {
  publish(score: LtiScoreRequest): Promise<LtiScoreOutcome>;
};

/** Collects a candidate's coding-workspace files at submit (workspace-orchestrator). */
export type WorkspaceFiles = {
  /** `priorityFiles`: the questions' workspace files, collected before any other file. */
  collect(attemptId: string, request?: CollectFilesRequest): Promise<Record<string, WorkspaceFile>>;
};

/** workspace-orchestrator's code runner (server-kit code-runner-client.ts). */
export type { CodeRunner, RunnerAnswer };

export type AttemptTranscript = { attemptId: string; messages: TranscriptMessage[] };

/** The candidates' conversations with the AI assistant (llm-gateway owns them; see adapters/transcript-source.ts). */
export type TranscriptSource = {
  listExamTranscripts(examId: string): Promise<AttemptTranscript[]>;
};

/** One attempt's conversation with the assistant, for its timeline (adapters/attempt-transcript.ts). */
export type AttemptTranscripts = {
  /** The attempt's messages in order; empty when it never used the assistant. */
  findAttemptTranscript(attemptId: string): Promise<TranscriptMessage[]>;
  /** The calls the workspace's coding agent made through the gateway (transcript kind `agent`), in order. */
  findAgentCalls(attemptId: string): Promise<AgentCall[]>;
};

/** The workspace files' snapshots while the attempt ran, for its timeline (adapters/workspace-history.ts). */
export type WorkspaceHistory = {
  fileHistory(attemptId: string): Promise<InternalWorkspaceHistory>;
};

/**
 * llm-gateway's AI-suggested marks (adapters/grading-suggestions.ts). Every failure is an AppError: CONFLICT
 * (no provider configured), RATE_LIMITED (the exam's grading budget is spent), UPSTREAM (the provider failed),
 * UNAVAILABLE (the gateway cannot be reached).
 */
export type GradingSuggester = {
  /** The samples of one answer's suggestion; the request carries the question and the answer's text only. */
  suggest(examId: string, request: InternalSuggestRequest): Promise<InternalSuggestReply>;
  /** Whether suggestions can be asked for the exam, and what its grading budget has left. */
  availability(examId: string): Promise<SuggestionAvailability>;
  /**
   * Suggested framing and verification levels of one candidate's conversation (the collaboration profile); the
   * request carries the questions, the conversation (the candidate masked) and the process figures only. Spends the
   * exam's grading budget, with the same errors (UNAVAILABLE says CollaborationMessages.gatewayDown).
   */
  suggestCollaboration(examId: string, request: CollaborationSuggestionRequest): Promise<CollaborationSuggestionReply>;
};

/**
 * llm-gateway's follow-up questions after submit (adapters/follow-up-questions.ts). Every failure is an AppError:
 * CONFLICT (no usable assistant), RATE_LIMITED (the exam's AI budget is spent), UPSTREAM (the provider failed),
 * UNAVAILABLE (the gateway cannot be reached or timed out).
 */
export type FollowUpQuestions = {
  generate(attemptId: string, request: GenerateFollowUpsRequest): Promise<GenerateFollowUpsResponse>;
};

/** What buildApp needs from the outside world; server.ts wires the HTTP adapters, tests pass fakes. */
export type Deps = {
  database: ResultsDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  examSource: ExamSource;
  /** The exams other creators shared with a creator (exam-service). */
  examGrants: ExamGrantsSource;
  examAccess: ExamAccess;
  /** LTI score passback through exam-service. */
  ltiScores: LtiScores;
  workspaceFiles: WorkspaceFiles;
  /** Runs candidates' code against a coding question's tests (workspace-orchestrator). */
  codeRunner: CodeRunner;
  /** llm-gateway's chat transcripts, for insights. */
  transcripts: TranscriptSource;
  /** llm-gateway's transcript of one attempt, for the attempt's timeline. */
  attemptTranscripts: AttemptTranscripts;
  /** workspace-orchestrator's file history of one attempt, for the attempt's timeline. */
  workspaceHistory: WorkspaceHistory;
  /** llm-gateway's AI-suggested marks, for grading by question. */
  gradingSuggester: GradingSuggester;
  /** llm-gateway's follow-up questions about a submitted attempt's own answers. */
  followUpQuestions: FollowUpQuestions;
  /** Whether a creator token's session is open: a call to exam-service (server-kit creator-sessions.ts). */
  creatorSessions: CreatorSessionCheck;
  /**
   * REDIS_URL's connection: attempt-start counters and presence live there (app.ts picks the stores), each
   * falling back to the database while Redis fails. Absent, both live in the database only.
   */
  redis?: RedisConnection | undefined;
};

/**
 * Fixed-window counters every replica shares: start_counters in the database, or Redis
 * (modules/attempts/start-counters.redis.ts).
 */
export type StartCounters = {
  /** Counts one in the bucket's window (from `windowStart`, `windowMs` long); answers the window's count so far. */
  count(bucket: string, windowStart: Date, windowMs: number): Promise<number>;
  /** The window's count so far, counting nothing (0 when none). */
  peek(bucket: string, windowStart: Date, windowMs: number): Promise<number>;
  /** Drops windows that ended before `before`, where the store does not expire them itself. */
  prune(before: Date): Promise<void>;
};

/** When each candidate's page was last seen, for the live view: attempt_presence, or Redis (modules/live/presence.ts). */
export type PresenceStore = {
  /** Records the attempt as seen at `now` unless it was seen less than `minGapMs` before. */
  touch(attemptId: string, now: Date, minGapMs: number): Promise<void>;
  find(attemptId: string): Promise<Date | undefined>;
  /** The live view's rows with `lastSeenAt` as this store knows it (the database's come with the rows). */
  withLastSeen<R extends { id: string; lastSeenAt: Date | null }>(rows: R[]): Promise<R[]>;
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
