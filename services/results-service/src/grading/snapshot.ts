import { CodingWorkspaceSchema, QuestionSchema, ReleasePolicySchema, RubricSchema } from '@exam/domain/exam';
import type { InternalExam } from '@exam/domain/internal';
import { z } from 'zod';

/**
 * What an attempt keeps of its exam at start: enough to grade and to show the result later. Stored as
 * JSON and parsed on every read, so snapshots kept before a field existed read with its default
 * (questions worth 1 point, no rubrics, results shown on release, keys hidden).
 */
export const ExamSnapshotSchema = z.object({
  title: z.string(),
  ownerId: z.string(),
  timerEnabled: z.boolean(),
  timerMinutes: z.number(),
  questions: z.array(QuestionSchema),
  codingWorkspace: CodingWorkspaceSchema,
  rubrics: z.array(RubricSchema).default([]),
  releasePolicy: ReleasePolicySchema.default('on-release'),
  showAnswerKeys: z.boolean().default(false),
  /** What the candidate reads around the questions. Attempts started before these were kept lack them. */
  description: z.string().optional(),
  header: z.string().optional(),
  rules: z.string().optional(),
  fullScreenEnabled: z.boolean().optional(),
});
export type ExamSnapshot = z.infer<typeof ExamSnapshotSchema>;

export function parseSnapshot(stored: unknown): ExamSnapshot {
  return ExamSnapshotSchema.parse(stored);
}

export function toSnapshot(exam: InternalExam): ExamSnapshot {
  return {
    title: exam.title,
    ownerId: exam.ownerId,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    questions: exam.questions,
    codingWorkspace: exam.codingWorkspace,
    rubrics: exam.rubrics,
    releasePolicy: exam.releasePolicy,
    showAnswerKeys: exam.showAnswerKeys,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    fullScreenEnabled: exam.fullScreenEnabled,
  };
}

/**
 * The snapshot with the scoring fields of every question the current exam still has (matched by id:
 * points, keys, scoring rule, matching and rubric) and the exam's rubrics. The wording and options stay as
 * the candidate saw them; questions the exam no longer has keep their snapshot keys.
 */
export function withCurrentKeys(
  snapshot: ExamSnapshot,
  exam: Pick<InternalExam, 'questions' | 'rubrics'>,
): ExamSnapshot {
  const current = new Map(exam.questions.map((q) => [q.id, q]));
  const questions = snapshot.questions.map((q) => {
    const now = current.get(q.id);
    if (!now) return q;
    // The snapshot's single-answer key goes: the current one replaces it, or there is none.
    const { correctAnswer: _replaced, ...wording } = q;
    return {
      ...wording,
      points: now.points,
      ...(now.correctAnswer !== undefined ? { correctAnswer: now.correctAnswer } : {}),
      correctAnswers: now.correctAnswers,
      multipleAnswers: now.multipleAnswers,
      scoring: now.scoring,
      acceptedAnswers: now.acceptedAnswers,
      matching: now.matching,
      rubricId: now.rubricId,
    };
  });
  return { ...snapshot, questions, rubrics: exam.rubrics };
}
