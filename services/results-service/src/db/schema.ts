import type { JudgedDimension } from '@exam/domain/collaboration';
import type { RepositoryFile } from '@exam/domain/coding';
import type { WorkspaceFile } from '@exam/domain/internal';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { KeepGrade } from '@exam/domain/cohort';
import type { AttemptLtiLink, LmsSyncState } from '@exam/domain/lti-ags';
import type { ResultStatus } from '@exam/domain/grading';
import type { GradeHistoryEntry } from '@exam/domain/result';
import type { CompactOperation } from '@exam/domain/answer-operations';
import type { ProcessRecord } from '@exam/domain/timeline';
import type { AuditAction } from '@exam/domain/roles';
import type { StoredGrade } from '../scoring/score.ts';
import { parseSnapshot, type ExamSnapshot } from '../scoring/snapshot.ts';

/** Everything results-service owns lives in its own PostgreSQL schema. */
export const resultsServiceSchema = pgSchema('results_service');

/** postgres.js hands back a Buffer and PGlite a Uint8Array; callers always get a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The exam snapshot, parsed on read: snapshots stored before a field of the exam existed come back with
 * its default (docs/product.md#sitting-an-exam), so no caller ever sees a question without points.
 */
const snapshotJson = customType<{ data: ExamSnapshot; driverData: unknown }>({
  dataType: () => 'jsonb',
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => parseSnapshot(typeof value === 'string' ? JSON.parse(value) : value),
});

/** Points with hundredths exact (question points have at most two decimals; totals are summed in hundredths). */
const points = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

const at = (name: string) => timestamp(name, { withTimezone: true });

export const attempts = resultsServiceSchema.table(
  'attempts',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    /** As the candidate typed it, for display. */
    studentId: text('student_id').notNull(),
    /**
     * What identifies the candidate within the exam: candidateKey(studentId) from @exam/domain/candidate-key.
     * Rows that collided when the key was introduced carry a suffix (see the migration add_attempt_binding).
     */
    candidateKey: text('candidate_key').notNull(),
    /** The candidate's 1st, 2nd… attempt at the exam (docs/product.md#windows-attempts-and-accommodations). */
    attemptNo: integer('attempt_no').notNull().default(1),
    /** SHA-256 of each resume secret handed to a browser that may resume silently (one per device). */
    resumeSecretHashes: text('resume_secret_hashes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** SHA-256 of the resume code; null for attempts started before codes existed (only an unlock resumes them). */
    resumeCodeHash: text('resume_code_hash'),
    /**
     * Wrong resume and unlock codes since the last right one, from any client: shown in the live view. It never
     * blocks the attempt (a storm would then lock the holder of the right code out); clients are limited instead.
     */
    resumeFailures: integer('resume_failures').notNull().default(0),
    /** No longer set: wrong codes are limited per client (start-limits.service.ts). Kept for rows written before. */
    resumeBlockedUntil: at('resume_blocked_until'),
    /** Until when the examiner's unlock code (unlockCodeHash) may be used, once. */
    unlockedUntil: at('unlocked_until'),
    /**
     * HMAC of the one-time code the examiner's unlock created and the live view showed, to be handed to this
     * candidate: an unlock resumes only for whoever types it, never for the next start with the candidate ID.
     */
    unlockCodeHash: text('unlock_code_hash'),
    startedAt: at('started_at').notNull(),
    /**
     * The effective deadline: start + the candidate's duration (override included), never after their window
     * closes; null without a timer or a close. An override changed during the attempt rewrites it.
     */
    deadline: at('deadline'),
    submittedAt: at('submitted_at'),
    resultId: text('result_id'),
    /** The exam as it was at start (answer keys included), so later edits never change this attempt's grading. */
    examSnapshot: snapshotJson('exam_snapshot').notNull(),
    /** Copied out of the snapshot so the answer upsert can bound-check without reading the JSON. */
    questionCount: integer('question_count').notNull(),
    /**
     * Bumped by every answer write. A submit that read the answers at version v commits only while the
     * row still says v, so a save that lands in between is never left out of the result.
     */
    answersVersion: integer('answers_version').notNull().default(0),
    /**
     * The exam was a practice exam when the attempt started (@exam/domain/practice): the attempt never counts (left
     * out of insights, the gradebook and LTI passback) whatever the creator changes since.
     */
    practice: boolean('practice').notNull().default(false),
    /** Set when the attempt began with an LTI launch: where its released score goes (see lti_score_syncs). */
    lti: jsonb('lti').$type<AttemptLtiLink>(),
    /** Bytes of edit operations stored for this attempt (answer_operations), against OPERATIONS_PER_ATTEMPT_MAX_BYTES. */
    operationsBytes: integer('operations_bytes').notNull().default(0),
    /** When the attempt reached that cap: later operations are not stored (the answers still are). */
    operationsCappedAt: at('operations_capped_at'),
    /**
     * How far the attempt has got among its exam's sections (@exam/domain/sections): the section it last entered
     * that is stored, and when (null for attempts started before sections: their start). sectionAt() derives the
     * current one, time limits included, so no job moves it; modules/attempts/sections.service.ts stores a derived
     * move once its grace has passed.
     */
    sectionIndex: integer('section_index').notNull().default(0),
    sectionStartedAt: at('section_started_at'),
    /**
     * Characters inserted by the stored operations so far, by source (indexed as ANSWER_SOURCES: typed, pasted,
     * assistant, autocomplete, restored), counted by the save that stores them: the live view's running shares.
     * Inserted, not kept: text deleted later still counts (the result's shares come from a replay instead).
     */
    operationsChars: integer('operations_chars')
      .array()
      .notNull()
      .default(sql`'{0,0,0,0,0}'::integer[]`),
  },
  (t) => [
    uniqueIndex('attempts_exam_candidate_no_idx').on(t.examId, t.candidateKey, t.attemptNo),
    index('attempts_owner_idx').on(t.ownerId, t.examId),
    // A candidate's history across the creator's exams (/api/results/candidates/:candidateId).
    index('attempts_owner_candidate_idx').on(t.ownerId, t.candidateKey),
    index('attempts_open_deadline_idx')
      .on(t.deadline)
      .where(sql`${t.submittedAt} is null and ${t.deadline} is not null`),
  ],
);

