import { WorkspaceFileHistorySchema } from './timeline.ts';
import { z } from 'zod';
import { AiSettingsViewSchema } from './exam-ai.ts';
import { ExamSchema } from './exam.ts';
import { PlantedTurnSchema } from './planted-errors.ts';
import { PublicQuestionSchema, QuestionSchema } from './question.ts';
import { UnitSettingsSchema } from './question-kinds.ts';
import { AuditEventSchema, ExamMemberSchema, SharedRoleSchema } from './roles.ts';

/**
 * Contracts between services (never reachable from a browser: every /internal/* route requires the
 * x-internal-token header, and the web servers do not proxy /internal).
 */

/** GET {EXAM_SERVICE_URL}/internal/exams/{id}: the whole exam with answer keys, for scoring and prompts. */
export const InternalExamSchema = ExamSchema.extend({
  questions: z.array(QuestionSchema),
  aiSettings: AiSettingsViewSchema.extend({
    /** AES-256-GCM ciphertext (see @exam/server-kit/crypto); decrypted only inside llm-gateway. */
    encryptedApiKey: z.string().nullable(),
  }),
  /** Extracted text of each course material, in upload order. */
  materialTexts: z.array(z.object({ name: z.string(), text: z.string() })),
  /**
   * The creators the exam is shared with and their roles (roles.ts; the owner is ownerId). Every service decides a
   * creator's access with `checkAccess(exam, creatorId, capability)` from @exam/domain/roles. Absent from an older
   * exam-service: shared with nobody.
   */
  members: z.array(ExamMemberSchema).default([]),
  /**
   * Days after an attempt's submission (or start, if never submitted) when its data is deleted by the retention job;
   * null keeps it until deleted by hand (the default, said so to the creator). Absent from an older exam-service.
   */
  retentionDays: z.number().int().positive().nullable().default(null),
});
export type InternalExam = z.infer<typeof InternalExamSchema>;

/**
 * GET {EXAM_SERVICE_URL}/internal/workspace-demand?horizonSeconds=…&graceSeconds=…: the live exams with a coding
 * workspace whose availability window opens within the horizon (or opened less than the grace ago), with how many
 * candidates to expect: the larger of the roster's size and the creator's expectedCandidates. workspace-orchestrator
 * starts that many editors ahead of the opening.
 */
export const WorkspaceDemandQuerySchema = z.object({
  horizonSeconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600),
  graceSeconds: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 3600)
    .default(600),
});
export const WorkspaceDemandSchema = z.object({
  demand: z.array(
    z.object({
      examId: z.string(),
      workspaceType: z.string(),
      egress: z.enum(['none', 'registries']),
      opensAt: z.string(),
      candidates: z.number().int().nonnegative(),
    }),
  ),
});
export type WorkspaceDemand = z.infer<typeof WorkspaceDemandSchema>['demand'][number];

/** GET {RESULTS_SERVICE_URL}/internal/attempts/{id}: is the attempt still open? */
export const InternalAttemptSchema = z.object({
  attemptId: z.string(),
  examId: z.string(),
  ownerId: z.string(),
  startedAt: z.string(),
  deadline: z.string().nullable(),
  submittedAt: z.string().nullable(),
  isOpen: z.boolean(),
  /**
   * The questions of the exam as the attempt saw it at start (its snapshot), without answer keys: what the
   * assistant talks about, so an edit to the live exam cannot shift which question the candidate means.
   */
  questions: z.array(PublicQuestionSchema).optional(),
  /**
   * Whether the assistant may answer now (sections.ts): false while the attempt's current section has no
   * assistant, with the message to show; absent from an older results-service, read as available. The questions
   * above are then only those of the sections the candidate has reached.
   */
  assistant: z.object({ available: z.boolean(), reason: z.string().nullable() }).optional(),
  /**
   * The keys of the attempt's calculated questions, computed from the candidate's own values at start
   * (calculated.ts): for the gateway's "stop solutions" guard only, which cannot compute them (the values live
   * in the snapshot). `questionIndex` is the question's index in `questions` above, `key` the accepted value as
   * scoring reads it, with the question's tolerance and units. Never on a candidate route; absent from an older
   * results-service.
   */
  calculatedKeys: z
    .array(
      z.object({
        questionIndex: z.number().int().nonnegative(),
        questionId: z.string(),
        key: z.string(),
        tolerance: z.object({ tolerance: z.number(), mode: z.enum(['absolute', 'relative']) }).nullable(),
        units: UnitSettingsSchema,
      }),
    )
    .optional(),
});
export type InternalAttempt = z.infer<typeof InternalAttemptSchema>;

