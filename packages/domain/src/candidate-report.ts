import { z } from 'zod';
import { CollaborationDimensionSchema, CollaborationLevelSchema } from './collaboration.ts';
import { RESULT_STATUSES } from './grading.ts';
import { percentileRank } from './typing-signals.ts';

/**
 * The candidate report (docs/product.md#candidate-report): one printable page about one attempt that the exam's
 * creator shares with people who have never seen the platform (a hiring panel), by a link that expires. The link's
 * token is shown once, in the URL; the server keeps only its SHA-256. The report shows the score, the results per
 * topic, the place in the cohort, the time, how the answers came to be and how the candidate worked with the
 * assistant, and the integrity observations. Never the answers, the keys or another candidate's data beyond the
 * percentile.
 */

/** The expiry choices the creator app offers (days); any whole number of days up to the maximum is accepted. */
export const REPORT_LINK_EXPIRY_CHOICES = [1, 7, 30, 90] as const;
export const REPORT_LINK_MAX_DAYS = 90;

/** Below this many graded candidates the percentile is withheld: in a cohort of three it would name people. */
export const REPORT_MIN_COHORT = 5;

export const CreateReportLinkSchema = z.object({
  expiresInDays: z
    .number({ error: 'Choose how many days the link stays valid' })
    .int('Choose a whole number of days')
    .min(1, 'A link stays valid at least 1 day')
    .max(REPORT_LINK_MAX_DAYS, `A link stays valid at most ${REPORT_LINK_MAX_DAYS} days`),
});
export type CreateReportLink = z.infer<typeof CreateReportLinkSchema>;

export const REPORT_LINK_STATES = ['active', 'expired', 'revoked'] as const;

/** A share link as its creator lists it: never the token (only its hash is kept). */
export const ReportLinkSchema = z.object({
  id: z.string(),
  resultId: z.string(),
  state: z.enum(REPORT_LINK_STATES),
  createdAt: z.string(),
  /** The creator's e-mail. */
  createdBy: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastOpenedAt: z.string().nullable(),
  openCount: z.number().int().nonnegative(),
});
export type ReportLink = z.infer<typeof ReportLinkSchema>;

/** POST /api/results/{id}/report-links: the new link with its token, the one time the token is handed out. */
export const CreatedReportLinkSchema = ReportLinkSchema.extend({ token: z.string() });
export type CreatedReportLink = z.infer<typeof CreatedReportLinkSchema>;

export const ReportLinkListSchema = z.object({ links: z.array(ReportLinkSchema) });
export type ReportLinkList = z.infer<typeof ReportLinkListSchema>;

export const ReportLinkParamsSchema = z.object({
  id: z.string().min(1).max(64),
  linkId: z.string().min(1).max(64),
});

/** 32 random bytes in base64url (43 characters): what the link carries. */
export const ReportTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not a report link'),
});

/** One row of the results per topic: a topic, a section or (without either) a question, in the exam's order. */
export const ReportTopicSchema = z.object({
  /** The topic, the section's title or the question's title; '' for no topic or an untitled section. */
  label: z.string(),
  /** The row's place: the question's or section's number in the exam, or the topic's in the list. */
  number: z.number().int(),
  points: z.number(),
  maxPoints: z.number(),
  questions: z.number().int(),
  /** Questions of this row still waiting for a grader (their points count as 0 until then). */
  pending: z.number().int(),
});
export type ReportTopic = z.infer<typeof ReportTopicSchema>;

/** An observation from the attempt's proctoring events: how often, and for how long in all (null: not timed). */
export const ReportObservationSchema = z.object({ count: z.number().int(), seconds: z.number().int().nullable() });

/** GET /api/reports/{token}: the report, for anyone holding the link. */
export const CandidateReportSchema = z.object({
  candidate: z.object({ name: z.string(), studentId: z.string() }),
  exam: z.object({ title: z.string() }),
  attemptNo: z.number().int(),
  startedAt: z.string(),
  submittedAt: z.string(),
  score: z.object({
    points: z.number(),
    maxPoints: z.number(),
    percentage: z.number(),
    /** 'pending': some question waits for a grader, so the score counts only what is marked so far. */
    status: z.enum(RESULT_STATUSES),
  }),
  topics: z.object({ groupedBy: z.enum(['topic', 'section', 'question']), rows: z.array(ReportTopicSchema) }),
  /**
   * Where the percentage stands among the exam's graded candidates (each candidate's kept result, this one in place
   * of theirs): the mid-rank percentile rank. null below REPORT_MIN_COHORT or while this result is pending.
   */
  percentile: z.object({
    value: z.number().nullable(),
    cohortSize: z.number().int(),
    minimumCohort: z.number().int(),
    withheld: z.enum(['small-cohort', 'pending']).nullable(),
  }),
  time: z.object({
    spentSeconds: z.number().int(),
    /** The time this candidate had (their accommodation included); null for an untimed attempt. */
    limitSeconds: z.number().int().nullable(),
  }),
  /** Shares of the final answers' characters by source; null when the attempt's edits were not recorded. */
  process: z
    .object({
      characters: z.number().int(),
      typedPercent: z.number().int(),
      pastedPercent: z.number().int(),
      assistantPercent: z.number().int(),
      autocompletePercent: z.number().int(),
      restoredPercent: z.number().int(),
      assistantMessages: z.number().int(),
    })
    .nullable(),
  /**
   * The collaboration profile's levels (null level: not assessed yet). `not-used`: the candidate neither wrote to
   * the assistant nor took text from it; `unavailable`: the profile could not be read right now.
   */
  collaboration: z.object({
    state: z.enum(['shown', 'not-used', 'unavailable']),
    dimensions: z.array(
      z.object({
        dimension: CollaborationDimensionSchema,
        level: CollaborationLevelSchema.nullable(),
        basis: z.enum(['process', 'judgement']),
      }),
    ),
  }),
  integrity: z.object({
    fullScreenRequired: z.boolean(),
    focusLost: ReportObservationSchema,
    fullscreenExits: ReportObservationSchema,
    pastesBlocked: z.number().int(),
  }),
  expiresAt: z.string(),
});
export type CandidateReport = z.infer<typeof CandidateReportSchema>;