export const answers = resultsServiceSchema.table(
  'answers',
  {
    attemptId: text('attempt_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    answer: text('answer').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    updatedAt: at('updated_at').notNull(),
    /** How many of this question's edit operations are stored (answer_operations): the page's next `start`. */
    operationsEnd: integer('operations_end').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionIndex] })],
);

/**
 * How each answer came to be (issue 31, @exam/domain/answer-operations): the page's edit operations of one question,
 * append-only, in chunks as saves brought them. A chunk holds operations `start` … `end - 1` in the compact form;
 * chunks of a question never overlap and, read in `start` order, give its operations in order.
 */
export const answerOperations = resultsServiceSchema.table(
  'answer_operations',
  {
    attemptId: text('attempt_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    /**
     * CompactOperation[], as the page sent them. json, not jsonb: the text is kept as it came (validated, not rebuilt
     * into jsonb's tree on every save, which cost the autosave more than the rest of its write) and is only ever read
     * whole.
     */
    ops: json('ops').$type<CompactOperation[]>().notNull(),
    /** The chunk's size as sent (its JSON text), counted against the attempt's cap. */
    bytes: integer('bytes').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.attemptId, t.questionIndex, t.start] }),
    check('answer_operations_range', sql`${t.end} > ${t.start}`),
  ],
);

/** Uploaded answer files live in the database so any replica can serve them. */
export const answerFiles = resultsServiceSchema.table(
  'answer_files',
  {
    attemptId: text('attempt_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    uploadedAt: at('uploaded_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionIndex] })],
);

export const events = resultsServiceSchema.table(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    attemptId: text('attempt_id').notNull(),
    type: text('type').notNull(),
    questionIndex: integer('question_index'),
    detail: text('detail'),
    clientAt: text('client_at'),
    recordedAt: at('recorded_at').notNull(),
  },
  (t) => [index('events_attempt_idx').on(t.attemptId, t.recordedAt)],
);