export const TranscriptMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** The question the candidate had open when sending (for the AI reference % of insights). */
  questionIndex: z.number().int().nullable(),
  isError: z.boolean(),
  /** An assistant reply cut short because the candidate left while it streamed (llm-gateway). */
  isPartial: z.boolean().optional(),
  /**
   * An assistant reply the gateway stopped because it was about to give away the key of the question at
   * withheldQuestionIndex (of the exam's questions); content is only what reached the candidate.
   */
  isWithheld: z.boolean().optional(),
  withheldQuestionIndex: z.number().int().nullable().optional(),
  /**
   * A reply asked to carry a planted error (planted-errors.ts), and whether it did. Internal and for graders:
   * a candidate's own transcript leaves it out until their result is released.
   */
  planted: PlantedTurnSchema.nullable().optional(),
  files: z.array(z.object({ name: z.string(), type: z.string(), size: z.number() })),
  createdAt: z.string(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessageSchema>;

/** GET {LLM_GATEWAY_URL}/internal/exams/{examId}/transcripts: every attempt's conversation. */
export const InternalTranscriptsSchema = z.object({
  transcripts: z.array(z.object({ attemptId: z.string(), messages: z.array(TranscriptMessageSchema) })),
});

/**
 * GET {LLM_GATEWAY_URL}/internal/attempts/{attemptId}/transcript: one attempt's conversation in order, for its
 * timeline (results-service). An attempt that never used the assistant has no messages.
 */
export const InternalAttemptTranscriptSchema = z.object({
  attemptId: z.string(),
  messages: z.array(TranscriptMessageSchema),
});
export type InternalAttemptTranscript = z.infer<typeof InternalAttemptTranscriptSchema>;

/**
 * Why collection left files out (engine/collect-files.ts in workspace-orchestrator): a dependency folder
 * (node_modules, a Python virtual environment…), a build or cache folder, version control, or the per-workspace
 * file limit reached after the files that matter (the question's workspace file, then the candidate's sources).
 */
export const OMISSION_REASONS = ['dependency-folder', 'build-folder', 'version-control', 'file-limit'] as const;
export const OmissionReasonSchema = z.enum(OMISSION_REASONS);
export type OmissionReason = z.infer<typeof OmissionReasonSchema>;

export const WorkspaceFileSchema = z.object({
  content: z.string(),
  lastModified: z.string(),
  size: z.number().int(),
  type: z.string(),
  /**
   * Binary files keep size and type; content is empty. The bytes of the binary kinds a grader opens (a workbook,
   * an image: workspace.ts KEPT_BINARY_TYPES) travel in `contentBase64` when the whole file was read.
   */
  isBinary: z.boolean().default(false),
  contentBase64: z.string().optional(),
  truncated: z.boolean().default(false),
  /**
   * Set on an entry that stands for files left out rather than for one file: its key is the folder they were in,
   * ending in '/' (no file name does), `files` how many, `size` their bytes. The grader sees it in the file list.
   */
  omitted: z.object({ reason: OmissionReasonSchema, files: z.number().int().min(0) }).optional(),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>;

/** A file name no file system allows (NUL), standing in for `__proto__` while zod's record checks the map. */
const PROTO_STAND_IN = '\u0000__proto__';

/**
 * Workspace files by path. zod's record drops a `__proto__` key on purpose (assigning it to a plain object would
 * replace the object's prototype), yet a candidate may name a file so: the key is renamed for the check and
 * defined back as an own property after it, so every file survives every service's parse and serialisation.
 */
export const WorkspaceFilesSchema = z
  .preprocess(
    (value) => {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, '__proto__')) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, file]) => [key === '__proto__' ? PROTO_STAND_IN : key, file]),
      );
    },
    z.record(z.string(), WorkspaceFileSchema),
  )
  .overwrite((files) =>
    Object.hasOwn(files, PROTO_STAND_IN)
      ? Object.fromEntries(
          Object.entries(files).map(([key, file]) => [key === PROTO_STAND_IN ? '__proto__' : key, file]),
        )
      : files,
  );