export const ReportMessages = {
  /** Unknown, expired and revoked links all answer this, so a link's fate is not told to whoever holds it. */
  notFound: 'This report link is not valid: it may have expired or been withdrawn.',
  tooManyReads: (seconds: number) => `Too many report reads from your network; try again in ${seconds} s.`,
} as const;

/**
 * The percentile of `value` among `cohort` (which includes it): the mid-rank percentile rank, the share of the
 * cohort below plus half the share equal (Crocker & Algina, "Introduction to Classical and Modern Test Theory",
 * 1986, ch. 19), so a cohort's middle candidate is at 50 whatever the ties. Withheld below `minimum` candidates.
 */
export function cohortPercentile(
  cohort: ReadonlyArray<number>,
  value: number,
  minimum = REPORT_MIN_COHORT,
): { value: number | null; cohortSize: number; withheld: 'small-cohort' | null } {
  if (cohort.length < minimum) return { value: null, cohortSize: cohort.length, withheld: 'small-cohort' };
  return { value: percentileRank(cohort, value), cohortSize: cohort.length, withheld: null };
}

type GradedQuestion = {
  title: string;
  topic: string;
  sectionId: string | null;
  maxPoints: number;
  /** null while a grader has not marked it. */
  points: number | null;
};

/**
 * The results per topic, in the exam's order (the order of `questions`): by topic when the questions name two or
 * more, else by section when the exam has two or more, else one row per question. A row's `number` is its place
 * (the question's number, or the section's); `label` is '' for a question without a topic or an untitled section,
 * which the page names by its number.
 */
export function topicResults(
  questions: ReadonlyArray<GradedQuestion>,
  sections: ReadonlyArray<{ id: string; title: string }>,
): CandidateReport['topics'] {
  const topics = new Set(questions.map((q) => q.topic.trim()).filter(Boolean));
  const groupedBy: CandidateReport['topics']['groupedBy'] =
    topics.size >= 2 ? 'topic' : sections.length >= 2 ? 'section' : 'question';
  // A question without a section sits in the first one (sections.ts).
  const sectionOf = (q: GradedQuestion) =>
    Math.max(
      0,
      sections.findIndex((s) => s.id === q.sectionId),
    );
  const rowOf = (q: GradedQuestion, i: number): { key: string; label: string; number: number } => {
    if (groupedBy === 'topic') return { key: `t:${q.topic.trim()}`, label: q.topic.trim(), number: 0 };
    if (groupedBy === 'section') {
      const s = sectionOf(q);
      return { key: `s:${s}`, label: sections[s]!.title.trim(), number: s + 1 };
    }
    return { key: `q:${i}`, label: q.title, number: i + 1 };
  };
  const rows = new Map<string, ReportTopic>();
  questions.forEach((q, i) => {
    const { key, label, number } = rowOf(q, i);
    const row = rows.get(key) ?? { label, number, points: 0, maxPoints: 0, questions: 0, pending: 0 };
    // Points have at most two decimals (question.ts): sums are kept in hundredths.
    row.points = Math.round((row.points + (q.points ?? 0)) * 100) / 100;
    row.maxPoints = Math.round((row.maxPoints + q.maxPoints) * 100) / 100;
    row.questions++;
    if (q.points === null) row.pending++;
    rows.set(key, row);
  });
  const list = [...rows.values()];
  // Topics are numbered in the order they first appear; the one without a topic goes last.
  if (groupedBy === 'topic') {
    list.sort((a, b) => Number(a.label === '') - Number(b.label === ''));
    list.forEach((row, i) => (row.number = i + 1));
  }
  return { groupedBy, rows: list };
}

/**
 * How often the candidate was away (`leave` events, e.g. focus-lost) and for how long in all: each leave lasts
 * until the next `back` event (focus-gained) or, without one, until `endAt`. Times are the server's. Events must
 * be in time order.
 */
export function awayTime(
  events: ReadonlyArray<{ type: string; at: Date }>,
  leave: string,
  back: string,
  endAt: Date,
): { count: number; seconds: number } {
  let count = 0;
  let ms = 0;
  let since: Date | null = null;
  for (const event of events) {
    if (event.type === leave) {
      count++;
      since ??= event.at;
    } else if (event.type === back && since) {
      ms += Math.max(0, event.at.getTime() - since.getTime());
      since = null;
    }
  }
  if (since) ms += Math.max(0, endAt.getTime() - since.getTime());
  return { count, seconds: Math.round(ms / 1000) };
}
