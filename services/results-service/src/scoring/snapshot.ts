import { repositoryRoots, withWorkspaceFiles } from '@exam/domain/coding';
import { arrangedQuestions, arrangeExam, isArranged } from '@exam/domain/arrangement';
import { CodingWorkspaceSchema, QuestionDisplaySchema, ReleasePolicySchema } from '@exam/domain/exam';
import { FollowUpSettingsSchema } from '@exam/domain/follow-up';
import { QuestionSchema, RubricSchema } from '@exam/domain/question';
import { SectionSchema } from '@exam/domain/sections';
import { instantiateQuestion, keyedForValues } from '@exam/domain/calculated';
import { PassageSchema, passagesFor } from '@exam/domain/passages';
import { ReviewWindowSchema } from '@exam/domain/practice';
import type { InternalExam } from '@exam/domain/internal';
import { UnansweredPolicySchema } from '@exam/domain/unanswered';
import { z } from 'zod';

/** Snapshots written since questions had points carry every field (toSnapshot, withCurrentKeys). */
export const SNAPSHOT_VERSION = 2;

/**
 * What an attempt keeps of its exam at start: enough to grade and to show the result later. Snapshots kept
 * before a field existed read with its default (questions worth 1 point, no rubrics, results shown on
 * release, keys hidden).
 */
export const ExamSnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION).default(SNAPSHOT_VERSION),
  title: z.string(),
  ownerId: z.string(),
  timerEnabled: z.boolean(),
  timerMinutes: z.number(),
  questions: z.array(QuestionSchema),
  codingWorkspace: CodingWorkspaceSchema,
  rubrics: z.array(RubricSchema).default([]),
  releasePolicy: ReleasePolicySchema.default('on-release'),
  showAnswerKeys: z.boolean().default(false),
  /**
   * What an unanswered question scores (@exam/domain/unanswered), as the exam said at start; a regrade takes the
   * exam's current one. Absent from snapshots kept before the setting existed: 'zero', the default.
   */
  unansweredPolicy: UnansweredPolicySchema.optional(),
  /** What the candidate reads around the questions. Attempts started before these were kept lack them. */
  description: z.string().optional(),
  header: z.string().optional(),
  rules: z.string().optional(),
  fullScreenEnabled: z.boolean().optional(),
  questionDisplay: QuestionDisplaySchema.optional(),
  /**
   * The exam's sections at start (@exam/domain/sections), kept only when it has some: an attempt follows the
   * sections it started with whatever the creator changes since. Absent: an undivided exam, or a snapshot kept
   * before sections existed.
   */
  sections: z.array(SectionSchema).optional(),
  /**
   * Follow-up questions after submit (@exam/domain/follow-up), kept only when the exam's assistant and its follow-up
   * were on at start: the briefing told the candidate so, and the submission copies them to its follow_ups row.
   * Absent: no follow-up (or a snapshot kept before follow-ups existed).
   */
  followUp: FollowUpSettingsSchema.optional(),
  /**
   * The candidate's own arrangement (@exam/domain/arrangement), when the exam shuffles or draws from pools:
   * `questions` above are then the candidate's, in their order (answers are addressed by that index), and
   * sourceIndices[i] is questions[i]'s index in the exam at start. Questions keep the creator's ids, by which
   * regrade, the CSV export and insights map back.
   */
  /**
   * Where each agentic task's repository sits in the workspace, by question id (@exam/domain/coding repositoryRoots),
   * computed at start from the whole exam as the orchestrator seeds it. Absent: no question had a repository.
   */
  repositoryRoots: z.record(z.string(), z.string()).optional(),
  /**
   * The exam's shared passages (@exam/domain/passages) that the candidate's questions refer to, as they were at
   * start; whether it is a practice exam, and its review window (@exam/domain/practice). Absent from snapshots
   * kept before these existed: no passages, a real exam, no review.
   */
  passages: z.array(PassageSchema).optional(),
  practice: z.boolean().optional(),
  review: ReviewWindowSchema.optional(),
  arrangement: z
    .object({
      seed: z.string(),
      sourceIndices: z.array(z.number().int().nonnegative()),
      /** The exam's question count at start (pools hold more than a candidate draws). */
      examQuestionCount: z.number().int().nonnegative(),
    })
    .optional(),
});
export type ExamSnapshot = z.infer<typeof ExamSnapshotSchema>;

/**
 * A stored snapshot as the current code reads it. One of this version was written from an already parsed
 * exam and is taken as stored: parsing it again would cost every read of an attempt (a submission burst
 * reads thousands) some hundred microseconds of CPU for nothing. Older ones are parsed for their defaults.
 */
export function parseSnapshot(stored: unknown): ExamSnapshot {
  if ((stored as { version?: unknown } | null)?.version === SNAPSHOT_VERSION) return stored as ExamSnapshot;
  return ExamSnapshotSchema.parse(stored);
}

/**
 * The snapshot an attempt keeps at start. `arrangementSeed` (the attempt's id) fixes the candidate's draw and
 * order when the exam shuffles or has pools; the same seed always gives the same arrangement. With sections the
 * candidate's questions run through the sections in order, so those of the sections reached are a prefix.
 * The same seed draws each calculated question's values (@exam/domain/calculated), once the questions are
 * arranged: the snapshot holds the candidate's text, values and key, which scoring reads and the candidate's
 * view strips of everything but the text.
 */
