import { allowedLanguages, type RunLanguage } from '@exam/domain/coding';
import { answerParts, decodeChoices } from '@exam/domain/grading';
import { TRUE_FALSE } from '@exam/domain/question-kinds';
import type { GradeHistoryEntry, QuestionAnswer, ResultSummary } from '@exam/domain/result';
import type { gradeHistory } from '../../db/schema.ts';
import { answerKeyText, answerText, isAnswered } from '@exam/domain/answer-text';
import { percentageOf, type StoredGrade } from '../../scoring/score.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import type { ResultSummaryRow } from './results.repository.ts';
import { repositoryRootOf } from '../../scoring/test-code.ts';

/** Rows as creators read them: one score (points, maximum, percentage, status) on every screen. */
export function toSummary(row: ResultSummaryRow): ResultSummary {
  return {
    id: row.id,
    examId: row.examId,
    examTitle: row.examTitle,
    userName: row.userName,
    studentId: row.studentId,
    score: row.score,
    maxScore: row.maxScore,
    percentage: percentageOf(row.score, row.maxScore),
    status: row.status,
    pendingCount: row.pendingCount,
    totalQuestions: row.totalQuestions,
    answeredCount: row.answeredCount,
    isGraded: row.status !== 'pending',
    releasedAt: row.releasedAt?.toISOString() ?? null,
    gradedAt: row.gradedAt?.toISOString() ?? null,
    timeSpent: row.timeSpent,
    startedAt: row.startedAt.toISOString(),
    completedAt: row.completedAt.toISOString(),
    attemptNo: row.attemptNo,
    kept: row.kept,
    ...(row.practice ? { practice: true } : {}),
    ...(row.lmsState
      ? {
          lmsSync: {
            state: row.lmsState,
            tries: row.lmsTries ?? 0,
            lastError: row.lmsLastError ?? null,
            syncedAt: row.lmsSyncedAt?.toISOString() ?? null,
          },
        }
      : {}),
  };
}

/** The options the grader sees: an MCQ's, or a true/false question's two, worded as its answer and key read. */
function optionsOf(q: ExamSnapshot['questions'][number]): string[] {
  if (q.type === 'mcq') return q.options;
  if (q.type === 'true-false') return TRUE_FALSE.map((v) => answerText(q, v));
  return [];
}

export function toQuestionAnswers(
  snapshot: ExamSnapshot,
  grades: readonly StoredGrade[],
  files: ReadonlyMap<number, { fileName: string; size: number }>,
  /** The candidate's choices of language by question index (chosen-languages.repository.ts). */
  chosenLanguages: ReadonlyMap<number, RunLanguage> = new Map(),
): QuestionAnswer[] {
  const rubrics = new Map(snapshot.rubrics.map((r) => [r.id, r]));
  const passages = new Map((snapshot.passages ?? []).map((p) => [p.id, p]));
  return snapshot.questions.map((q, index) => {
    const grade = grades[index];
    const file = files.get(index);
    const multipleAnswers = q.type === 'mcq' && q.multipleAnswers;
    const examQuestionIndex = snapshot.arrangement?.sourceIndices[index];
    // Right or wrong per gap, prompt or neighbouring pair: which parts earned a partial credit.
    const parts = answerParts(q, grade?.answer ?? undefined);
    const passage = q.passageId ? passages.get(q.passageId) : undefined;
    // The language the code was written in: the candidate's choice while the question still offers it.
    const chosen = chosenLanguages.get(index);
    const language = chosen && allowedLanguages(q).includes(chosen) ? chosen : q.language;
    return {
      questionIndex: index,
      ...(examQuestionIndex !== undefined ? { examQuestionIndex } : {}),
      question: q.title,
      content: q.content,
      questionType: q.type,
      options: optionsOf(q),
      correctAnswer: answerKeyText(q),
      multipleAnswers,
      choices: multipleAnswers ? decodeChoices(grade?.answer ?? undefined) : [],
      answer: answerText(q, grade?.answer),
      // The encoded answer, so screens decode it instead of reading the text above back into parts.
      answerValue: grade?.answer && isAnswered(q, grade.answer) ? grade.answer : null,
      points: grade?.points ?? null,
      maxPoints: q.points,
      autoScored: grade?.autoScored ?? false,
      ...(grade?.unanswered ? { unanswered: true } : {}),
      isGraded: (grade?.points ?? null) !== null,
      feedback: grade?.feedback ?? '',
      criteria: grade?.criteria ?? [],
      rubric: (q.rubricId !== null && rubrics.get(q.rubricId)) || null,
      ...(file ? { file: { fileName: file.fileName, size: file.size } } : {}),
      ...(grade?.tests ? { tests: grade.tests } : {}),
      ...(q.type === 'coding' && language ? { language } : {}),
      ...(parts ? { parts } : {}),
      ...(q.type === 'calculated' ? { calculatedValues: q.calculated?.values ?? null } : {}),
      ...(passage ? { passageTitle: passage.title } : {}),
      ...(q.repository ? { starterFiles: q.repository.files, repositoryRoot: repositoryRootOf(snapshot, q.id) } : {}),
    };
  });
}

export function toHistoryEntry(row: typeof gradeHistory.$inferSelect): GradeHistoryEntry {
  return {
    at: row.at.toISOString(),
    by: row.by,
    kind: row.kind,
    questionIndex: row.questionIndex,
    before: row.before ?? null,
    after: row.after ?? null,
    ...(row.reason ? { reason: row.reason } : {}),
    // "Suggested by AI, accepted (or edited) by" the grader: the mark took an AI suggestion.
    ...(row.suggestion ? { suggestion: row.suggestion } : {}),
  };
}