export const results = resultsServiceSchema.table(
  'results',
  {
    id: text('id').primaryKey(),
    /** Unique: two concurrent submissions of one attempt can never make two results. */
    attemptId: text('attempt_id').notNull(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    examTitle: text('exam_title').notNull(),
    userName: text('user_name').notNull(),
    studentId: text('student_id').notNull(),
    totalQuestions: integer('total_questions').notNull(),
    answeredCount: integer('answered_count').notNull(),
    /**
     * Points earned, points possible, status and questions waiting for a grader, all from
     * scoring/score.ts's scoreAttempt. The percentage is never stored: score / max_score × 100.
     */
    score: points('score').notNull(),
    maxScore: points('max_score').notNull(),
    status: text('status').$type<ResultStatus>().notNull(),
    pendingCount: integer('pending_count').notNull(),
    /** When status last left 'pending'; null while pending. */
    gradedAt: at('graded_at'),
    /** Set while the candidate may see the result (exams whose releasePolicy is 'on-release'). */
    releasedAt: at('released_at'),
    timeSpent: integer('time_spent').notNull(),
    startedAt: at('started_at').notNull(),
    completedAt: at('completed_at').notNull(),
    /** One entry per question of the snapshot, in order: the answer as submitted and its grade. */
    grades: jsonb('grades').$type<StoredGrade[]>().notNull(),
    workspaceFiles: jsonb('workspace_files').$type<Record<string, WorkspaceFile>>().notNull(),
    /**
     * How the answers came to be, computed from the stored operations when the result was made: each answer's
     * sources and typing signals and the candidate's summary (@exam/domain/timeline ProcessRecord). null for
     * results made before operations were recorded.
     */
    process: jsonb('process').$type<ProcessRecord>(),
    /**
     * The process is still to be computed (a submission sets it; modules/submissions/process-records.service.ts
     * computes it off the submit path and clears it). false with process null: made before operations were recorded.
     */
    processPending: boolean('process_pending').notNull().default(false),
    /**
     * A job replica computing the pending process holds it until then (a short claim, so no transaction stays open
     * while it asks llm-gateway: on the embedded database that one connection is every service's).
     */
    processLeaseUntil: at('process_lease_until'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('results_attempt_idx').on(t.attemptId),
    // GET /api/results pages by (completed_at, id) within an owner, optionally within one exam.
    index('results_owner_idx').on(t.ownerId, t.completedAt, t.id),
    index('results_owner_exam_idx').on(t.ownerId, t.examId, t.completedAt, t.id),
    index('results_exam_idx').on(t.examId),
    // The process-records job's queue, oldest first; empty but for the moments after submissions.
    index('results_process_pending_idx')
      .on(t.completedAt)
      .where(sql`${t.processPending}`),
    check('results_status_known', sql`${t.status} in ('pending', 'graded', 'released')`),
  ],
);

/**
 * Every change of a grade, a release or an unrelease, kept forever: rows are only ever inserted (a trigger
 * refuses updates and deletes: src/db/functions/grade_history_append_only.sql).
 */
export const gradeHistory = resultsServiceSchema.table(
  'grade_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    resultId: text('result_id').notNull(),
    at: at('at').notNull(),
    /** The creator's e-mail. */
    by: text('by').notNull(),
    kind: text('kind').$type<GradeHistoryEntry['kind']>().notNull(),
    /** null for a change of the whole result (release, unrelease). */
    questionIndex: integer('question_index'),
    before: jsonb('before').$type<GradeHistoryEntry['before']>(),
    after: jsonb('after').$type<GradeHistoryEntry['after']>(),
    /** Why a grader overrode the points a question's tests gave (required for that override). */
    reason: text('reason'),
    /** The AI suggestion the mark took (grading_suggestions.id), and whether the grader accepted or edited it. */
    suggestionId: text('suggestion_id'),
    suggestion: text('suggestion').$type<'accepted' | 'edited'>(),
  },
  (t) => [
    index('grade_history_result_idx').on(t.resultId, t.id),
    check('grade_history_kind_known', sql`${t.kind} in ('grade', 'regrade', 'release', 'unrelease', 'tests')`),
    check('grade_history_suggestion_known', sql`${t.suggestion} is null or ${t.suggestion} in ('accepted', 'edited')`),
  ],
);

/**
 * The outbox of test-graded coding questions (docs/product.md#coding-questions): one row per question of a
 * submitted result, written in the submission's transaction. The grading job (jobs/test-grading.ts) hands
 * unsent rows to the runner, then polls the runs it started and writes their verdicts into the result.
 * Replicas claim rows with FOR UPDATE SKIP LOCKED, so a run is never started twice.
 */
export const testGradings = resultsServiceSchema.table(
  'test_gradings',
  {
    resultId: text('result_id').notNull(),
    attemptId: text('attempt_id').notNull(),
    /** The candidate's index (the snapshot's order). */
    questionIndex: integer('question_index').notNull(),
    /** What runs: the submitted answer, or the workspace file the question names when it was collected. */
    code: text('code').notNull(),
    /**
     * An agentic task's repository as the candidate left it (the collected workspace under the question's root);
     * the run lays the question's hidden files over it (scoring/test-code.ts). Null for other questions.
     */
    files: jsonb('files').$type<RepositoryFile[]>(),
    /** The runner's run once it was enqueued. */
    runId: text('run_id'),
    /** queued (not sent yet), running (sent; polled), done, unavailable, error: the last two go to a grader. */
    state: text('state').$type<'queued' | 'running' | 'done' | 'unavailable' | 'error'>().notNull(),
    /** Failed tries to reach the runner; past the limit the question goes to a grader. */
    tries: integer('tries').notNull().default(0),
    /** Not looked at again before this time (back-off after a failure, polling interval). */
    nextAt: at('next_at').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.resultId, t.questionIndex] }),
    index('test_gradings_due_idx')
      .on(t.nextAt)
      .where(sql`${t.state} in ('queued', 'running')`),
  ],
);

