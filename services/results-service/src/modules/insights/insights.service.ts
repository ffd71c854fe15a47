import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Question } from '@exam/domain/question';
import { TRUE_FALSE } from '@exam/domain/question-kinds';
import type { InsightsModelRequest, InsightsReport, InsightsUplift } from '@exam/domain/insights';
import type { SimilarityReport } from '@exam/domain/similarity';
import { buildInsightsReport, type PhaseTimer, type ReportInput } from '@exam/psychometrics/report';
import type { AttemptTranscript, Deps } from '../../deps.ts';
import type { RefreshKeepGrade } from '../accommodations/keep-grade-refresh.ts';
import { percentageOf, type StoredGrade } from '../../scoring/score.ts';
import type { ResultStatus } from '@exam/domain/grading';
import { abilitySetsOf, withAidedAbility } from './aided-ability-figures.ts';
import type { InsightsRepository } from './insights.repository.ts';
import { relianceCasesOf } from './reliance-cases.ts';
import { withReliance } from './reliance-figures.ts';
import { buildSimilarityReport } from './similarity.service.ts';

type Logger = { warn(obj: object, msg: string): void };

/** Times the report's phases for the Server-Timing header; `timeAsync` for the ones that wait on I/O. */
export type ReportTimer = { time: PhaseTimer; timeAsync<T>(phase: string, run: () => Promise<T>): Promise<T> };
const untimed: ReportTimer = { time: (_phase, run) => run(), timeAsync: (_phase, run) => run() };

/**
 * A question's mark for @exam/psychometrics, whose items are each worth 1: the share of the question's
 * points earned (0–1, so partial credit and rubric points keep their weight in the classical statistics;
 * its Rasch fit counts a mark of at least one half as right). null while the question waits for a grader:
 * a pending answer is missing, never wrong.
 */
export function markOf(grade: Pick<StoredGrade, 'points'> | undefined, maxPoints: number): number | null {
  if (!grade || grade.points === null) return null;
  if (maxPoints <= 0) return null;
  return Math.min(1, Math.max(0, grade.points / maxPoints));
}

/** The options a candidate picks one answer from (guessability), for the types answered by one pick. */
function optionCountOf(q: Pick<Question, 'type' | 'options'>): number {
  if (q.type === 'mcq') return q.options.length;
  return q.type === 'true-false' ? TRUE_FALSE.length : 0;
}