export type WorkspaceFiles = z.infer<typeof WorkspaceFilesSchema>;

/** POST {WORKSPACE_ORCHESTRATOR_URL}/internal/attempts/{attemptId}/collect: the workspace files at submit. */
export const CollectedFilesSchema = z.object({ files: WorkspaceFilesSchema });

/**
 * The collect request's body: the paths the exam's questions name as their workspace file, collected before
 * any other file (an absent body, from an older results-service, names none).
 */
export const CollectFilesRequestSchema = z
  .object({ priorityFiles: z.array(z.string().min(1).max(500)).max(500).default([]) })
  .default({ priorityFiles: [] });
export type CollectFilesRequest = z.infer<typeof CollectFilesRequestSchema>;

/**
 * GET {EXAM_SERVICE_URL}/internal/creator-sessions/{sid}: the creator whose sign-in session this is, while it
 * is open; 404 once it was signed out, revoked (password change or reset, "sign out everywhere") or expired.
 */
export const InternalCreatorSessionSchema = z.object({ userId: z.string() });
export type InternalCreatorSession = z.infer<typeof InternalCreatorSessionSchema>;

/**
 * GET {WORKSPACE_ORCHESTRATOR_URL}/internal/attempts/{attemptId}/file-history: the workspace files' snapshots,
 * taken on change (debounced) while the attempt's workspace ran, each as the file's text after the change.
 * `capped`: the per-attempt cap was reached and later changes were not kept.
 */
export const InternalWorkspaceHistorySchema = z.object({
  files: z.array(WorkspaceFileHistorySchema),
  capped: z.boolean(),
});
export type InternalWorkspaceHistory = z.infer<typeof InternalWorkspaceHistorySchema>;

/**
 * GET {EXAM_SERVICE_URL}/internal/creators/{id}/exam-grants: the exams shared with a creator (exam_members rows), with
 * the role and release permission of each share. Exams the creator owns are not listed (results-service finds those by
 * its own rows' owner_id). Cross-exam listings (a creator's results, the results dashboard, a candidate's history)
 * include the shared exams whose role allows reading results.
 */
export const ExamGrantsSchema = z.object({
  grants: z.array(
    z.object({
      examId: z.string(),
      role: SharedRoleSchema,
      mayRelease: z.boolean().default(false),
    }),
  ),
});
export type ExamGrants = z.infer<typeof ExamGrantsSchema>;
export type ExamGrantRow = ExamGrants['grants'][number];

/**
 * GET {RESULTS_SERVICE_URL}/internal/exams/{id}/audit-events?before=…&limit=…: results-service's half of the exam's
 * audit log (grades, releases, regrades, deletions, unlocks, extra time, accommodations, announcements), newest first,
 * older than `before` when given. exam-service merges it with its own half for the owner.
 */
export const AuditEventsQuerySchema = z.object({
  before: z.iso.datetime({ offset: true }).optional(),
  /** With `before`: also the events at exactly that instant whose id sorts before this one (ids order one instant's events). */
  beforeId: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const AuditEventListSchema = z.object({ events: z.array(AuditEventSchema) });
export type AuditEventList = z.infer<typeof AuditEventListSchema>;