/** The candidate's own test runs ("Run tests"), so an attempt reads only the runs it started. */
export const testRuns = resultsServiceSchema.table(
  'test_runs',
  {
    runId: text('run_id').primaryKey(),
    attemptId: text('attempt_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('test_runs_attempt_idx').on(t.attemptId)],
);

/**
 * Fixed-window counters of attempt starts (per client address, per exam), in the database so every
 * replica counts against the same limit. Old windows are deleted as new ones are counted.
 */
export const startCounters = resultsServiceSchema.table(
  'start_counters',
  {
    bucket: text('bucket').notNull(),
    windowStart: at('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/**
 * Per-candidate accommodations (PUT /api/exams/:id/overrides/:studentId), keyed like attempts by the
 * normalised candidate ID. A null column falls back to the exam's setting.
 */
export const overrides = resultsServiceSchema.table(
  'overrides',
  {
    examId: text('exam_id').notNull(),
    candidateKey: text('candidate_key').notNull(),
    /** As the creator typed it, for display. */
    studentId: text('student_id').notNull(),
    extraMinutes: integer('extra_minutes'),
    timeFactor: doublePrecision('time_factor'),
    opensAt: at('opens_at'),
    closesAt: at('closes_at'),
    attemptsAllowed: integer('attempts_allowed'),
    updatedAt: at('updated_at').notNull(),
    /** The creator's e-mail. */
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.candidateKey] })],
);

/**
 * Which result of a candidate counts (the exam's keepGrade), as results-service last read the exam from
 * exam-service: at every start, briefing and overrides call, and before results, CSV and insights are read.
 */
export const examKeepGrades = resultsServiceSchema.table('exam_keep_grades', {
  examId: text('exam_id').primaryKey(),
  keepGrade: text('keep_grade').$type<KeepGrade>().notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * When each candidate's page last talked to the server, for the live proctor view. Its own table, so
 * recording it never waits on the attempt's row lock; written at most every few seconds per attempt.
 */
export const attemptPresence = resultsServiceSchema.table('attempt_presence', {
  attemptId: text('attempt_id').primaryKey(),
  lastSeenAt: at('last_seen_at').notNull(),
});

/** Attempts the examiner ended from the live view: who and when (the submission itself is the attempt's). */
export const attemptEndings = resultsServiceSchema.table('attempt_endings', {
  attemptId: text('attempt_id').primaryKey(),
  /** The examiner's e-mail. */
  endedBy: text('ended_by').notNull(),
  endedAt: at('ended_at').notNull(),
});

/** The examiner's announcements to everyone sitting an exam; kept, so a result shows those made during it. */
export const announcements = resultsServiceSchema.table(
  'announcements',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    text: text('text').notNull(),
    /** The examiner's e-mail. */
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('announcements_exam_idx').on(t.examId, t.createdAt)],
);

/**
 * A change counter per exam for the insights cache: triggers on results, attempts and exam_keep_grades add 1
 * in the same transaction as every write the insights report reads (the migration insights_cache; the functions
 * are src/db/functions/insights_bump.sql and *_insights_changed.sql). The
 * exam's version is the sum over its shards; a write touches one shard (picked by the attempt's id), so a
 * deadline burst of submissions does not queue on one row.
 */
export const insightsVersions = resultsServiceSchema.table(
  'insights_versions',
  {
    examId: text('exam_id').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.shard] })],
);

