import { CandidateIdSchema, CandidateNameSchema } from './candidate-id.ts';
import { z } from 'zod';
import { ACCESS_MODES } from './candidate-views.ts';
export { ACCESS_MODES } from './candidate-views.ts';
export { WindowMessages } from './candidate-messages.ts';

/**
 * Exams for cohorts (docs/product.md#cohorts): when an exam may be sat, how often, by whom, with what
 * accommodations, and in what order each candidate sees it. Schemas here are the contracts every app and
 * service shares; the rules that apply them live beside them.
 */

/** Which of a candidate's submitted attempts counts as their grade. */
export const KEEP_GRADES = ['highest', 'last', 'first'] as const;
export const KeepGradeSchema = z.enum(KEEP_GRADES);
export type KeepGrade = z.infer<typeof KeepGradeSchema>;

/** Who may start: anyone with the link, anyone who also knows the access code, or the roster's candidates. */
export const AccessModeSchema = z.enum(ACCESS_MODES);
export type AccessMode = z.infer<typeof AccessModeSchema>;

export const MAX_ATTEMPTS_ALLOWED = 20;
/** An accommodation may give at most a week of extra time and at most four times the exam's duration. */
export const MAX_EXTRA_MINUTES = 7 * 24 * 60;
export const MAX_TIME_FACTOR = 4;

/** An instant with its offset ("2026-12-01T09:00:00+01:00" or "…Z"), as every API carries dates. */
export const InstantSchema = z.iso.datetime({ offset: true, error: 'Enter a date and time with its time zone' });

export const AttemptsAllowedSchema = z
  .number({ error: 'Enter a whole number of attempts' })
  .int('Enter a whole number of attempts')
  .min(1, 'At least 1 attempt')
  .max(MAX_ATTEMPTS_ALLOWED, `At most ${MAX_ATTEMPTS_ALLOWED} attempts`);

/**
 * The shortest new access code. A 4-digit code fell to guessing in under a minute; 6 characters of letters and
 * digits (36^6 ≈ 2.2e9) against ACCESS_CODE_FAILURES_PER_EXAM (300 per 10 minutes) would take tens of thousands
 * of years. Codes set before this rule keep working (only their hash is stored, so their length is unknown).
 */
export const ACCESS_CODE_MIN_LENGTH = 6;

/** An access code: write-only (stored hashed by exam-service); a string sets it, null clears it, omitted keeps it. */
export const AccessCodeInputSchema = z
  .string()
  .trim()
  .min(ACCESS_CODE_MIN_LENGTH, `An access code has at least ${ACCESS_CODE_MIN_LENGTH} characters`)
  .max(100, 'An access code has at most 100 characters')
  .nullable()
  .optional();

/** closesAt must come after opensAt; both are optional. */
export function windowIssue(window: {
  opensAt?: string | null | undefined;
  closesAt?: string | null | undefined;
}): { path: string[]; message: string } | null {
  if (!window.opensAt || !window.closesAt) return null;
  return Date.parse(window.closesAt) <= Date.parse(window.opensAt)
    ? { path: ['closesAt'], message: 'The exam must close after it opens' }
    : null;
}

/**
 * A question pool: the exam's questions whose `poolId` names it. Each candidate draws `draw` of them at start,
 * each drawn question worth `points`, so every candidate's pool section is worth the same.
 */
export const PoolSchema = z.object({
  id: z.string().min(1).max(64),
  title: z.string().max(200).default(''),
  draw: z.number().int().min(1, 'Draw at least 1 question').max(500),
  points: z
    .number()
    .positive('Points must be more than 0')
    .max(1000)
    .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, 'Points have at most two decimals')
    .default(1),
});
export type Pool = z.infer<typeof PoolSchema>;

/** Pool references and sizes across an exam: every poolId names a pool, and each pool has enough questions. */
export function poolIssues(
  questions: ReadonlyArray<{ poolId: string | null }>,
  pools: ReadonlyArray<Pool>,
): Array<{ path: Array<string | number>; message: string }> {
  const issues: Array<{ path: Array<string | number>; message: string }> = [];
  const sizes = new Map(pools.map((p) => [p.id, 0]));
  pools.forEach((p, i) => {
    if (pools.findIndex((o) => o.id === p.id) !== i)
      issues.push({ path: ['pools', i, 'id'], message: `Pool id "${p.id}" is used twice in this exam` });
  });
  questions.forEach((q, i) => {
    if (q.poolId === null) return;
    const size = sizes.get(q.poolId);
    if (size === undefined)
      issues.push({ path: ['questions', i, 'poolId'], message: 'No pool of this exam has that id' });
    else sizes.set(q.poolId, size + 1);
  });
  pools.forEach((p, i) => {
    const size = sizes.get(p.id) ?? 0;
    if (p.draw > size)
      issues.push({
        path: ['pools', i, 'draw'],
        message: `The pool has ${size} question${size === 1 ? '' : 's'}, fewer than the ${p.draw} to draw`,
      });
  });
  return issues;
}

