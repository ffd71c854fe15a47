import { z } from 'zod';
import { SectionMessages } from './candidate-messages.ts';
export { SectionMessages } from './candidate-messages.ts';
import { sectionIndexOf } from './section-rules.ts';
export * from './section-rules.ts';

/**
 * Sections (issue 33, docs/product.md#sections): an exam split into ordered parts, each saying whether the
 * assistant answers while the candidate is in it, and optionally its own time limit. The server is the authority:
 * results-service keeps how far each attempt has got (`attempts.section_index`, `section_started_at`), refuses
 * answer writes to a locked section or one not reached yet, and hands a candidate only the questions of the
 * sections reached; llm-gateway refuses a message while the current section has no assistant
 * (InternalAttempt.assistant). A section the candidate leaves is locked when a later section has the assistant,
 * so help cannot flow back into unaided answers.
 *
 * Items sat in a section with the assistant are the candidate's "aided" set, the others their "unaided" set:
 * the two sets of the aided/unaided ability estimate (@exam/psychometrics aided-ability.ts).
 */

export const MAX_SECTIONS = 20;

export const SectionSchema = z.object({
  id: z.string().min(1).max(64),
  title: z.string().max(200).default(''),
  /** Whether the exam's assistant answers while the candidate is in this section. */
  assistant: z.boolean().default(true),
  /** Minutes the candidate has for this section (scaled by their accommodation); null: only the exam's timer. */
  timeLimitMinutes: z
    .number()
    .int('Enter a whole number of minutes')
    .min(1, 'At least 1 minute')
    .max(24 * 60, 'At most 24 hours')
    .nullable()
    .default(null),
});
export type Section = z.infer<typeof SectionSchema>;

/** What a candidate sees of a section (the same fields: nothing in a section is secret). */
export const PublicSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  assistant: z.boolean(),
  timeLimitMinutes: z.number().int().nullable(),
  /** How many questions of this section the candidate gets (pools draw fewer than they hold). */
  questionCount: z.number().int().nonnegative(),
});
export type PublicSection = z.infer<typeof PublicSectionSchema>;

type Issue = { path: Array<string | number>; message: string };

/**
 * Cross-field rules of sections: ids unique, every question's sectionId names a section, and a pool's questions
 * share one section (a candidate draws the pool in one place). Questions with no sectionId in an exam that has
 * sections belong to the first section.
 */
export function sectionIssues(
  questions: ReadonlyArray<{ sectionId?: string | null; poolId: string | null }>,
  sections: ReadonlyArray<Pick<Section, 'id'>>,
): Issue[] {
  const issues: Issue[] = [];
  const ids = new Set<string>();
  sections.forEach((s, i) => {
    if (ids.has(s.id)) issues.push({ path: ['sections', i, 'id'], message: SectionMessages.duplicateSection });
    ids.add(s.id);
  });
  const poolSection = new Map<string, number>();
  questions.forEach((q, i) => {
    if (q.sectionId != null && !ids.has(q.sectionId)) {
      issues.push({ path: ['questions', i, 'sectionId'], message: SectionMessages.unknownSection });
      return;
    }
    if (q.poolId === null || sections.length === 0) return;
    const section = sectionIndexOf(q, sections);
    const first = poolSection.get(q.poolId);
    if (first === undefined) poolSection.set(q.poolId, section);
    else if (first !== section)
      issues.push({ path: ['questions', i, 'sectionId'], message: SectionMessages.poolAcrossSections });
  });
  return issues;
}

/** How far an attempt has got, as results-service stores it. */
export type SectionProgress = { index: number; startedAt: Date };

/** Where an attempt is at `now`: its section, when that section began, and when it ends (null: no limit). */
export type SectionPosition = { index: number; startedAt: Date; deadline: Date | null };

/**
 * The attempt's section at `now`. A section whose own time limit ran out gives way to the next one at the moment
 * it ended, so the position needs no job to move it: every replica computes the same one from the stored
 * progress. `minutesFor` scales a section's limit for the candidate (their accommodation). The last section keeps
 * its place after its limit: the deadline then says the candidate's time is up (writes refused, the page
 * submits), as the exam's timer does.
 */
export function sectionAt(
  sections: ReadonlyArray<Pick<Section, 'timeLimitMinutes'>>,
  progress: SectionProgress,
  now: Date,
  minutesFor: (minutes: number) => number = (m) => m,
): SectionPosition {
  let index = Math.min(Math.max(progress.index, 0), Math.max(sections.length - 1, 0));
  let startedAt = progress.startedAt;
  for (;;) {
    const limit = sections[index]?.timeLimitMinutes ?? null;
    const deadline = limit === null ? null : new Date(startedAt.getTime() + minutesFor(limit) * 60_000);
    if (deadline === null || now < deadline || index >= sections.length - 1) return { index, startedAt, deadline };
    index += 1;
    startedAt = deadline;
  }
}

/**
 * The type under which results-service records, in its events table, that an attempt entered a section (the
 * section's index in `detail`, the instant it began in `recorded_at`): the timeline's section-start events. Written
 * by the server only; the page cannot send it (it is not one of PROCTOR_EVENT_TYPES).
 */
export const SECTION_START_EVENT = 'section-start';

/** GET /api/attempts/{attemptId} and the advance route: where the candidate is. */
export const SectionStateSchema = z.object({
  /** The current section's index; 0 for an exam without sections. */
  current: z.number().int().nonnegative(),
  startedAt: z.string(),
  /** When the current section's own limit ends; null without one. */
  deadline: z.string().nullable(),
  /** Sections the candidate left that can no longer change. */
  locked: z.array(z.number().int().nonnegative()),
  /** Whether the assistant answers in the current section. */
  assistant: z.boolean(),
});
export type SectionState = z.infer<typeof SectionStateSchema>;

/**
 * POST /api/attempts/{attemptId}/sections/advance: leave section `from` for the next one. `from` makes it
 * idempotent: a retry after the move (or a move already made by the section's time limit) answers the current
 * state, 200, without moving twice.
 */
export const AdvanceSectionSchema = z.object({ from: z.number().int().nonnegative() });
export type AdvanceSection = z.infer<typeof AdvanceSectionSchema>;

/** The ability set of each question of an exam by its section: 'aided' with the assistant, 'unaided' without. */
export type AbilitySet = 'aided' | 'unaided';

/**
 * Each question's ability set, or null for all when the exam does not have both kinds (no sections, the
 * assistant off, or every section alike): then there is no aided/unaided contrast to estimate.
 */
export function abilitySets(exam: {
  aiEnabled: boolean;
  sections: ReadonlyArray<Pick<Section, 'id' | 'assistant'>>;
  questions: ReadonlyArray<{ sectionId?: string | null }>;
}): Array<AbilitySet | null> {
  const sets = exam.questions.map((q): AbilitySet => {
    const section = exam.sections[sectionIndexOf(q, exam.sections)];
    return exam.aiEnabled && section?.assistant ? 'aided' : 'unaided';
  });
  const both = sets.includes('aided') && sets.includes('unaided');
  return both && exam.sections.length > 0 ? sets : sets.map(() => null);
}