/**
 * The last insights report served per exam, owner and model, as the JSON body sent (gzipped), with what it was
 * computed from: the exam's insights version (read before the data) and a digest of the inputs from other
 * services (the exam's questions and the chat transcripts). Shared by every replica.
 */
export const insightsReports = resultsServiceSchema.table(
  'insights_reports',
  {
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    model: text('model').notNull(),
    dataVersion: bigint('data_version', { mode: 'number' }).notNull(),
    inputsDigest: text('inputs_digest').notNull(),
    /** The JSON body, gzip-compressed: sent as it is to clients that accept gzip (browsers do). */
    bodyGzip: bytea('body_gzip').notNull(),
    computedAt: at('computed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.ownerId, t.model] })],
);

/**
 * The outbox of LTI score passback (AGS 2.0 Score publish service): one row per result of an attempt launched
 * from an LMS, written in the same transaction as the release, regrade or withdrawal that changes what the
 * LMS should show. The job jobs/lti-score-sync.ts sends due rows through exam-service; replicas claim rows
 * with FOR UPDATE SKIP LOCKED, so one change is never sent twice at once. A later change rewrites the row
 * (state back to pending), so the LMS always ends with the last score.
 */
export const ltiScoreSyncs = resultsServiceSchema.table(
  'lti_score_syncs',
  {
    resultId: text('result_id').primaryKey(),
    attemptId: text('attempt_id').notNull(),
    examId: text('exam_id').notNull(),
    state: text('state').$type<LmsSyncState>().notNull(),
    /** Failed sends of the current score; reset when the score changes or the creator retries. */
    tries: integer('tries').notNull().default(0),
    nextTryAt: at('next_try_at').notNull(),
    lastError: text('last_error'),
    /** null: the release was withdrawn, so the LMS gets "no score yet" (gradingProgress Pending). */
    scoreGiven: points('score_given'),
    scoreMaximum: points('score_maximum').notNull(),
    /** When the score was produced (the release); sent as the Score's timestamp. */
    scoredAt: at('scored_at').notNull(),
    syncedAt: at('synced_at'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('lti_score_syncs_due_idx')
      .on(t.nextTryAt)
      .where(sql`${t.state} = 'pending'`),
    index('lti_score_syncs_exam_idx').on(t.examId),
    check('lti_score_syncs_state_known', sql`${t.state} in ('pending', 'sent', 'failed')`),
  ],
);

/**
 * The keys that sign candidates' process receipts (modules/receipts/receipt-keys.ts): Ed25519, one row per key,
 * the newest generation signs and every row verifies (and is published as JWKS). The first replica that needs a
 * key inserts generation 1 with `on conflict do nothing`, so concurrent replicas all end with the same key.
 */
export const receiptKeys = resultsServiceSchema.table('receipt_keys', {
  kid: text('kid').primaryKey(),
  /** 1 for the first key; a rotation inserts the next. The unique index lets only one key per generation win. */
  generation: integer('generation').notNull().unique(),
  /** The public key as a JWK (kty OKP, crv Ed25519, x). */
  publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
  /** The private key as a JWK (with d): read only by results-service, never sent anywhere. */
  privateJwk: jsonb('private_jwk').$type<Record<string, string>>().notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * AI-suggested marks (docs/product.md#grading-by-question): one row per suggestion made for one answer of one
 * question, never applied by itself. `question_index` is the exam's own numbering. `answer_hash` is the SHA-256
 * of the answer text the suggestion read: when the answer changes (a regrade) the suggestion is no longer current.
 */
export const gradingSuggestions = resultsServiceSchema.table(
  'grading_suggestions',
  {
    id: text('id').primaryKey(),
    resultId: text('result_id').notNull(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    answerHash: text('answer_hash').notNull(),
    points: points('points').notNull(),
    /** [{criterionId, points}] for every criterion of the question's rubric. */
    rubric: jsonb('rubric').$type<Array<{ criterionId: string; points: number }>>().notNull(),
    rationale: text('rationale').notNull(),
    quote: text('quote').notNull(),
    uncertain: boolean('uncertain').notNull(),
    samplePoints: jsonb('sample_points').$type<number[]>().notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    /** The batch that asked for it; null for one asked from the grading view. */
    batchId: text('batch_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('grading_suggestions_result_idx').on(t.resultId, t.questionIndex, t.createdAt),
    index('grading_suggestions_exam_idx').on(t.examId, t.questionIndex),
  ],
);

/**
 * Suggestion batches over one question's answers: progress, cancel flag and lease live here, so any replica
 * reads and stops a batch, and a batch whose replica died is taken over by the next pass (jobs/suggestion-batches.ts)
 * and goes on with the answers that have no current suggestion yet.
 */
export const suggestionBatches = resultsServiceSchema.table(
  'suggestion_batches',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    status: text('status').notNull(),
    scope: text('scope').notNull(),
    /** The results the batch covers, fixed when it starts. */
    resultIds: jsonb('result_ids').$type<string[]>().notNull(),
    concurrency: integer('concurrency').notNull(),
    samples: integer('samples').notNull(),
    progressDone: integer('progress_done').notNull().default(0),
    progressFailed: integer('progress_failed').notNull().default(0),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    error: text('error'),
    /** The grader who started it (their e-mail), for the log. */
    startedBy: text('started_by').notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: at('lease_until'),
    startedAt: at('started_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('suggestion_batches_exam_idx').on(t.examId, t.questionIndex, t.startedAt),
    index('suggestion_batches_running_idx')
      .on(t.leaseUntil)
      .where(sql`${t.status} = 'running'`),
    // One running batch per question, across replicas: a second start fails on this index (409).
    uniqueIndex('suggestion_batches_one_running_idx')
      .on(t.examId, t.questionIndex)
      .where(sql`${t.status} = 'running'`),
    check(
      'suggestion_batches_status_known',
      sql`${t.status} in ('running', 'completed', 'cancelled', 'failed', 'budget-exhausted', 'interrupted')`,
    ),
  ],
);

/** Answers a grader took out of their group for one question (the exam's numbering): each is marked alone. */
export const answerGroupDetachments = resultsServiceSchema.table(
  'answer_group_detachments',
  {
    examId: text('exam_id').notNull(),
    questionIndex: integer('question_index').notNull(),
    resultId: text('result_id').notNull(),
    at: at('at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.examId, t.questionIndex, t.resultId] })],
);

/**
 * The collaboration profile's judged dimensions (@exam/domain/collaboration): the model's suggested level with its
 * rationale and quotes, and the grader's decision. One row per result and dimension; a new suggestion replaces an
 * undecided one and leaves a decided one's level alone.
 */
export const collaborationJudgements = resultsServiceSchema.table(
  'collaboration_judgements',
  {
    resultId: text('result_id').notNull(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    dimension: text('dimension').$type<JudgedDimension>().notNull(),
    suggestedLevel: integer('suggested_level').notNull(),
    rationale: text('rationale').notNull(),
    quotes: jsonb('quotes').$type<string[]>().notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    suggestedAt: at('suggested_at').notNull(),
    status: text('status').$type<'suggested' | 'accepted' | 'edited'>().notNull(),
    finalLevel: integer('final_level'),
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
  },
  (t) => [
    primaryKey({ columns: [t.resultId, t.dimension] }),
    index('collaboration_judgements_exam_idx').on(t.examId),
    check('collaboration_judgements_dimension_known', sql`${t.dimension} in ('framing', 'verification')`),
    check('collaboration_judgements_status_known', sql`${t.status} in ('suggested', 'accepted', 'edited')`),
    check(
      'collaboration_judgements_levels',
      sql`${t.suggestedLevel} between 0 and 4 and (${t.finalLevel} is null or ${t.finalLevel} between 0 and 4)`,
    ),
  ],
);

/**
 * Follow-up questions after submit (@exam/domain/follow-up): one row per attempt that has (or had) them, with the
 * settings copied at submission so a later edit of the exam does not move an attempt's follow-up. `generating_until`
 * is a lease: the replica generating the questions holds it, so two pages (or replicas) asking at once generate once.
 */
export const followUps = resultsServiceSchema.table(
  'follow_ups',
  {
    attemptId: text('attempt_id').primaryKey(),
    examId: text('exam_id').notNull(),
    resultId: text('result_id').notNull(),
    status: text('status').$type<'pending' | 'asking' | 'done' | 'skipped'>().notNull(),
    note: text('note'),
    count: integer('count').notNull(),
    secondsPerQuestion: integer('seconds_per_question').notNull(),
    /** FollowUpRubricLevel[] as the exam had it at submission. */
    rubric: jsonb('rubric').$type<Array<{ label: string; points: number }>>().notNull(),
    generatingUntil: at('generating_until'),
    createdAt: at('created_at').notNull(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('follow_ups_result_idx').on(t.resultId),
    check('follow_ups_status_known', sql`${t.status} in ('pending', 'asking', 'done', 'skipped')`),
  ],
);

/** One generated follow-up question, its answer (draft until submitted or timed out) and its mark. */
export const followUpQuestions = resultsServiceSchema.table(
  'follow_up_questions',
  {
    attemptId: text('attempt_id')
      .notNull()
      .references(() => followUps.attemptId, { onDelete: 'cascade' }),
    n: integer('n').notNull(),
    /** The probed question in the exam's own order. */
    questionIndex: integer('question_index').notNull(),
    text: text('text').notNull(),
    askedAt: at('asked_at'),
    deadline: at('deadline'),
    answer: text('answer').notNull().default(''),
    seq: integer('seq').notNull().default(0),
    answeredAt: at('answered_at'),
    timedOut: boolean('timed_out').notNull().default(false),
    markLevel: integer('mark_level'),
    markPoints: doublePrecision('mark_points'),
    feedback: text('feedback').notNull().default(''),
    markedBy: text('marked_by'),
    markedAt: at('marked_at'),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.n] })],
);

/**
 * Share links of candidate reports (@exam/domain/candidate-report): who made one for which result, until when, and
 * how often it was opened. Only the SHA-256 of the link's token is kept; the token lives in the URL alone.
 */
export const reportLinks = resultsServiceSchema.table(
  'report_links',
  {
    id: text('id').primaryKey(),
    resultId: text('result_id').notNull(),
    ownerId: text('owner_id').notNull(),
    /** Hex SHA-256 of the token: a database read gives nobody a working link. */
    tokenHash: text('token_hash').notNull(),
    /** The creator's e-mail. */
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    lastOpenedAt: at('last_opened_at'),
    openCount: integer('open_count').notNull().default(0),
  },
  (t) => [uniqueIndex('report_links_token_idx').on(t.tokenHash), index('report_links_result_idx').on(t.resultId)],
);

/**
 * results-service's half of an exam's audit log (@exam/domain/roles AuditEvent): grades, releases, regrades,
 * deletions, unlocks, extra time and announcements, with who did them. exam-service serves it merged with its own
 * half to the exam's owner (GET /api/exams/:id/audit, through GET /internal/exams/:id/audit-events here).
 */
export const auditEvents = resultsServiceSchema.table(
  'audit_events',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').$type<AuditAction>().notNull(),
    subject: text('subject'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    at: at('at').notNull(),
  },
  (t) => [index('audit_events_exam_at_idx').on(t.examId, t.at)],
);
