import { RESULT_EVENTS_MAX } from '@exam/domain/attempt';
import { candidateKey } from '@exam/domain/candidate-key';
import { CANDIDATE_HISTORY_MAX, type CandidateHistory } from '@exam/domain/candidate-history';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type {
  ExamResultsSummary,
  ListResultsQuery,
  ResultDetail,
  ResultList,
  ResultsCsvFormat,
} from '@exam/domain/result';
import { sharedExamIds } from '../../access/exam-ownership.ts';
import type { Deps } from '../../deps.ts';
import type { RefreshKeepGrade } from '../accommodations/keep-grade-refresh.ts';
import { gradesInExamOrder, numberedHeaders, questionHeaders } from './question-columns.ts';
import { gradebookCsv, resultsCsv, withBom, type CsvExtraColumns } from './results-csv.ts';
import { decodeCursor, encodeCursor } from './results-cursor.ts';
import { inExamOrder } from './exam-order.ts';
import type { ResultsRepository, Viewer } from './results.repository.ts';
import { toHistoryEntry, toQuestionAnswers, toSummary } from './result-views.ts';

export const resultNotFound = () => new AppError(ErrorCode.NOT_FOUND, 'Result not found');

/** What creators read of their results; every figure comes from the stored score (scoring/score.ts). */
export function createResultsService(
  repo: ResultsRepository,
  deps: Pick<Deps, 'examSource' | 'examAccess' | 'examGrants'>,
  refreshKeepGrade: RefreshKeepGrade = async () => {},
  /** The insights columns of the full export (modules/insights, above this one, hands them in at request time). */
  insightsColumns: (examId: string, ownerId: string, hasRows: boolean) => Promise<CsvExtraColumns> = async () => ({
    header: [],
    cellsOf: () => undefined,
  }),
) {
  /**
   * The creator's own exams and those shared with them in a role that reads results. Without exam-service the
   * listings keep working with the creator's own exams.
   */
  async function viewerOf(creatorId: string): Promise<Viewer> {
    const shared = await sharedExamIds(deps, creatorId, 'results:read').catch(() => []);
    return { ownerId: creatorId, sharedExamIds: shared };
  }

  return {
    async detail(id: string, ownerId: string): Promise<ResultDetail> {
      const found = await repo.findForOwner(id, ownerId);
      if (!found) throw resultNotFound();
      const { result, snapshot, attemptNo, kept, ...lms } = found;
      const [files, newestEvents, eventCounts, history, languages] = await Promise.all([
        repo.filesOf(result.attemptId),
        repo.newestEventsOf(result.attemptId, RESULT_EVENTS_MAX),
        repo.eventCountsOf(result.attemptId),
        repo.historyOf(result.id),
        repo.languagesOf(result.attemptId),
      ]);
      const eventSummary = Object.fromEntries(eventCounts.map((c) => [c.type, c.count]));
      const storedEvents = eventCounts.reduce((sum, c) => sum + c.count, 0);
      return {
        ...toSummary({ ...result, attemptNo, kept, ...lms }),
        attemptId: result.attemptId,
        // Graders read every result in the exam's order and numbering, never the candidate's shuffled one.
        questionAnswers: inExamOrder(
          toQuestionAnswers(snapshot, result.grades, new Map(files.map((f) => [f.questionIndex, f])), languages),
        ),
        // The page stays bounded however many events were stored; they are listed oldest first.
        events: newestEvents.reverse().map((e) => ({
          type: e.type,
          at: e.recordedAt.toISOString(),
          clientAt: e.clientAt,
          questionIndex: e.questionIndex,
          detail: e.detail,
        })),
        eventSummary,
        eventsTruncated: storedEvents > newestEvents.length,
        workspace_files: result.workspaceFiles,
        history: history.map(toHistoryEntry),
      };
    },

    /** One page of the results the creator reads (newest first) and the cursor of the next, if any. */
    async list(creatorId: string, query: ListResultsQuery): Promise<ResultList> {
      const search = query.search?.trim();
      if (query.examId) await refreshKeepGrade(query.examId, creatorId);
      const rows = await repo.listPage(await viewerOf(creatorId), {
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

    /**
     * A candidate's attempts across the owner's exams; 404 when none of the owner's exams has one, so
     * another creator's candidates look exactly like unknown ones.
     */
    async candidate(creatorId: string, candidateId: string): Promise<CandidateHistory> {
      const rows = await repo.candidateAttempts(
        await viewerOf(creatorId),
        candidateKey(candidateId),
        CANDIDATE_HISTORY_MAX,
      );
      const newest = rows[0];
      if (!newest) throw new AppError(ErrorCode.NOT_FOUND, 'Candidate not found');
      return {
        name: newest.name,
        studentId: newest.studentId,
        attempts: rows.slice(0, CANDIDATE_HISTORY_MAX).map((row) => ({
          attemptId: row.attemptId,
          examId: row.examId,
          examTitle: row.examTitle,
          name: row.name,
          studentId: row.studentId,
          attemptNo: row.attemptNo,
          startedAt: row.startedAt.toISOString(),
          submittedAt: row.submittedAt?.toISOString() ?? null,
          result:
            row.resultId && row.result
              ? toSummary({
                  ...row.result,
                  attemptNo: row.attemptNo,
                  kept: Boolean(row.kept),
                  practice: row.practice,
                })
              : null,
        })),
        truncated: rows.length > CANDIDATE_HISTORY_MAX,
      };
    },

    async file(id: string, ownerId: string, questionIndex: number) {
      const found = await repo.findForOwner(id, ownerId);
      if (!found) throw resultNotFound();
      const file = await repo.file(found.result.attemptId, questionIndex);
      if (!file) throw new AppError(ErrorCode.NOT_FOUND, 'No file was uploaded for this question');
      return file;
    },

    async summary(creatorId: string): Promise<ExamResultsSummary> {
      const rows = await repo.examSummaries(await viewerOf(creatorId));
      return {
        exams: rows.map((r) => ({
          examId: r.exam_id,
          examTitle: r.exam_title,
          started: r.started,
          submitted: r.submitted,
          graded: r.graded,
          avgScore: r.avg_percentage === null ? null : Number(r.avg_percentage),
          pending: r.pending,
        })),
      };
    },

    /**
     * Another creator's exam is 404; an own exam without submissions gives the header only. Question columns are the
     * exam's questions in its own order, headed by their titles, each candidate's points mapped by question id (blank
     * for a question they did not draw). An exam exam-service no longer has keeps numbered columns by position.
     */
    async csv(
      examId: string,
      ownerId: string,
      { format = 'full', bom = false }: { format?: ResultsCsvFormat; bom?: boolean } = {},
    ): Promise<string> {
      await refreshKeepGrade(examId, ownerId);
      const rows = await repo.examRows(examId, ownerId);
      const found = await deps.examSource.findExam(examId);
      const exam = found && found.ownerId === ownerId ? found : undefined;
      const headers = exam
        ? questionHeaders(exam.questions, exam.pools)
        : numberedHeaders(Math.max(0, ...rows.map((r) => r.result.totalQuestions)));
      const inExamOrder = (r: (typeof rows)[number]) =>
        exam && r.questionIds ? gradesInExamOrder(exam.questions, r.questionIds, r.result.grades) : r.result.grades;
      let csv: string;
      if (format === 'gradebook') {
        // Practice attempts never reach a gradebook (docs/product.md#practice-and-review).
        // The roster's e-mails (exam-service): an Email column when any candidate has one, so an LMS import can match
        // by e-mail. Without exam-service the export still works, without the column.
        const emails = await deps.examAccess.rosterEmails(examId).catch(() => new Map<string, string>());
        csv = gradebookCsv(
          rows.filter((r) => !r.practice).map((r) => ({ ...r.result, grades: inExamOrder(r) })),
          headers,
          emails.size > 0 ? (studentId) => emails.get(candidateKey(studentId)) ?? null : undefined,
        );
      } else {
        const extra = await insightsColumns(examId, ownerId, rows.length > 0);
        csv = resultsCsv(
          rows.map((r) => ({
            ...r.result,
            grades: inExamOrder(r),
            focusLost: r.focusLost,
            blockedPastes: r.blockedPastes,
            fullscreenExits: r.fullscreenExits,
          })),
          headers,
          extra,
        );
      }
      return bom ? withBom(csv) : csv;
    },
  };
}
export type ResultsService = ReturnType<typeof createResultsService>;
