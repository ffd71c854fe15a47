import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Question } from '@exam/domain/exam';
import {
  NO_ANSWER,
  type ExamResultsSummary,
  type GradingEntry,
  type ListResultsQuery,
  type QuestionAnswer,
  type ResultDetail,
  type ResultList,
  type ResultSummary,
} from '@exam/domain/result';
import type { Deps } from '../../deps.ts';
import { totalsOf, type ExamSnapshot } from '../../grading/snapshot.ts';
import { resultsCsv } from './results-csv.ts';
import { decodeCursor, encodeCursor } from './results-cursor.ts';
import type { ResultSummaryRow, ResultsRepository } from './results.repository.ts';

const notFound = () => new AppError(ErrorCode.NOT_FOUND, 'Result not found');

export function toSummary(row: ResultSummaryRow): ResultSummary {
  return {
    id: row.id,
    examId: row.examId,
    examTitle: row.examTitle,
    userName: row.userName,
    studentId: row.studentId,
    score: row.score,
    correctCount: row.correctCount,
    gradedCount: row.gradedCount,
    totalQuestions: row.totalQuestions,
    answeredCount: row.answeredCount,
    isGraded: row.isGraded,
    gradedAt: row.gradedAt?.toISOString() ?? null,
    timeSpent: row.timeSpent,
    startedAt: row.startedAt.toISOString(),
    completedAt: row.completedAt.toISOString(),
  };
}

/** What the creator sees as the key: the MCQ option, or a short answer's accepted answers. */
function answerKey(q: Question): string | null {
  if (q.type === 'mcq') return q.correctAnswer || null;
  if (q.type === 'short-answer') return q.acceptedAnswers.length ? q.acceptedAnswers.join(' | ') : null;
  return null;
}

export function createResultsService(repo: ResultsRepository, deps: Pick<Deps, 'clock' | 'examSource'>) {
  async function detail(id: string, ownerId: string): Promise<ResultDetail> {
    const found = await repo.findForOwner(id, ownerId);
    if (!found) throw notFound();
    const { result, snapshot } = found;
    const [files, eventRows] = await Promise.all([repo.filesOf(result.attemptId), repo.eventsOf(result.attemptId)]);
    const fileAt = new Map(files.map((f) => [f.questionIndex, f]));
    const questionAnswers: QuestionAnswer[] = (snapshot as ExamSnapshot).questions.map((q, index) => {
      const grade = result.grades[index];
      const file = fileAt.get(index);
      return {
        questionIndex: index,
        question: q.title,
        content: q.content,
        questionType: q.type,
        options: q.type === 'mcq' ? q.options : [],
        correctAnswer: answerKey(q),
        answer: grade?.answer?.trim() ? grade.answer : NO_ANSWER,
        isCorrect: grade?.isCorrect ?? null,
        isGraded: grade?.isGraded ?? false,
        feedback: grade?.feedback ?? '',
        ...(file ? { file: { fileName: file.fileName, size: file.size } } : {}),
      };
    });
    return {
      ...toSummary(result),
      attemptId: result.attemptId,
      questionAnswers,
      events: eventRows.map((e) => ({
        type: e.type,
        at: e.recordedAt.toISOString(),
        clientAt: e.clientAt,
        questionIndex: e.questionIndex,
        detail: e.detail,
      })),
      workspace_files: result.workspaceFiles,
    };
  }

  return {
    detail,

    /** One page of the owner's results (newest first) and the cursor of the next, if any. */
    async list(ownerId: string, query: ListResultsQuery): Promise<ResultList> {
      const search = query.search?.trim();
      const rows = await repo.listPage(ownerId, {
        limit: query.limit,
        ...(query.cursor ? { after: decodeCursor(query.cursor) } : {}),
        ...(query.examId ? { examId: query.examId } : {}),
        ...(query.studentId ? { studentId: query.studentId } : {}),
        ...(query.graded ? { graded: query.graded === 'true' } : {}),
        ...(search ? { search } : {}),
      });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        results: page.map(toSummary),
        nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Applies the grader's entries and recomputes every count and the score on the server, never in the browser (docs/product.md#results-and-grading). */
    async grade(id: string, ownerId: string, entries: GradingEntry[]): Promise<ResultDetail> {
      const now = deps.clock.now();
      const updated = await repo.updateGrades(id, ownerId, (row) => {
        const grades = row.grades.map((g) => ({ ...g }));
        for (const entry of entries) {
          const current = grades[entry.questionIndex];
          if (!current)
            throw new AppError(ErrorCode.VALIDATION, `This result has no question ${entry.questionIndex + 1}`, [
              { path: 'grading.questionIndex', message: 'Out of range' },
            ]);
          grades[entry.questionIndex] = {
            ...current,
            isGraded: entry.isGraded,
            isCorrect: entry.isGraded ? (entry.isCorrect ?? null) : null,
            feedback: entry.feedback,
          };
        }
        const totals = totalsOf(grades);
        return { grades, ...totals, gradedAt: totals.isGraded ? now : null, updatedAt: now };
      });
      if (!updated) throw notFound();
      return detail(id, ownerId);
    },

    async file(id: string, ownerId: string, questionIndex: number) {
      const found = await repo.findForOwner(id, ownerId);
      if (!found) throw notFound();
      const file = await repo.file(found.result.attemptId, questionIndex);
      if (!file) throw new AppError(ErrorCode.NOT_FOUND, 'No file was uploaded for this question');
      return file;
    },

    async summary(ownerId: string): Promise<ExamResultsSummary> {
      const rows = await repo.examSummaries(ownerId);
      return {
        exams: rows.map((r) => ({
          examId: r.exam_id,
          examTitle: r.exam_title,
          started: r.started,
          submitted: r.submitted,
          graded: r.graded,
          avgScore: r.avg_score === null ? null : Number(r.avg_score),
        })),
      };
    },

    /** Another creator's exam is 404; an own exam without submissions gives the header only. */
    async csv(examId: string, ownerId: string): Promise<string> {
      const rows = await repo.examRows(examId, ownerId);
      let questionCount = Math.max(0, ...rows.map((r) => r.result.totalQuestions));
      if (rows.length === 0) {
        const exam = await deps.examSource.findExam(examId);
        if (!exam || exam.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
        questionCount = exam.questions.length;
      }
      return resultsCsv(
        rows.map((r) => ({
          ...r.result,
          focusLost: r.focusLost,
          blockedPastes: r.blockedPastes,
          fullscreenExits: r.fullscreenExits,
        })),
        questionCount,
      );
    },
  };
}
export type ResultsService = ReturnType<typeof createResultsService>;