/** How many questions each candidate gets: every question outside a pool, and each pool's draw. */
export function questionsPerCandidate(
  questions: ReadonlyArray<{ poolId: string | null }>,
  pools: ReadonlyArray<Pick<Pool, 'id' | 'draw'>>,
): number {
  const pooled = new Set(pools.map((p) => p.id));
  const fixed = questions.filter((q) => q.poolId === null || !pooled.has(q.poolId)).length;
  return fixed + pools.reduce((sum, p) => sum + p.draw, 0);
}

/**
 * One candidate's accommodation (PUT /api/exams/{id}/overrides/{studentId}). An omitted field keeps what the
 * candidate's override already says; null clears it, so the exam's setting applies again. extraMinutes and
 * timeFactor both apply: duration × factor + minutes.
 */
export const OverrideInputSchema = z
  .object({
    extraMinutes: z
      .number({ error: 'Enter a whole number of minutes' })
      .int('Enter a whole number of minutes')
      .min(0, 'Extra time cannot be negative')
      .max(MAX_EXTRA_MINUTES, `At most ${MAX_EXTRA_MINUTES} extra minutes`)
      .nullable()
      .optional(),
    timeFactor: z
      .number({ error: 'Enter a number such as 1.5' })
      .min(1, 'A time factor is at least 1')
      .max(MAX_TIME_FACTOR, `A time factor is at most ${MAX_TIME_FACTOR}`)
      .nullable()
      .optional(),
    opensAt: InstantSchema.nullable().optional(),
    closesAt: InstantSchema.nullable().optional(),
    attemptsAllowed: AttemptsAllowedSchema.nullable().optional(),
  })
  .superRefine((o, ctx) => {
    const issue = windowIssue(o);
    if (issue) ctx.addIssue({ code: 'custom', ...issue });
  });
export type OverrideInput = z.infer<typeof OverrideInputSchema>;

