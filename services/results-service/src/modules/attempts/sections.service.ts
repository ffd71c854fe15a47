import { AttemptMessages, DEADLINE_GRACE_SECONDS } from '@exam/domain/attempt';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  assistantOpenIn,
  isSectionLocked,
  lockedMessage,
  lockedSections,
  sectionAt,
  sectionIndexOf,
  SectionMessages,
  type Section,
  type SectionPosition,
  type SectionProgress,
  type SectionState,
} from '@exam/domain/sections';
import type { Deps } from '../../deps.ts';
import type { ExamSnapshot } from '../../scoring/snapshot.ts';
import type { SectionProgressRepository, SectionProgressRow, SectionStart } from './section-progress.repository.ts';

const GRACE_MS = DEADLINE_GRACE_SECONDS * 1000;

/** An attempt's sections and the section of each of the candidate's questions (by the candidate's index). */
export type SectionLayout = { sections: Section[]; questionSections: number[] };

/** The layout of a snapshot: it never changes for an attempt. */
export function layoutOf(snapshot: Pick<ExamSnapshot, 'sections' | 'questions'>): SectionLayout {
  const sections = snapshot.sections ?? [];
  return { sections, questionSections: snapshot.questions.map((q) => sectionIndexOf(q, sections)) };
}

/**
 * A section's limit for this candidate. Their accommodation's time factor scales each section's limit as it scales
 * the exam's timer (@exam/domain/cohort candidateDurationMinutes: timer × factor + extra minutes); the extra
 * minutes are one allowance for the whole exam, so they go to the exam's deadline and not to any one section. The
 * override is read live, as a change to it during the attempt moves the exam's deadline at once.
 */
export const scaleBy =
  (timeFactor: number | null) =>
  (minutes: number): number =>
    minutes * (timeFactor ?? 1);

/** The sections entered after `from` up to `to`, each beginning when the one before ran out (sectionAt's rule). */
export function derivedStarts(
  sections: ReadonlyArray<Pick<Section, 'timeLimitMinutes'>>,
  from: SectionProgress,
  to: number,
  minutesFor: (minutes: number) => number,
): SectionStart[] {
  const starts: SectionStart[] = [];
  let index = from.index;
  let at = from.startedAt;
  while (index < to) {
    const limit = sections[index]?.timeLimitMinutes;
    if (limit == null) break;
    at = new Date(at.getTime() + minutesFor(limit) * 60_000);
    index += 1;
    starts.push({ index, at });
  }
  return starts;
}

const storedOf = (row: SectionProgressRow): SectionProgress => ({
  index: row.sectionIndex,
  startedAt: row.sectionStartedAt ?? row.startedAt,
});

/** The candidate's place as GET /api/attempts/{id} and the advance route answer it. */
export function sectionState(sections: ReadonlyArray<Section>, position: SectionPosition): SectionState {
  return {
    current: position.index,
    startedAt: position.startedAt.toISOString(),
    deadline: position.deadline?.toISOString() ?? null,
    locked: lockedSections(sections, position.index),
    assistant: assistantOpenIn(sections, position.index),
  };
}

/**
 * Attempts whose layout this replica keeps (the snapshot never changes, so any replica's copy is right): the
 * autosave path then reads it once per attempt, and an undivided exam's saves cost no query at all. An entry is a
 * few numbers; 50,000 covers the attempts of a large sitting on one replica.
 */
const LAYOUT_CACHE_SIZE = 50_000;

/**
 * Where each attempt is among its exam's sections (docs/product.md#sections), from the stored progress
 * (attempts.section_index, section_started_at) and the limits: sectionAt() derives a move forced by a section's
 * time limit, so no job moves anything and every replica computes the same place. A derived move is stored once
 * its grace has passed (below), so later reads agree even after the candidate's accommodation changes.
 *
 * A move by a time limit keeps the section left writable for DEADLINE_GRACE_SECONDS, as the exam's deadline does
 * for saves already in flight; it is stored only after that grace, so the grace can still be derived. A move the
 * candidate makes (advance) has no grace: the page saves before it moves.
 */
