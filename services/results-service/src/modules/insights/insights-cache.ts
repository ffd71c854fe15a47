import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';
import type { InternalExam } from '@exam/domain/internal';
import { InsightsReportSchema, type InsightsModelRequest } from '@exam/domain/insights';
import type { AttemptTranscript, Deps, ExamSource, TranscriptSource } from '../../deps.ts';
import type { RefreshKeepGrade } from '../accommodations/keep-grade-refresh.ts';
import type { RatingPair } from '@exam/psychometrics/agreement';
import { withCollaboration, type CollaborationCohortInputs } from '../collaboration/collaboration-cohort.ts';
import type { CollaborationCohort } from '../collaboration/collaboration.module.ts';
import { agreementFigures } from '../suggestions/grading-agreement.service.ts';
import type { InsightsCacheRepository } from './insights-cache.repository.ts';
import type { InsightsService, ReportTimer } from './insights.service.ts';

const gzipped = promisify(gzip);
const gunzipped = promisify(gunzip);
/**
 * A fast level: 10,000 × 50 compresses from 5.3 MB to about a tenth either way, and a lower level costs less
 * on the request that computes the report. Compression runs on libuv's thread pool, off the event loop.
 */
const GZIP_LEVEL = 3;

/** The report's JSON: gzip as stored, and the text when this request has it (computed afresh). */
export type InsightsBody = { gzip: Buffer; text: string | null };

/** The body as text, for a client that does not accept gzip. */
export async function textOf(body: InsightsBody): Promise<string> {
  return body.text ?? (await gunzipped(body.gzip)).toString('utf8');
}

const untimed: ReportTimer = { time: (_phase, run) => run(), timeAsync: (_phase, run) => run() };

/** What the report read from another service during one request: the value, or the error it failed with. */
type Read<T> = { value: T } | { error: unknown };
const readOf = <T>(promise: Promise<T>): Promise<Read<T>> =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const replay = <T>(read: Read<T>): Promise<T> =>
  'value' in read ? Promise.resolve(read.value) : Promise.reject(read.error);

/** Changes whenever the report's figures are computed differently, so bodies cached before are recomputed. */
const REPORT_FORMAT = 'ranked-by-weighted-score';

/**
 * A digest of what the report takes from other services. The exam counts by its questions and pools (an
 * arranged exam's report reads them from exam-service), its sections and assistant settings (aided/unaided sets,
 * planted errors); the transcripts by every message, sorted by attempt
 * so llm-gateway's row order does not matter. llm-gateway has no cheaper change marker: messages are updated
 * in place (partial and withheld replies), so a count or a highest id would miss changes.
 */
function inputsDigest(
  exam: Read<InternalExam | undefined>,
  transcripts: Read<AttemptTranscript[]>,
  agreementPairs: ReadonlyMap<number, readonly RatingPair[]>,
  judgements: CollaborationCohortInputs['judgements'],
): string {
  const hash = createHash('sha256');
  // How the report is computed: a body cached by an older computation (ranked by items correct) is never served.
  hash.update(`format:${REPORT_FORMAT}\u0000`);
  if ('error' in exam) hash.update('exam:unavailable');
  else if (!exam.value) hash.update('exam:none');
  else
    hash.update(
      JSON.stringify({
        ownerId: exam.value.ownerId,
        questions: exam.value.questions,
        pools: exam.value.pools,
        // The aided/unaided sets follow the sections and whether the assistant is on; reliance says if errors are planted.
        sections: exam.value.sections,
        assistant: exam.value.aiSettings.enabled,
        plantedErrors: exam.value.aiSettings.plantedErrors,
      }),
    );
  hash.update('\u0000');
  if ('error' in transcripts) hash.update('transcripts:unavailable');
  else {
    const sorted = [...transcripts.value].sort((a, b) =>
      a.attemptId < b.attemptId ? -1 : a.attemptId > b.attemptId ? 1 : 0,
    );
    for (const t of sorted) hash.update(JSON.stringify(t)).update('\u0000');
  }
  // A new suggestion bumps no insights version (it changes no result): its pairs are part of the key instead.
  hash.update('\u0000agreement:');
  for (const [questionIndex, pairs] of [...agreementPairs].sort(([a], [b]) => a - b))
    hash.update(JSON.stringify([questionIndex, pairs.map((p) => [p.suggested, p.human])]));
  // A collaboration level a grader sets changes no result either: the judgements are part of the key.
  hash.update('\u0000collaboration:');
  const sortedJudgements = [...judgements].sort((a, b) =>
    a.resultId === b.resultId ? a.dimension.localeCompare(b.dimension) : a.resultId < b.resultId ? -1 : 1,
  );
  for (const j of sortedJudgements)
    hash.update(JSON.stringify([j.resultId, j.dimension, j.suggestedLevel, j.status, j.finalLevel]));
  return hash.digest('base64url');
}

