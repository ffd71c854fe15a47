import { SectionMessages } from './candidate-messages.ts';

/**
 * The section rules the candidate's page applies, without the sections' schemas (sections.ts keeps those and
 * re-exports these), so the exam page needs no zod (bench/README.md, "Page weight").
 */

/** The index of a question's section: 0 without sections, and for a question naming none (or an unknown one). */
export function sectionIndexOf(
  question: { sectionId?: string | null },
  sections: ReadonlyArray<{ id: string }>,
): number {
  if (question.sectionId == null) return 0;
  const index = sections.findIndex((s) => s.id === question.sectionId);
  return index < 0 ? 0 : index;
}

/**
 * Whether section `target` is locked for a candidate whose current section is `current`: they have left it, and
 * some section after it has the assistant (help must not flow back), or it had a time limit of its own (its time
 * is spent once left, whether by the clock or by moving on early). Other sections stay open to go back to.
 */
export function isSectionLocked(
  sections: ReadonlyArray<{ assistant: boolean; timeLimitMinutes: number | null }>,
  current: number,
  target: number,
): boolean {
  if (target >= current) return false;
  return sections[target]?.timeLimitMinutes != null || sections.slice(target + 1).some((s) => s.assistant);
}

/** Why a locked section is locked, in the candidate's words: help flowing back, or its own time spent. */
export function lockedMessage(sections: ReadonlyArray<{ assistant: boolean }>, target: number): string {
  return sections.slice(target + 1).some((s) => s.assistant) ? SectionMessages.locked : SectionMessages.lockedByTime;
}

/** The sections a candidate at `current` can no longer change. */
export function lockedSections(
  sections: ReadonlyArray<{ assistant: boolean; timeLimitMinutes: number | null }>,
  current: number,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < current; i++) if (isSectionLocked(sections, current, i)) out.push(i);
  return out;
}

/** Whether the assistant may answer at `section` (the exam's assistant must also be on). */
export function assistantOpenIn(sections: ReadonlyArray<{ assistant: boolean }>, section: number): boolean {
  return sections.length === 0 || (sections[section]?.assistant ?? true);
}