export function toSnapshot(exam: InternalExam, arrangementSeed: string): ExamSnapshot {
  const arrangement = isArranged(exam) ? arrangeExam(exam, arrangementSeed) : null;
  // Each coding question's workspace file is fixed from the exam's own order, before a candidate's arrangement.
  const examQuestions = withWorkspaceFiles(exam.questions, exam.codingWorkspace);
  const questions = (arrangement ? arrangedQuestions(examQuestions, arrangement) : examQuestions).map((q) =>
    instantiateQuestion(q, arrangementSeed),
  );
  return {
    version: SNAPSHOT_VERSION,
    title: exam.title,
    ownerId: exam.ownerId,
    timerEnabled: exam.timerEnabled,
    timerMinutes: exam.timerMinutes,
    questions,
    codingWorkspace: exam.codingWorkspace,
    rubrics: exam.rubrics,
    releasePolicy: exam.releasePolicy,
    showAnswerKeys: exam.showAnswerKeys,
    unansweredPolicy: exam.unansweredPolicy,
    description: exam.description,
    header: exam.header,
    rules: exam.rules,
    fullScreenEnabled: exam.fullScreenEnabled,
    questionDisplay: exam.questionDisplay,
    ...(exam.sections?.length ? { sections: exam.sections } : {}),
    ...(exam.aiSettings.enabled && exam.aiSettings.followUp.enabled ? { followUp: exam.aiSettings.followUp } : {}),
    ...(exam.questions.some((q) => q.repository) ? { repositoryRoots: repositoryRoots(exam.questions) } : {}),
    passages: passagesFor(exam.passages, questions),
    practice: exam.practice,
    review: exam.review,
    ...(arrangement
      ? {
          arrangement: {
            seed: arrangementSeed,
            sourceIndices: arrangement.map((a) => a.sourceIndex),
            examQuestionCount: exam.questions.length,
          },
        }
      : {}),
  };
}

type SnapshotQuestion = ExamSnapshot['questions'][number];

/**
 * The keys of the further types (@exam/domain/question-kinds) a regrade takes from the current question. A
 * calculated question keeps the values its candidate was given (whatever the creator did to the ranges since) and
 * is keyed again with the current formula on them; one given no values (no finite draw) keeps waiting for a grader.
 * Snapshots kept before these types existed lack the fields, and take none.
 */
function keysOfKinds(q: SnapshotQuestion, now: SnapshotQuestion): Partial<SnapshotQuestion> {
  switch (now.type) {
    case 'ordering':
      return { items: now.items };
    case 'matching':
      return { pairs: now.pairs, distractors: now.distractors };
    case 'fill-blanks':
      return { blanks: now.blanks };
    case 'numeric':
      return { units: now.units };
    case 'calculated': {
      const values = q.type === 'calculated' ? q.calculated?.values : undefined;
      if (!now.calculated || !values || Object.keys(values).length === 0)
        return { calculated: q.calculated ?? null, acceptedAnswers: q.acceptedAnswers, units: now.units };
      const keyed = keyedForValues({ ...q, calculated: now.calculated }, values);
      return { calculated: keyed.calculated, acceptedAnswers: keyed.acceptedAnswers, units: now.units };
    }
    default:
      return {};
  }
}

/**
 * The snapshot with the scoring fields of every question the current exam still has (matched by id:
 * points, keys, scoring rule, matching and rubric) and the exam's rubrics. The wording and options stay as
 * the candidate saw them (in the candidate's order); questions the exam no longer has keep their snapshot
 * keys. A question the exam keeps in a pool is worth the pool's current points per draw.
 */
export function withCurrentKeys(
  snapshot: ExamSnapshot,
  exam: Pick<InternalExam, 'questions' | 'rubrics'> & {
    pools?: InternalExam['pools'];
    unansweredPolicy?: InternalExam['unansweredPolicy'];
  },
): ExamSnapshot {
  const current = new Map(exam.questions.map((q) => [q.id, q]));
  const pools = new Map((exam.pools ?? []).map((p) => [p.id, p]));
  const questions = snapshot.questions.map((q) => {
    const now = current.get(q.id);
    if (!now) return q;
    // The snapshot's single-answer key goes: the current one replaces it, or there is none.
    const { correctAnswer: _replaced, ...wording } = q;
    return {
      ...wording,
      points: (now.poolId === null ? undefined : pools.get(now.poolId)?.points) ?? now.points,
      poolId: now.poolId,
      ...(now.correctAnswer !== undefined ? { correctAnswer: now.correctAnswer } : {}),
      correctAnswers: now.correctAnswers,
      multipleAnswers: now.multipleAnswers,
      scoring: now.scoring,
      acceptedAnswers: now.acceptedAnswers,
      matching: now.matching,
      rubricId: now.rubricId,
      // Coding graded by tests: the current tests decide (a changed one is run again by the regrade).
      ...(now.type === 'coding'
        ? { language: now.language, tests: now.tests, limits: now.limits, setupScript: now.setupScript }
        : {}),
      ...keysOfKinds(q, now),
    };
  });
  return {
    ...snapshot,
    questions,
    rubrics: exam.rubrics,
    ...(exam.unansweredPolicy ? { unansweredPolicy: exam.unansweredPolicy } : {}),
  };
}
