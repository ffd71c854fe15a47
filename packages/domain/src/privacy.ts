import { z } from 'zod';

/**
 * Candidates' data: retention, erasure on request and export (docs/product.md#candidate-data). A candidate is known
 * across services by the exam id, the normalised candidate key (candidate-key.ts) and the ids of their attempts.
 */

/** How long an exam keeps its candidates' attempts after submission (or start, if never submitted). */
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 3650;
export const RetentionDaysSchema = z
  .number()
  .int()
  .min(MIN_RETENTION_DAYS, `At least ${MIN_RETENTION_DAYS} day`)
  .max(MAX_RETENTION_DAYS, `At most ${MAX_RETENTION_DAYS} days`);

/** The services that hold candidates' data, in the order an erasure visits them (results-service last: it knows the attempts). */
export const PRIVACY_SERVICES = ['llm-gateway', 'workspace-orchestrator', 'exam-service', 'results-service'] as const;
export const PrivacyServiceSchema = z.enum(PRIVACY_SERVICES);
export type PrivacyService = z.infer<typeof PrivacyServiceSchema>;

const id = z.string().min(1).max(64);
const key = z.string().min(1).max(400);

/**
 * POST /internal/privacy/erase on every service. With `candidateKey` everything of that candidate in the exam goes
 * (attempts or not: accommodations, roster, mail); without it (the retention job) only what belongs to `attemptIds`.
 */
export const PrivacyEraseRequestSchema = z.object({
  examId: id,
  candidateKey: key.nullable(),
  attemptIds: z.array(id).max(1000),
});
export type PrivacyEraseRequest = z.infer<typeof PrivacyEraseRequestSchema>;

/** Rows deleted per table (and engine volumes removed, as `volumes:engine`). */
export const PrivacyEraseResponseSchema = z.object({ deleted: z.record(z.string(), z.number().int().nonnegative()) });
export type PrivacyEraseResponse = z.infer<typeof PrivacyEraseResponseSchema>;

/** GET /internal/privacy/export on every service; the candidate's attempt ids (comma-separated) from results-service. */
export const PrivacyExportQuerySchema = z.object({
  examId: id,
  candidateKey: key,
  attemptIds: z
    .string()
    .max(65 * 1000)
    .default('')
    .transform((list) => list.split(',').filter((part) => part.length > 0)),
});
export type PrivacyExportQuery = z.infer<typeof PrivacyExportQuerySchema>;

/** A file the candidate uploaded or left in a workspace, carried as base64 inside the export's JSON. */
export const PrivacyExportFileSchema = z.object({ path: z.string().min(1).max(1000), base64: z.string() });
export type PrivacyExportFile = z.infer<typeof PrivacyExportFileSchema>;

/** One service's part of an export: its rows of the candidate, by table, and their files. */
export const PrivacyExportSchema = z.object({
  service: PrivacyServiceSchema,
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  files: z.array(PrivacyExportFileSchema).default([]),
});
export type PrivacyExport = z.infer<typeof PrivacyExportSchema>;

/** results-service: the attempts of one candidate, or those past an exam's retention period. */
export const PrivacyAttemptsQuerySchema = z.object({
  examId: id,
  candidateKey: key.optional(),
  /** ISO instant: attempts submitted (or, never submitted, started) before it. */
  before: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});
export const PrivacyAttemptsSchema = z.object({
  attempts: z.array(z.object({ attemptId: z.string(), candidateKey: z.string() })),
});
export type PrivacyAttempts = z.infer<typeof PrivacyAttemptsSchema>;

/** POST /api/exams/:id/candidates/erase and GET …/candidates/export?candidateId=… */
export const CandidateDataRequestSchema = z.object({ candidateId: z.string().trim().min(1).max(200) });
export type CandidateDataRequest = z.infer<typeof CandidateDataRequestSchema>;

export const ErasureServiceOutcomeSchema = z.object({
  status: z.enum(['pending', 'done', 'failed']),
  deleted: z.record(z.string(), z.number().int()).default({}),
  error: z.string().optional(),
});
export type ErasureServiceOutcome = z.infer<typeof ErasureServiceOutcomeSchema>;

/** The record that an erasure happened (exam-service data_erasures), as the exam's owner reads it. */
export const DataErasureSchema = z.object({
  id: z.string(),
  examId: z.string(),
  reason: z.enum(['request', 'retention']),
  /** SHA-256 (hex) of the normalised candidate key; null for a retention purge. */
  candidateKeyHash: z.string().nullable(),
  /** Attempts the erasure covers. */
  attemptCount: z.number().int().nonnegative(),
  requestedAt: z.string(),
  completedAt: z.string().nullable(),
  /** complete: every service deleted its part; pending: at least one is to be retried by the job. */
  status: z.enum(['complete', 'pending']),
  services: z.record(PrivacyServiceSchema, ErasureServiceOutcomeSchema),
});
export type DataErasure = z.infer<typeof DataErasureSchema>;
export const DataErasureEnvelopeSchema = z.object({ erasure: DataErasureSchema });
export const DataErasureListSchema = z.object({ erasures: z.array(DataErasureSchema) });

/** What README.txt in an export says each file holds. */
export const EXPORT_README_LINES: Record<string, string> = {
  'exam-service.json': 'exam-service: the roster entry, the e-mails queued to or about the candidate, LTI links.',
  'results-service.json':
    'results-service: attempts, answers, edit operations, events, results and grades, grade history, test runs, accommodations, follow-up questions, AI-suggested marks, report links.',
  'llm-gateway.json': 'llm-gateway: assistant conversations and messages, workspace agent calls, audit transcripts.',
  'workspace-orchestrator.json':
    'workspace-orchestrator: workspace sessions and volumes, code runs, the history of workspace files.',
  'files/': 'files/<service>/…: files the candidate uploaded and workspace files collected at submission.',
};
