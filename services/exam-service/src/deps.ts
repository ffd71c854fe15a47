import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@exam/domain/roles';
import type { Mailer } from '@exam/server-kit/mail';
import type { JWTVerifyGetKey } from 'jose';
import type { PrivacyServices } from './adapters/privacy-services.ts';
import type { ExamDatabase } from './db/database.ts';

/** Which candidates (normalised IDs) have submitted an exam: results-service owns attempts (adapters/submissions.ts). */
export type SubmittedCandidates = { submittedCandidateKeys(examId: string): Promise<string[]> };

/** Moves the deadlines of attempts in progress after an exam's window changed (adapters/attempt-deadlines.ts). */
export type AttemptDeadlines = { recompute(examId: string): Promise<void> };

/** results-service's half of an exam's audit log, newest first (adapters/results-audit.ts). */
export type ResultsAuditEvents = {
  list(
    examId: string,
    page: { before?: string | undefined; beforeId?: string | undefined; limit: number },
  ): Promise<AuditEvent[]>;
};

/** What buildApp needs from the outside world; tests pass their own clock or ids. */
export type Deps = {
  database: ExamDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  /** Outgoing mail; when absent, the transport SMTP_URL names (or the DATA_DIR/outbox folder). */
  mailer?: Mailer;
  /** For the reminders before an exam closes; server.ts wires results-service, tests a fake. */
  submissions?: SubmittedCandidates;
  /** For a window changed while attempts are in progress; server.ts wires results-service, tests a fake. */
  attemptDeadlines?: AttemptDeadlines;
  /** For an exam's audit log; server.ts wires results-service. Absent, the log says that half is missing. */
  resultsAudit?: ResultsAuditEvents;
  /** The key set of an LMS's JWKS URL; when absent, fetched over HTTP (modules/lti/platform-keys.ts). */
  ltiPlatformKeys?: (jwksUrl: string) => JWTVerifyGetKey;
  /** The other services' candidate data (modules/privacy); server.ts wires them over HTTP, tests fakes. */
  privacyServices?: PrivacyServices;
  /** HTTP to LMS services (AGS, NRPS, their token endpoints); the global fetch when absent. */
  fetch?: typeof fetch;
};

export const systemClock = { now: () => new Date() };
export const uuidIds = { next: () => randomUUID() };
