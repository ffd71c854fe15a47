import type { ExamSnapshot } from '../../scoring/snapshot.ts';

/**
 * The two numberings of a question (docs/product.md#grading-by-question): the exam's own (its place as the creator
 * wrote it, which every grading-by-question route and grading_suggestions use) and the candidate's (their
 * snapshot's order, by which their answers, grades and grade history are addressed). They differ when the exam
 * shuffles or draws from pools: `snapshot.arrangement.sourceIndices[candidateIndex]` is the exam's index.
 */

/** The candidate's index of the exam's question `examIndex`; undefined when the candidate did not draw it. */
export function candidateIndexOf(snapshot: Pick<ExamSnapshot, 'arrangement' | 'questions'>, examIndex: number) {
  if (snapshot.arrangement) {
    const at = snapshot.arrangement.sourceIndices.indexOf(examIndex);
    return at >= 0 ? at : undefined;
  }
  return examIndex < snapshot.questions.length ? examIndex : undefined;
}

/** The exam's index of the candidate's question `candidateIndex`. */
export function examIndexOf(snapshot: Pick<ExamSnapshot, 'arrangement'>, candidateIndex: number): number {
  return snapshot.arrangement?.sourceIndices[candidateIndex] ?? candidateIndex;
}
