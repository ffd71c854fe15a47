import { randomUUID } from 'node:crypto';
import type { ExamDatabase } from './db/database.ts';

/** What buildApp needs from the outside world; tests pass their own clock or ids. */
export type Deps = {
  database: ExamDatabase;
  clock: { now(): Date };
  ids: { next(): string };
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
