import { randomUUID } from 'node:crypto';
import type { CodeRunner } from '@exam/server-kit/code-runner-client';
import type { CreatorSessionCheck } from '@exam/server-kit/plugins/auth';
import type { InternalAttempt, InternalExam } from '@exam/domain/internal';
import type { BaseUrlGuard } from './adapters/providers/base-url-guard.ts';
import type { ProviderRelay } from './adapters/providers/relay.ts';
import type { LlmClient } from './adapters/providers/types.ts';
import type { GatewayDatabase } from './db/database.ts';

/**
 * exam-service's view of an exam, answer keys and the encrypted creator key included (adapters/platform-clients.ts).
 * `recent`: a candidate's message or an agent's call, which may be answered from this replica's answer of up to
 * EXAM_MESSAGE_MAX_AGE_MS ago; every other read asks exam-service.
 */
export type ExamSource = { findExam(examId: string, how?: { recent?: boolean }): Promise<InternalExam | undefined> };
/** results-service's view of an attempt: is it still open? (adapters/platform-clients.ts) */
export type AttemptSource = { findAttempt(attemptId: string): Promise<InternalAttempt | undefined> };

/** workspace-orchestrator's snapshot of an attempt's workspace, asked for when an agent call starts (never awaited). */
export type WorkspaceSnapshots = { requestSnapshot(attemptId: string): Promise<void> };

/**
 * What buildApp needs from the outside world. server.ts wires the HTTP clients and the providers
 * (adapters/providers/providers.ts); tests pass fakes for the other services and may pass their own clock.
 */
export type Deps = {
  database: GatewayDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  exams: ExamSource;
  attempts: AttemptSource;
  llm: LlmClient;
  /** The agent endpoint's raw relay to the providers (adapters/providers/relay.ts): agents' own wire formats. */
  relay: ProviderRelay;
  /** workspace-orchestrator's workspace snapshots (adapters/workspace-snapshots.ts). */
  workspaceSnapshots: WorkspaceSnapshots;
  /** workspace-orchestrator's code runner (server-kit code-runner-client.ts): the solvability check runs coding replies. */
  codeRunner: CodeRunner;
  /** The SSRF check on a creator's openai-compatible base URL; the same guard pins the adapter's connections. */
  baseUrlGuard: Pick<BaseUrlGuard, 'check'>;
  /** Whether a creator token's session is open: a call to exam-service (server-kit creator-sessions.ts). */
  creatorSessions: CreatorSessionCheck;
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
