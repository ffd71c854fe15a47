import { randomUUID } from 'node:crypto';
import type { AttemptSource, ExamSource } from './clients/platform-clients.ts';
import type { GatewayDatabase } from './db/database.ts';
import type { LlmClient } from './providers/types.ts';

/** What buildApp needs from the outside world; tests pass fakes for the other services and may pass their own clock. */
export type Deps = {
  database: GatewayDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  exams: ExamSource;
  attempts: AttemptSource;
  llm: LlmClient;
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