export type InsightsCacheDeps = {
  repo: InsightsCacheRepository;
  examSource: ExamSource;
  transcripts: TranscriptSource;
  clock: Deps['clock'];
  refreshKeepGrade: RefreshKeepGrade;
  /** The (suggested, human) pairs of the exam's AI-suggested marks per question, read with one query (modules/suggestions). */
  gradingAgreement: { pairsOf(examId: string, ownerId: string): Promise<Map<number, RatingPair[]>> };
  /** The exam's collaboration judgements and process totals (modules/collaboration), one query each. */
  collaborationCohort: CollaborationCohort;
  /** The report service reading the exam and the transcripts from the given sources (this request's reads). */
  reportWith(sources: { examSource: ExamSource; transcripts: TranscriptSource }): InsightsService;
};

/**
 * GET /api/exams/{id}/insights as JSON (gzip, and text when computed), cached in the database (insights_reports) so every replica
 * shares it. A cached body is served only when nothing it was computed from has changed since:
 * - the exam's results, attempts and keepGrade: triggers add 1 to the exam's insights version in the same
 *   transaction as every write (migration insights_cache); the version is read before the report reads
 *   anything, so a write that lands during the computation leaves the stored body already out of date;
 *   (the answer operations the reliance figures replay are written before the submission that bumps it);
 * - the exam from exam-service and llm-gateway's transcripts: read first, once, digested into the key, and
 *   handed to the report as they were read, so the body is exactly what those reads give.
 * A hit is the bytes a fresh computation sends: both are JSON.stringify of the report checked by the response
 * schema, which is what the route's serializer (fastify-type-provider-zod) does with an object.
 */
export function createInsightsCache(deps: InsightsCacheDeps) {
  return {
    async reportJson(
      examId: string,
      ownerId: string,
      model: InsightsModelRequest = 'auto',
      timer: ReportTimer = untimed,
    ): Promise<InsightsBody> {
      const [exam, transcripts, agreementPairs, judgements] = await Promise.all([
        timer.timeAsync('exam', async () => {
          const read = await readOf(deps.examSource.findExam(examId));
          // Best effort, as before: without exam-service the rule last seen stands.
          if ('value' in read) await deps.refreshKeepGrade(examId, ownerId, { exam: read.value });
          return read;
        }),
        timer.timeAsync('transcripts', () => readOf(deps.transcripts.listExamTranscripts(examId))),
        timer.timeAsync('agreement', () => deps.gradingAgreement.pairsOf(examId, ownerId)),
        timer.timeAsync('collaboration', () => deps.collaborationCohort.examJudgements(examId, ownerId)),
      ]);
      const key = { examId, ownerId, model };
      const digest = inputsDigest(exam, transcripts, agreementPairs, judgements);
      const cached = await timer.timeAsync('cache', () => deps.repo.lookup(key, digest));
      if (cached.bodyGzip !== null) return { gzip: cached.bodyGzip, text: null };

      const service = deps.reportWith({
        examSource: { findExam: (id) => (id === examId ? replay(exam) : deps.examSource.findExam(id)) },
        transcripts: {
          listExamTranscripts: (id) => (id === examId ? replay(transcripts) : deps.transcripts.listExamTranscripts(id)),
        },
      });
      // Process totals only on a miss: results.process is a result, whose writes bump the version already.
      const [built, process] = await Promise.all([
        service.report(examId, ownerId, timer, model),
        timer.timeAsync('collaboration', () => deps.collaborationCohort.processTotals(examId, ownerId)),
      ]);
      const report = {
        ...timer.time('collaboration', () => withCollaboration(built, { judgements, process })),
        gradingAgreement: timer.time('agreement', () =>
          agreementFigures(agreementPairs, 'value' in exam ? exam.value : undefined),
        ),
      };
      const text = timer.time('serialize', () => JSON.stringify(InsightsReportSchema.parse(report)));
      const gzip = await timer.timeAsync('gzip', () =>
        gzipped(text, { level: GZIP_LEVEL, strategy: constants.Z_DEFAULT_STRATEGY }),
      );
      await timer.timeAsync('cache', () => deps.repo.store(key, cached.version, digest, gzip, deps.clock.now()));
      return { gzip, text };
    },
  };
}
export type InsightsCache = ReturnType<typeof createInsightsCache>;