export function createInsightsService(
  repo: InsightsRepository,
  deps: Pick<Deps, 'examSource' | 'transcripts'>,
  log: Logger,
  refreshKeepGrade: RefreshKeepGrade = async () => {},
) {
  /** The questions the cohort sat: the newest attempt's snapshot, or the exam itself before anyone started. */
  async function questionsOf(
    examId: string,
    ownerId: string,
    snapshotQuestions: Question[] | undefined,
  ): Promise<Question[]> {
    if (snapshotQuestions) return snapshotQuestions;
    const exam = await deps.examSource.findExam(examId);
    // Another creator's exam looks exactly like one that does not exist.
    if (!exam || exam.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
    return exam.questions;
  }

  /** The exam's questions as the creator wrote them, a pooled question worth its pool's points per draw. */
  async function examQuestionsOf(examId: string, ownerId: string): Promise<Question[]> {
    const exam = await deps.examSource.findExam(examId);
    if (!exam || exam.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
    const pools = new Map(exam.pools.map((p) => [p.id, p]));
    return exam.questions.map((q) => {
      const pool = q.poolId === null ? undefined : pools.get(q.poolId);
      return pool ? { ...q, points: pool.points } : q;
    });
  }

  /**
   * The exam as exam-service has it, for its sections and assistant settings: undefined when it is gone or another
   * creator's, `unavailable` when exam-service could not be asked (the report goes on without the figures that need it).
   */
  async function examQuietly(examId: string, ownerId: string) {
    try {
      const exam = await deps.examSource.findExam(examId);
      return { exam: exam && exam.ownerId === ownerId ? exam : undefined, unavailable: false };
    } catch (err) {
      log.warn({ err, examId }, 'insights without the exam’s sections');
      return { exam: undefined, unavailable: true };
    }
  }

  /** The transcripts, or the reason they cannot be had: insights still load when llm-gateway is down. */
  async function transcriptsOf(
    examId: string,
  ): Promise<{ byAttempt: Map<string, AttemptTranscript>; unavailable: string | null }> {
    try {
      const list = await deps.transcripts.listExamTranscripts(examId);
      return { byAttempt: new Map(list.map((t) => [t.attemptId, t])), unavailable: null };
    } catch (err) {
      log.warn({ err, examId }, 'insights without chat transcripts');
      return {
        byAttempt: new Map(),
        unavailable:
          'The AI assistant’s chat transcripts could not be loaded (llm-gateway is unavailable); try again later.',
      };
    }
  }

  return {
    /** `model`: which model the abilities come from; 'auto' lets the likelihood-ratio test decide. */
    async report(
      examId: string,
      ownerId: string,
      timer: ReportTimer = untimed,
      model: InsightsModelRequest = 'auto',
    ): Promise<InsightsReport> {
      const [rows, snapshot, eventRows] = await timer.timeAsync('db', async () => {
        // Each candidate counts once, with the result the exam's keepGrade keeps (kept-results.ts).
        await refreshKeepGrade(examId, ownerId);
        return Promise.all([
          repo.attemptsOf(examId, ownerId),
          repo.latestSnapshotOf(examId, ownerId),
          repo.submittedEventsOf(examId, ownerId),
        ]);
      });
      // A shuffled or pooled exam's candidates each sat their own list: their answers are mapped by question
      // id onto the exam's questions as the creator wrote them, each item over those who drew it.
      const arranged = snapshot?.arrangement !== undefined;
      const questions = arranged
        ? await examQuestionsOf(examId, ownerId)
        : await questionsOf(examId, ownerId, snapshot?.questions);
      const submitted = submittedInOrder(rows, questions, arranged);
      const graded = submitted.filter((s) => s.result.status !== 'pending').length;
      const transcripts =
        submitted.length > 0
          ? await timer.timeAsync('transcripts', () => transcriptsOf(examId))
          : { byAttempt: new Map<string, AttemptTranscript>(), unavailable: null };
      const eventsByAttempt = new Map<string, { type: string; at: Date; questionIndex: number | null }[]>();
      for (const e of eventRows) {
        const list = eventsByAttempt.get(e.attemptId);
        if (list) list.push(e);
        else eventsByAttempt.set(e.attemptId, [e]);
      }

      const input: ReportInput = {
        model,
        // Every candidate who started counts as invited: the platform has no separate invitation list.
        cohort: {
          invited: rows.length,
          started: rows.length,
          submitted: submitted.length,
          graded,
          pending: submitted.length - graded,
        },
        items: questions.map((q, questionIndex) => ({
          questionIndex,
          topic: q.topic,
          type: q.type,
          optionCount: optionCountOf(q),
        })),
        candidates: submitted.map(({ attemptId, result, places }) => ({
          resultId: result.id,
          name: result.userName,
          studentId: result.studentId,
          startedAt: result.startedAt,
          completedAt: result.completedAt,
          marks: questions.map((q, i) => markOf(gradeAt(result.grades, places[i]), q.points)),
          // Ranked by the score every other screen shows (points as weighted), never by the unweighted marks above.
          score: percentageOf(result.score, result.maxScore),
          answers: questions.map((_q, i) => gradeAt(result.grades, places[i])?.answer ?? null),
          // A question-view names the candidate's own index of the question shown, mapped like the chat's.
          events: (eventsByAttempt.get(attemptId) ?? []).map((e) => ({
            type: e.type,
            at: e.at,
            questionIndex: examIndexOf(places, e.questionIndex),
          })),
          chat: (transcripts.byAttempt.get(attemptId)?.messages ?? []).map((m) => ({
            role: m.role,
            content: m.content,
            questionIndex: examIndexOf(places, m.questionIndex),
            at: m.createdAt,
          })),
        })),
      };
      const built = timer.time('report', () => buildInsightsReport(input, timer.time));
      const report = withWithheldReplies(
        withDrawnCounts(
          withResultScores(
            built,
            submitted.map(({ result }) => result),
          ),
          questions.map((_q, i) => submitted.filter((s) => s.places[i] !== undefined).length),
        ),
        new Map(submitted.map(({ attemptId, result }) => [result.id, transcripts.byAttempt.get(attemptId)?.messages])),
      );
      const { exam, unavailable } = await examQuietly(examId, ownerId);
      const { sets, reason } = abilitySetsOf(questions, snapshot, exam, unavailable);
      const aided = timer.time('aided', () =>
        withAidedAbility(report, {
          questions,
          sets,
          reason,
          candidates: submitted.map(({ result, places }) => ({
            resultId: result.id,
            grades: questions.map((_q, i) => gradeAt(result.grades, places[i])),
          })),
        }),
      );
      const cases = transcripts.unavailable
        ? []
        : await timer.timeAsync('reliance', () =>
            relianceCasesOf(repo, examId, ownerId, questions, submitted, transcripts.byAttempt),
          );
      const full = withReliance(aided, {
        questions,
        plantedErrors: exam?.aiSettings.plantedErrors.enabled ?? false,
        unavailable: transcripts.unavailable,
        candidates: cases,
      });
      return transcripts.unavailable ? withoutAssistantFigures(full, transcripts.unavailable) : full;
    },

    /**
     * Code similarity of the coding answers (docs/product.md#code-similarity), over the same kept results as
     * the report, at `threshold` or the exam's own similarityThreshold.
     */
    async similarity(examId: string, ownerId: string, threshold?: number): Promise<SimilarityReport> {
      const exam = await deps.examSource.findExam(examId);
      if (!exam || exam.ownerId !== ownerId) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      await refreshKeepGrade(examId, ownerId);
      const [rows, snapshot] = await Promise.all([
        repo.attemptsOf(examId, ownerId),
        repo.latestSnapshotOf(examId, ownerId),
      ]);
      // As in the report: a shuffled or pooled cohort's answers are mapped onto the exam's questions by id.
      const arranged = snapshot?.arrangement !== undefined;
      const questions = arranged ? exam.questions : (snapshot?.questions ?? exam.questions);
      // The cap on compared answers keeps the earliest submissions.
      const submitted = submittedInOrder(rows, questions, arranged);
      const hasCoding = questions.some((q) => q.type === 'coding');
      const transcripts =
        submitted.length > 0 && hasCoding
          ? await transcriptsOf(examId)
          : { byAttempt: new Map<string, AttemptTranscript>(), unavailable: null };
      return buildSimilarityReport({
        questions,
        entrants: submitted.map(({ attemptId, result, places }) => ({
          resultId: result.id,
          name: result.userName,
          studentId: result.studentId,
          answers: questions.map((_q, i) => gradeAt(result.grades, places[i])?.answer ?? null),
          replies: (transcripts.byAttempt.get(attemptId)?.messages ?? []).filter((m) => m.role === 'assistant'),
        })),
        threshold: threshold ?? exam.similarityThreshold,
        examThreshold: exam.similarityThreshold,
        assistantMatchesUnavailable: transcripts.unavailable,
      });
    },
  };
}
export type InsightsService = ReturnType<typeof createInsightsService>;

/**
 * Where each of `questions` sits in one candidate's list: places[i] is the candidate's index of questions[i],
 * undefined when they did not draw it. Without an arrangement the candidate's list is the exam's.
 */
export function placesOf(
  questions: ReadonlyArray<{ id: string }>,
  candidateIds: readonly string[] | null,
  arranged: boolean,
): Array<number | undefined> {
  if (!arranged || !candidateIds) return questions.map((_q, i) => i);
  const at = new Map(candidateIds.map((id, i) => [id, i]));
  return questions.map((q) => at.get(q.id));
}

type AttemptRow = Awaited<ReturnType<InsightsRepository['attemptsOf']>>[number];

/**
 * The submitted attempts, oldest submission first (ties by result id), each with where the exam's questions sit
 * in its candidate's list.
 */
function submittedInOrder(rows: readonly AttemptRow[], questions: ReadonlyArray<{ id: string }>, arranged: boolean) {
  return rows
    .flatMap((row) =>
      row.result
        ? [{ attemptId: row.attemptId, result: row.result, places: placesOf(questions, row.questionIds, arranged) }]
        : [],
    )
    .sort(
      (a, b) =>
        a.result.completedAt.getTime() - b.result.completedAt.getTime() || a.result.id.localeCompare(b.result.id),
    );
}

/** The exam's index of a candidate's question index (a chat message's open question), null when none. */
function examIndexOf(places: ReadonlyArray<number | undefined>, candidateIndex: number | null): number | null {
  if (candidateIndex === null) return null;
  const i = places.indexOf(candidateIndex);
  return i < 0 ? null : i;
}

const gradeAt = <G>(grades: readonly G[], place: number | undefined) =>
  place === undefined ? undefined : grades[place];

/** Each item's N: how many submitted candidates were given the question (pools draw it for some). */
function withDrawnCounts(report: InsightsReport, drawn: readonly number[]): InsightsReport {
  return { ...report, items: report.items.map((item) => ({ ...item, drawn: drawn[item.questionIndex] ?? 0 })) };
}

/** Puts each candidate's result score (the one every screen shows) beside the psychometric figures. */
function withResultScores(
  report: InsightsReport,
  results: ReadonlyArray<{ id: string; score: number; maxScore: number; status: ResultStatus }>,
): InsightsReport {
  const byId = new Map(results.map((r) => [r.id, r]));
  return {
    ...report,
    candidates: report.candidates.map((c) => {
      const r = byId.get(c.resultId);
      if (!r) return c;
      const result = {
        score: r.score,
        maxScore: r.maxScore,
        percentage: percentageOf(r.score, r.maxScore),
        status: r.status,
      };
      return { ...c, result };
    }),
  };
}

/**
 * Counts, per candidate and over the cohort, the assistant replies the gateway's guardrail stopped because
 * they were about to give an answer key away (TranscriptMessage.isWithheld).
 */
function withWithheldReplies(
  report: InsightsReport,
  messagesByResult: ReadonlyMap<string, ReadonlyArray<{ isWithheld?: boolean | undefined }> | undefined>,
): InsightsReport {
  const countOf = (resultId: string) => (messagesByResult.get(resultId) ?? []).filter((m) => m.isWithheld).length;
  const candidates = report.candidates.map((c) => ({ ...c, answersWithheld: countOf(c.resultId) }));
  const answersWithheld = candidates.reduce((n, c) => n + c.answersWithheld, 0);
  return { ...report, candidates, integrity: { ...report.integrity, answersWithheld } };
}

/**
 * Without transcripts, AI reference, copy writing, Reasoning, AI uplift and assistant use would read as
 * "never used the assistant": they become null (no uplift figures, no buckets) with the reason instead of a
 * made-up number.
 */
export function withoutAssistantFigures(report: InsightsReport, reason: string): InsightsReport {
  const reasons = { ...report.reasons };
  const blank = (key: string) => {
    reasons[key] = reason;
    return null;
  };
  // Who asked is unknown: no counts, no figures, the reason as the caution.
  const blankUplift = (key: string): InsightsUplift => ({
    asked: 0,
    notAsked: 0,
    askedFacility: blank(key),
    notAskedFacility: null,
    difference: null,
    ciLow: null,
    ciHigh: null,
    caution: reason,
  });
  if (report.aiUse) reasons.aiUse = reason;
  return {
    ...report,
    items: report.items.map((item) => ({
      ...item,
      aiReference: blank(`items.${item.questionIndex}.aiReference`),
      aiUplift: blankUplift(`items.${item.questionIndex}.aiUplift`),
    })),
    candidates: report.candidates.map((c) => ({
      ...c,
      copyWriting: blank(`candidates.${c.resultId}.copyWriting`),
      answersWithheld: blank(`candidates.${c.resultId}.answersWithheld`),
      reasoning: blank(`candidates.${c.resultId}.reasoning`),
      badges: { ...c.badges, reasoning: null },
    })),
    topics: report.topics.map((t) => ({ ...t, reasoningPercent: blank(`topics.${t.topic}.reasoningPercent`) })),
    overall: { ...report.overall, reasoningPercent: blank('overall.reasoningPercent') },
    integrity: {
      ...report.integrity,
      copyWritingPercent: blank('integrity.copyWritingPercent'),
      answersWithheld: blank('integrity.answersWithheld'),
    },
    aiUplift: report.aiUplift && {
      overall: blankUplift('overall.aiUplift'),
      topics: report.aiUplift.topics.map((t) => ({ topic: t.topic, ...blankUplift(`topics.${t.topic}.aiUplift`) })),
    },
    aiUse: report.aiUse && { bucketSeconds: report.aiUse.bucketSeconds, buckets: [] },
    reasons,
  };
}
