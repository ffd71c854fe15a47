import { describe, expect, it } from 'vitest';
import {
  abilitySets,
  AdvanceSectionSchema,
  assistantOpenIn,
  isSectionLocked,
  lockedMessage,
  lockedSections,
  SectionMessages,
  SectionSchema,
  sectionAt,
  sectionIndexOf,
  sectionIssues,
} from './sections.ts';

const section = (id: string, assistant: boolean, timeLimitMinutes: number | null = null) =>
  SectionSchema.parse({ id, assistant, timeLimitMinutes });
const q = (sectionId: string | null, poolId: string | null = null) => ({ sectionId, poolId });

describe('sectionIssues', () => {
  const sections = [section('a', false), section('b', true)];

  it('accepts questions in known sections, with or without one named', () => {
    expect(sectionIssues([q('a'), q('b'), q(null), q('b', 'p'), q('b', 'p')], sections)).toEqual([]);
  });

  it('names a duplicate section id and a question naming an unknown section by their paths', () => {
    expect(sectionIssues([q('a'), q('zzz')], [section('a', false), section('a', true)])).toEqual([
      { path: ['sections', 1, 'id'], message: SectionMessages.duplicateSection },
      { path: ['questions', 1, 'sectionId'], message: SectionMessages.unknownSection },
    ]);
  });

  it('refuses a pool spread over two sections, counting a question naming none as in the first', () => {
    expect(sectionIssues([q(null, 'p'), q('a', 'p'), q('b', 'p')], sections)).toEqual([
      { path: ['questions', 2, 'sectionId'], message: SectionMessages.poolAcrossSections },
    ]);
  });

  it('has nothing to say of pools in an exam without sections, but still of unknown section ids', () => {
    expect(sectionIssues([q(null, 'p'), q(null, 'p')], [])).toEqual([]);
    expect(sectionIssues([q('a')], [])).toHaveLength(1);
  });
});

describe('sectionIndexOf', () => {
  it('finds the section, and puts a question naming none or an unknown one in the first', () => {
    const sections = [section('a', false), section('b', true)];
    expect(sectionIndexOf(q('b'), sections)).toBe(1);
    expect(sectionIndexOf(q(null), sections)).toBe(0);
    expect(sectionIndexOf({}, sections)).toBe(0);
    expect(sectionIndexOf(q('gone'), sections)).toBe(0);
  });
});

describe('locking', () => {
  // unaided, aided, unaided, aided
  const sections = [section('u1', false), section('a1', true), section('u2', false), section('a2', true)];

  it('locks a section once the candidate has left it and a later section has the assistant', () => {
    expect(isSectionLocked(sections, 0, 0)).toBe(false);
    expect(isSectionLocked(sections, 1, 0)).toBe(true);
    // An aided section left before another aided one is locked too (the later help must not flow back).
    expect(isSectionLocked(sections, 3, 1)).toBe(true);
    expect(isSectionLocked(sections, 1, 2)).toBe(false);
    expect(lockedSections(sections, 0)).toEqual([]);
    expect(lockedSections(sections, 2)).toEqual([0, 1]);
    expect(lockedSections(sections, 3)).toEqual([0, 1, 2]);
  });

  it('leaves sections open to go back to when nothing after them has the assistant', () => {
    const closing = [section('a', true), section('u1', false), section('u2', false)];
    expect(lockedSections(closing, 2)).toEqual([]);
    expect(isSectionLocked(closing, 2, 0)).toBe(false);
    expect(lockedSections([section('x', false), section('y', false)], 1)).toEqual([]);
  });

  it('locks a section with a time limit of its own once left, whatever follows, and says why', () => {
    const timed = [{ ...section('a', true), timeLimitMinutes: 10 }, section('u1', false), section('u2', false)];
    expect(isSectionLocked(timed, 1, 0)).toBe(true);
    expect(lockedSections(timed, 2)).toEqual([0]);
    expect(lockedMessage(timed, 0)).toBe(SectionMessages.lockedByTime);
    expect(lockedMessage(sections, 0)).toBe(SectionMessages.locked);
  });
});