export function createSectionsService(repo: SectionProgressRepository, deps: Pick<Deps, 'clock'>) {
  // The promise, not its value: saves of one attempt arriving together share one read, and so still reach the
  // answer batcher together (one statement) rather than one behind the other.
  const layouts = new Map<string, Promise<SectionLayout | undefined>>();

  function cachedLayout(attemptId: string): Promise<SectionLayout | undefined> {
    const cached = layouts.get(attemptId);
    if (cached) return cached;
    const read = repo.sectionLayout(attemptId).then((row) =>
      row
        ? {
            sections: row.sections,
            questionSections: row.questionSectionIds.map((id) => sectionIndexOf({ sectionId: id }, row.sections)),
          }
        : undefined,
    );
    if (layouts.size >= LAYOUT_CACHE_SIZE) layouts.delete(layouts.keys().next().value!);
    layouts.set(attemptId, read);
    // An unknown attempt or a failed read is not kept: the next write asks again.
    read.then(
      (layout) => {
        if (!layout) layouts.delete(attemptId);
      },
      () => layouts.delete(attemptId),
    );
    return read;
  }

  /**
   * The attempt's place at `now`, and at `now` less the grace (where a write still counts). Stores the latter
   * when it is ahead of the stored progress.
   */
  async function placeOf(attemptId: string, sections: Section[], now: Date) {
    const row = await repo.sectionProgress(attemptId);
    if (!row) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
    const stored = storedOf(row);
    const minutesFor = scaleBy(row.timeFactor);
    const position = sectionAt(sections, stored, now, minutesFor);
    const settled = sectionAt(sections, stored, new Date(now.getTime() - GRACE_MS), minutesFor);
    if (settled.index > stored.index && !row.submittedAt) {
      await repo.enterSections(attemptId, stored.index, derivedStarts(sections, stored, settled.index, minutesFor));
    }
    return { row, stored, position, settled, minutesFor };
  }

  return {
    /** The section state of an attempt with sections; undefined for an undivided exam. */
    async state(attemptId: string, snapshot: ExamSnapshot): Promise<SectionState | undefined> {
      const { sections } = layoutOf(snapshot);
      if (sections.length === 0) return undefined;
      const { position } = await placeOf(attemptId, sections, deps.clock.now());
      return sectionState(sections, position);
    },

    /**
     * How many of the candidate's questions they have reached (with sections grouped in their list, a prefix),
     * and whether the assistant answers now. All of them, and the assistant's own setting, without sections.
     */
    async reach(attemptId: string, snapshot: ExamSnapshot): Promise<{ reached: number; assistant: boolean }> {
      const { sections, questionSections } = layoutOf(snapshot);
      if (sections.length === 0) return { reached: snapshot.questions.length, assistant: true };
      const { position } = await placeOf(attemptId, sections, deps.clock.now());
      const beyond = questionSections.findIndex((s) => s > position.index);
      return {
        reached: beyond < 0 ? questionSections.length : beyond,
        assistant: assistantOpenIn(sections, position.index),
      };
    },

    /**
     * Refuses an answer write (any: a save, a file) to a question whose section is locked (SECTION_LOCKED) or not
     * reached yet (SECTION_NOT_REACHED), and to the last section once its own limit and the grace have passed (the
     * candidate's time is up, as at the exam's deadline). Nothing for an exam without sections or an index out of
     * range (the write itself says so).
     *
     * The check runs before the write, not inside save_answers' lock (that would need the function changed by a
     * migration). A write checked just before a move commits may land just after it; its body had then reached
     * the server before the move, so before the assistant of the next section could answer anything: help still
     * cannot flow back. Every write checked after the move is refused.
     */
    async checkWrite(attemptId: string, questionIndex: number): Promise<void> {
      const layout = await cachedLayout(attemptId);
      if (!layout || layout.sections.length === 0) return;
      const target = layout.questionSections[questionIndex];
      if (target === undefined) return;
      const { sections } = layout;
      const now = deps.clock.now();
      const { row, position, settled } = await placeOf(attemptId, sections, now);
      // A closed attempt is refused by the write itself, with the reason it is closed.
      if (row.submittedAt || (row.deadline && now.getTime() > row.deadline.getTime() + GRACE_MS)) return;
      if (target > position.index) throw new AppError(ErrorCode.SECTION_NOT_REACHED, SectionMessages.notReached);
      if (target === position.index) {
        const over = position.deadline && now.getTime() > position.deadline.getTime() + GRACE_MS;
        if (over) throw new AppError(ErrorCode.ATTEMPT_CLOSED, AttemptMessages.expired);
        return;
      }
      // Left behind. A section whose time ran out less than the grace ago still takes the saves in flight.
      if (target >= settled.index) return;
      if (isSectionLocked(sections, position.index, target))
        throw new AppError(ErrorCode.SECTION_LOCKED, lockedMessage(sections, target));
    },

    /**
     * Leaves section `from` for the next one (POST /api/attempts/{id}/sections/advance). Idempotent: `from` behind
     * the current section (a retry, or a move the time limit already made) answers the current state; the last
     * section stays. The caller has checked the attempt open.
     */
    async advance(attemptId: string, snapshot: ExamSnapshot, from: number): Promise<SectionState> {
      const { sections } = layoutOf(snapshot);
      if (sections.length === 0) throw new AppError(ErrorCode.CONFLICT, 'This exam has no sections');
      for (let tries = 1; ; tries++) {
        const now = deps.clock.now();
        const { stored, position, minutesFor } = await placeOf(attemptId, sections, now);
        if (from > position.index) throw new AppError(ErrorCode.SECTION_NOT_REACHED, SectionMessages.notReached);
        if (from < position.index || from >= sections.length - 1) return sectionState(sections, position);
        const starts = [...derivedStarts(sections, stored, position.index, minutesFor), { index: from + 1, at: now }];
        if (await repo.enterSections(attemptId, stored.index, starts)) {
          return sectionState(sections, sectionAt(sections, { index: from + 1, startedAt: now }, now, minutesFor));
        }
        // Another request moved it in between (or stored a derived move): decide again from what it stored.
        if (tries >= 3) throw new AppError(ErrorCode.CONFLICT, SectionMessages.staleSection);
      }
    },
  };
}
export type SectionsService = ReturnType<typeof createSectionsService>;
