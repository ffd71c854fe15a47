import { describe, expect, it } from 'vitest';
import { computeExamReliance, computeReliance, relianceCase, RELIANCE_REASONS, type RelianceCase } from './reliance.ts';

const c = (
  firstCorrect: boolean,
  aiCorrect: boolean,
  finalFollowsAi: boolean,
  finalCorrect: boolean,
): RelianceCase => ({
  firstCorrect,
  aiCorrect,
  finalFollowsAi,
  finalCorrect,
});

// Candidate A, eight questions the assistant advised on (first, AI, follows, final):
const A = [
  c(false, true, true, true), //   1: wrong → took right advice        RAIR 1/1
  c(false, true, true, true), //   2: the same                         RAIR 1/1
  c(false, true, false, false), // 3: wrong, ignored right advice      RAIR 0/1
  c(true, false, false, true), //  4: kept own right answer vs wrong AI  RSR 1/1, wrong advice not adopted
  c(true, false, true, false), //  5: dropped right answer for the AI's  RSR 0/1, wrong advice adopted
  c(true, true, true, true), //    6: both right: in neither ratio
  c(false, false, true, false), // 7: no answer yet, adopted wrong AI    outside RSR; wrong advice adopted
  c(true, false, false, false), // 8: switched to a third wrong answer   RSR 0/1, wrong advice not adopted
];
// RAIR = (1 + 1 + 0) / 3 = 2/3; RSR = (1 + 0 + 0) / 3 = 1/3 (cases 4, 5, 8);
// error adoption: wrong advice in 4, 5, 7, 8, adopted in 5 and 7 = 2/4 = 0.5.
const B = [
  c(true, true, true, true), //    right and right: no ratio
  c(false, false, false, true), // wrong first, wrong advice not taken, corrected alone: wrong advice 0/1
];
// B: RAIR 0/0 and RSR 0/0 (null), error adoption 0/1 = 0.

describe('computeReliance', () => {
  it('computes RAIR, RSR and error adoption with the counts they rest on', () => {
    const figures = computeReliance(A);
    expect(figures.rair).toEqual({ value: 2 / 3, numerator: 2, denominator: 3 });
    expect(figures.rsr).toEqual({ value: 1 / 3, numerator: 1, denominator: 3 });
    expect(figures.errorAdoption).toEqual({ value: 0.5, numerator: 2, denominator: 4 });
    expect(figures.cases).toBe(8);
  });

  it('returns null with a reason when a denominator is 0', () => {
    const figures = computeReliance(B);
    expect(figures.rair).toEqual({ value: null, numerator: 0, denominator: 0, reason: RELIANCE_REASONS.rair });
    expect(figures.rsr).toEqual({ value: null, numerator: 0, denominator: 0, reason: RELIANCE_REASONS.rsr });
    expect(figures.errorAdoption).toEqual({ value: 0, numerator: 0, denominator: 1 });
    expect(computeReliance([]).errorAdoption.reason).toBe(RELIANCE_REASONS.errorAdoption);
  });

  it('tells a candidate who adopted a planted error from one who rejected it', () => {
    // Both had the right answer before asking; the assistant's reply carried the planted wrong option.
    const adopted = computeReliance([c(true, false, true, false)]);
    const rejected = computeReliance([c(true, false, false, true)]);
    expect([adopted.rsr.value, adopted.errorAdoption.value]).toEqual([0, 1]);
    expect([rejected.rsr.value, rejected.errorAdoption.value]).toEqual([1, 0]);
  });
});

describe('computeExamReliance', () => {
  it('pools the counts over cases and averages the candidates’ own figures', () => {
    const exam = computeExamReliance([A, B, []]);
    // Pooled over the 10 cases: RAIR 2/3 (all from A), RSR 1/3 (all from A), error adoption (2 + 0) / (4 + 1).
    expect(exam.pooled.rair).toEqual({ value: 2 / 3, numerator: 2, denominator: 3 });
    expect(exam.pooled.rsr).toEqual({ value: 1 / 3, numerator: 1, denominator: 3 });
    expect(exam.pooled.errorAdoption).toEqual({ value: 0.4, numerator: 2, denominator: 5 });
    expect(exam.pooled.cases).toBe(10);
    // Per candidate: only A has RAIR and RSR; error adoption A 0.5 and B 0 → (0.5 + 0) / 2 = 0.25.
    expect(exam.meanOfCandidates.rair).toEqual({ value: 2 / 3, candidates: 1 });
    expect(exam.meanOfCandidates.rsr).toEqual({ value: 1 / 3, candidates: 1 });
    expect(exam.meanOfCandidates.errorAdoption).toEqual({ value: 0.25, candidates: 2 });
  });

  it('has no figures for an exam without cases', () => {
    const exam = computeExamReliance([[], []]);
    expect(exam.pooled.rair.value).toBeNull();
    expect(exam.meanOfCandidates.rsr).toEqual({
      value: null,
      candidates: 0,
      reason: RELIANCE_REASONS.noCandidates,
    });
  });
});

describe('relianceCase', () => {
  // A four-option question keyed 'B'; options compare by identity.
  const isCorrect = (option: string) => option === 'B';
  const same = (a: string, b: string) => a === b;

  it('maps the answer before the assistant turn and the submitted answer onto a case', () => {
    // Had B, the assistant planted C, kept B: the RSR case of a rejected error.
    expect(relianceCase({ before: 'B', advice: 'C', submitted: 'B' }, isCorrect, same)).toEqual(
      c(true, false, false, true),
    );
    // No answer yet, assistant right, took it: first decision counts as wrong, so an RAIR case.
    expect(relianceCase({ before: null, advice: 'B', submitted: 'B' }, isCorrect, same)).toEqual(
      c(false, true, true, true),
    );
    // Had A, assistant planted D, submitted nothing: neither follows nor is correct.
    expect(relianceCase({ before: 'A', advice: 'D', submitted: null }, isCorrect, same)).toEqual(
      c(false, false, false, false),
    );
  });
});