export const OverrideSchema = z.object({
  studentId: z.string(),
  extraMinutes: z.number().int().nullable(),
  timeFactor: z.number().nullable(),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  attemptsAllowed: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type Override = z.infer<typeof OverrideSchema>;
export const OverrideEnvelopeSchema = z.object({ override: OverrideSchema });
export const OverrideListSchema = z.object({ overrides: z.array(OverrideSchema) });
export const OverrideParamsSchema = z.object({
  id: z.string().min(1).max(64),
  studentId: CandidateIdSchema,
});

/** Where an exam's window stands for one candidate at one instant. */
export type WindowState = 'not-yet-open' | 'open' | 'closed';

/**
 * POST /api/attempts/briefing: what the briefing page shows a candidate before Start, for this candidate
 * (their extra time, their window, the attempts they have left). Creates nothing; the clock starts at Start.
 */
export const BriefingRequestSchema = z.object({
  examId: z.string().min(1).max(64),
  name: CandidateNameSchema,
  studentId: CandidateIdSchema,
  accessCode: z.string().max(100).optional(),
  inviteToken: z.string().max(200).optional(),
  /** The grant of an LMS launch, as for POST /api/attempts. */
  ltiGrant: z.string().max(4000).optional(),
});
export type BriefingRequest = z.infer<typeof BriefingRequestSchema>;

export const BriefingSchema = z.object({
  examId: z.string(),
  title: z.string(),
  description: z.string(),
  rules: z.string(),
  /** Minutes this candidate will have (extra time included); null without a timer. */
  durationMinutes: z.number().nullable(),
  /** The exam's own duration, so the page can say how much extra time the candidate has. */
  baseDurationMinutes: z.number().nullable(),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  windowState: z.enum(['not-yet-open', 'open', 'closed']),
  fullScreenEnabled: z.boolean(),
  workspaceEnabled: z.boolean(),
  assistantEnabled: z.boolean(),
  questionCount: z.number().int(),
  attemptsAllowed: z.number().int(),
  attemptsUsed: z.number().int(),
  /** A practice exam (practice.ts): attemptsAllowed does not apply, the candidate may start again and again. */
  practice: z.boolean().default(false),
  /** An attempt of this candidate is in progress: Start resumes it. */
  inProgress: z.boolean(),
  serverNow: z.string(),
});
export type Briefing = z.infer<typeof BriefingSchema>;

/**
 * The rules applying the schemas above (docs/product.md#windows-attempts-and-accommodations). What an exam
 * says, then what one candidate's override changes: the override's own values win, its nulls fall back.
 */
export type ExamCohortRules = {
  opensAt: string | null;
  closesAt: string | null;
  attemptsAllowed: number;
  timerEnabled: boolean;
  timerMinutes: number;
};
export type CandidateOverride = Pick<
  Override,
  'extraMinutes' | 'timeFactor' | 'opensAt' | 'closesAt' | 'attemptsAllowed'
>;

/** The candidate's window: their override's opening and closing where set, the exam's otherwise. */
export function effectiveWindow(
  exam: Pick<ExamCohortRules, 'opensAt' | 'closesAt'>,
  override?: Pick<CandidateOverride, 'opensAt' | 'closesAt'> | null,
): { opensAt: string | null; closesAt: string | null } {
  return { opensAt: override?.opensAt ?? exam.opensAt, closesAt: override?.closesAt ?? exam.closesAt };
}

/** Open from opensAt (included) until closesAt (excluded); an open end never limits. */
export function windowState(window: { opensAt: string | null; closesAt: string | null }, now: Date): WindowState {
  if (window.opensAt && now.getTime() < Date.parse(window.opensAt)) return 'not-yet-open';
  if (window.closesAt && now.getTime() >= Date.parse(window.closesAt)) return 'closed';
  return 'open';
}

/** Minutes this candidate has: the exam's timer × their factor + their extra minutes; null without a timer. */
export function candidateDurationMinutes(
  exam: Pick<ExamCohortRules, 'timerEnabled' | 'timerMinutes'>,
  override?: Pick<CandidateOverride, 'extraMinutes' | 'timeFactor'> | null,
): number | null {
  if (!exam.timerEnabled) return null;
  return exam.timerMinutes * (override?.timeFactor ?? 1) + (override?.extraMinutes ?? 0);
}

/**
 * When an attempt started at `startedAt` must end: its duration from the start, but never after the
 * candidate's window closes (the finalizer submits at that instant). Without a timer, the close or null.
 */
export function attemptDeadline(startedAt: Date, durationMinutes: number | null, closesAt: string | null): Date | null {
  const byTimer = durationMinutes === null ? null : startedAt.getTime() + Math.round(durationMinutes * 60_000);
  const byClose = closesAt ? Date.parse(closesAt) : null;
  if (byTimer === null) return byClose === null ? null : new Date(byClose);
  return new Date(byClose === null ? byTimer : Math.min(byTimer, byClose));
}

/** Attempts the candidate may still start: the override's count when set, else the exam's, less those used. */
export function attemptsLeft(
  exam: Pick<ExamCohortRules, 'attemptsAllowed'>,
  override: Pick<CandidateOverride, 'attemptsAllowed'> | null | undefined,
  used: number,
): number {
  return Math.max(0, (override?.attemptsAllowed ?? exam.attemptsAllowed) - used);
}

/** A submitted attempt as keepGrade compares them: its number (1 = first) and its score. */
export type GradedAttempt = { attemptNo: number; score: number; maxScore: number };

const shareOf = (a: GradedAttempt) => (a.maxScore > 0 ? a.score / a.maxScore : 0);

/**
 * Which of one candidate's submitted attempts counts: the highest percentage (ties to the earliest
 * attempt), the last or the first. undefined when there is none.
 */
export function keptAttempt<T extends GradedAttempt>(attempts: readonly T[], keep: KeepGrade): T | undefined {
  let kept: T | undefined;
  for (const a of attempts) {
    if (kept === undefined) kept = a;
    else if (keep === 'last' ? a.attemptNo > kept.attemptNo : keep === 'first' ? a.attemptNo < kept.attemptNo : false)
      kept = a;
    else if (keep === 'highest') {
      const diff = shareOf(a) - shareOf(kept);
      if (diff > 1e-12 || (Math.abs(diff) <= 1e-12 && a.attemptNo < kept.attemptNo)) kept = a;
    }
  }
  return kept;
}
