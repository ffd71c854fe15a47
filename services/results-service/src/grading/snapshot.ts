import { CodingWorkspaceSchema, QuestionSchema } from '@exam/domain/exam';
import type { InternalExam } from '@exam/domain/internal';
import { scorePercent } from '@exam/domain/result';
import { autoScore, isAnswered } from '@exam/domain/scoring';
import { z } from 'zod';

/** What an attempt keeps of its exam at start: enough to grade and to show the result later. */
export const ExamSnapshotSchema = z.object({
  title: z.string(),
  ownerId: z.string(),
  timerEnabled: z.boolean(),
  timerMinutes: z.number(),
  questions: z.array(QuestionSchema),
  codingWorkspace: CodingWorkspaceSchema,
  /** What the candidate reads around the questions. Attempts started before these were kept lack them. */
  description: z.string().optional(),
  header: z.string().optional(),
  rules: z.string().optional(),
  fullScreenEnabled: z.boolean().optional(),
});
export type ExamSnapshot = z.infer<typeof ExamSnapshotSchema>;

/** One question's answer as submitted and its grade, stored with the result. */
export type StoredGrade = { answer: string | null; isCorrect: boolean | null; isGraded: boolean; feedback: string };

export function toSnapshot(exam: InternalExam): ExamSnapshot {
  return {
    title: exam.title,
    ownerId: exam.ownerId,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    questions: exam.questions,
    codingWorkspace: exam.codingWorkspace,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    fullScreenEnabled: exam.fullScreenEnabled,
  };
}

export type GradeTotals = { correctCount: number; gradedCount: number; isGraded: boolean; score: number | null };

export function totalsOf(grades: StoredGrade[]): GradeTotals {
  const gradedCount = grades.filter((g) => g.isGraded).length;
  const correctCount = grades.filter((g) => g.isGraded && g.isCorrect === true).length;
  const isGraded = gradedCount === grades.length;
  return { correctCount, gradedCount, isGraded, score: isGraded ? scorePercent(correctCount, grades.length) : null };
}

/** Scores saved answers against the snapshot's answer keys; file and coding answers wait for a grader. */
export function gradeSubmission(snapshot: ExamSnapshot, saved: Map<number, string>) {
  const grades: StoredGrade[] = snapshot.questions.map((question, index) => {
    const answer = saved.get(index);
    const isCorrect = autoScore(question, answer);
    return { answer: answer ?? null, isCorrect: isCorrect ?? null, isGraded: isCorrect !== undefined, feedback: '' };
  });
  const answeredCount = snapshot.questions.filter((_q, index) => isAnswered(saved.get(index))).length;
  return { grades, answeredCount, ...totalsOf(grades) };
}
