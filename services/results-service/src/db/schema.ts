import type { WorkspaceFile } from '@exam/domain/internal';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ExamSnapshot, StoredGrade } from '../grading/snapshot.ts';

/** Everything results-service owns lives in its own PostgreSQL schema. */
export const resultsServiceSchema = pgSchema('results_service');

/** postgres.js hands back a Buffer and PGlite a Uint8Array; callers always get a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

const at = (name: string) => timestamp(name, { withTimezone: true });

export const attempts = resultsServiceSchema.table(
  'attempts',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id').notNull(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    studentId: text('student_id').notNull(),
    startedAt: at('started_at').notNull(),
    /** null when the exam has no timer. */
    deadline: at('deadline'),
    submittedAt: at('submitted_at'),
    resultId: text('result_id'),
    /** The exam as it was at start (answer keys included), so later edits never change this attempt's grading. */
    examSnapshot: jsonb('exam_snapshot').$type<ExamSnapshot>().notNull(),
    /** Copied out of the snapshot so the answer upsert can bound-check without reading the JSON. */
    questionCount: integer('question_count').notNull(),
    /**
     * Bumped by every answer write. A submit that read the answers at version v commits only while the
     * row still says v, so a save that lands in between is never left out of the result.
     */
    answersVersion: integer('answers_version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('attempts_exam_student_idx').on(t.examId, t.studentId),
    index('attempts_owner_idx').on(t.ownerId, t.examId),
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
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionIndex] })],
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
    correctCount: integer('correct_count').notNull(),
    gradedCount: integer('graded_count').notNull(),
    score: integer('score'),
    isGraded: boolean('is_graded').notNull(),
    gradedAt: at('graded_at'),
    timeSpent: integer('time_spent').notNull(),
    startedAt: at('started_at').notNull(),
    completedAt: at('completed_at').notNull(),
    /** One entry per question of the snapshot, in order: the answer as submitted and its grade. */
    grades: jsonb('grades').$type<StoredGrade[]>().notNull(),
    workspaceFiles: jsonb('workspace_files').$type<Record<string, WorkspaceFile>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('results_attempt_idx').on(t.attemptId),
    // GET /api/results pages by (completed_at, id) within an owner, optionally within one exam.
    index('results_owner_idx').on(t.ownerId, t.completedAt, t.id),
    index('results_owner_exam_idx').on(t.ownerId, t.examId, t.completedAt, t.id),
    index('results_exam_idx').on(t.examId),
  ],
);