describe('sectionAt', () => {
  const start = new Date('2026-01-01T10:00:00Z');
  const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
  const timed = [section('a', false, 10), section('b', true, 20), section('c', false)];

  it('stays in the stored section while its limit runs, with the deadline it ends at', () => {
    expect(sectionAt(timed, { index: 0, startedAt: start }, at(9.99))).toEqual({
      index: 0,
      startedAt: start,
      deadline: at(10),
    });
  });

  it('moves on by itself at the moment a limit ends, each next section starting then', () => {
    expect(sectionAt(timed, { index: 0, startedAt: start }, at(10))).toEqual({
      index: 1,
      startedAt: at(10),
      deadline: at(30),
    });
    // Two limits passed while nobody looked: the untimed third section began when the second ended.
    expect(sectionAt(timed, { index: 0, startedAt: start }, at(45))).toEqual({
      index: 2,
      startedAt: at(30),
      deadline: null,
    });
  });

  it('starts from a section the candidate moved to early', () => {
    expect(sectionAt(timed, { index: 1, startedAt: at(3) }, at(22))).toEqual({
      index: 1,
      startedAt: at(3),
      deadline: at(23),
    });
  });

  it('keeps the last section after its limit, its deadline in the past', () => {
    const last = [section('a', false), section('b', true, 5)];
    expect(sectionAt(last, { index: 1, startedAt: start }, at(60))).toEqual({
      index: 1,
      startedAt: start,
      deadline: at(5),
    });
  });

  it('scales each limit by the candidate’s accommodation', () => {
    const oneAndHalf = (m: number) => m * 1.5;
    expect(sectionAt(timed, { index: 0, startedAt: start }, at(14), oneAndHalf)).toMatchObject({
      index: 0,
      deadline: at(15),
    });
    expect(sectionAt(timed, { index: 0, startedAt: start }, at(15), oneAndHalf)).toMatchObject({
      index: 1,
      startedAt: at(15),
      deadline: at(45),
    });
  });

  it('clamps a stored index outside the sections, and is section 0 with no limit without sections', () => {
    expect(sectionAt(timed, { index: 9, startedAt: start }, at(1)).index).toBe(2);
    expect(sectionAt([], { index: 0, startedAt: start }, at(500))).toEqual({
      index: 0,
      startedAt: start,
      deadline: null,
    });
  });
});

describe('assistantOpenIn', () => {
  it('follows the section, and is open without sections', () => {
    const sections = [section('a', false), section('b', true)];
    expect(assistantOpenIn(sections, 0)).toBe(false);
    expect(assistantOpenIn(sections, 1)).toBe(true);
    expect(assistantOpenIn([], 0)).toBe(true);
  });
});

describe('abilitySets', () => {
  const sections = [section('u', false), section('a', true)];

  it('splits the questions by their section’s assistant rule', () => {
    expect(abilitySets({ aiEnabled: true, sections, questions: [q('a'), q(null), q('u'), q('a')] })).toEqual([
      'aided',
      'unaided',
      'unaided',
      'aided',
    ]);
  });

  it('gives no sets without a contrast: no sections, the assistant off, or every section alike', () => {
    const questions = [q('a'), q('u')];
    expect(abilitySets({ aiEnabled: false, sections, questions })).toEqual([null, null]);
    expect(abilitySets({ aiEnabled: true, sections: [], questions: [q(null), q(null)] })).toEqual([null, null]);
    expect(
      abilitySets({ aiEnabled: true, sections: [section('a', true), section('b', true)], questions: [q('a'), q('b')] }),
    ).toEqual([null, null]);
  });
});

describe('SectionSchema and AdvanceSectionSchema', () => {
  it('fills defaults and refuses bad limits', () => {
    expect(SectionSchema.parse({ id: 's' })).toEqual({ id: 's', title: '', assistant: true, timeLimitMinutes: null });
    expect(SectionSchema.safeParse({ id: 's', timeLimitMinutes: 0 }).success).toBe(false);
    expect(SectionSchema.safeParse({ id: 's', timeLimitMinutes: 1.5 }).success).toBe(false);
    expect(SectionSchema.safeParse({ id: '' }).success).toBe(false);
    expect(AdvanceSectionSchema.safeParse({ from: -1 }).success).toBe(false);
    expect(AdvanceSectionSchema.parse({ from: 2 })).toEqual({ from: 2 });
  });
});
