import { MAX_COMPARED_ANSWERS, MAX_REPORTED_PAIRS } from '@exam/domain/similarity';
import type { Question } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import { buildSimilarityReport, type SimilarityEntrant } from './similarity.service.ts';

const question = { id: 'q', type: 'coding', title: 'Evens', language: 'python', starterCode: '' } as Question;
const answer =
  'def evens(xs):\n    out = []\n    for x in xs:\n        if x % 2 == 0:\n            out.append(x)\n    return out\n';

const entrant = (i: number, code: string | null): SimilarityEntrant => ({
  resultId: `r${String(i).padStart(4, '0')}`,
  name: `Candidate ${i}`,
  studentId: `S${i}`,
  answers: [code],
  replies: [],
});

describe('buildSimilarityReport', () => {
  it('compares at most the first 500 answers, lists at most 200 pairs and says so', () => {
    const entrants = Array.from({ length: MAX_COMPARED_ANSWERS + 2 }, (_, i) => entrant(i, answer));
    const [q] = buildSimilarityReport({
      questions: [question],
      entrants,
      threshold: 0.8,
      examThreshold: 0.8,
      assistantMatchesUnavailable: null,
    }).questions;
    expect(q).toMatchObject({ answered: 502, compared: 500, isCapped: true, cap: 500 });
    expect(q!.flaggedPairs).toBe((500 * 499) / 2);
    expect(q!.pairs).toHaveLength(MAX_REPORTED_PAIRS);
    // The two candidates past the cap appear in no pair.
    expect(q!.pairs.some((p) => [p.a.resultId, p.b.resultId].includes('r0501'))).toBe(false);
  });

  it('reports only coding questions, and blank answers as not answered', () => {
    const mcq = { id: 'm', type: 'mcq', title: 'Pick', options: ['a'] } as unknown as Question;
    const report = buildSimilarityReport({
      questions: [mcq, question],
      entrants: [
        { ...entrant(1, null), answers: ['a', answer] },
        { ...entrant(2, null), answers: ['a', '   '] },
      ],
      threshold: 0.5,
      examThreshold: 0.8,
      assistantMatchesUnavailable: null,
    });
    expect(report.questions.map((q) => q.questionIndex)).toEqual([1]);
    expect(report.questions[0]).toMatchObject({ answered: 1, compared: 1, pairs: [] });
  });
});
