import { autoPoints, matchesShortAnswer } from '@exam/domain/grading';
import type { CandidateReliance, InsightsReport } from '@exam/domain/insights';
import type { TranscriptMessage } from '@exam/domain/internal';
import { canPlantError, replyContainsError } from '@exam/domain/planted-errors';
import type { Question } from '@exam/domain/question';
import { computeExamReliance, computeReliance, relianceCase, type RelianceCase } from '@exam/psychometrics/reliance';

/** Hover texts of the reliance figures, keyed as @exam/domain/insights documents `explanations`. */
export const RELIANCE_EXPLANATIONS: Record<string, string> = {
  'reliance.rair':
    'Relative AI reliance (RAIR, Schemmer et al., IUI 2023): of the cases where the candidate’s answer before asking was wrong and the assistant was right, the share whose submitted answer took the assistant’s advice. High is good.',
  'reliance.rsr':
    'Relative self-reliance (RSR, Schemmer et al., IUI 2023): of the cases where the candidate’s answer before asking was right and the assistant was wrong (a planted error), the share who kept a right answer. High is good.',
  'reliance.errorAdoption':
    'Error adoption: of the cases where the assistant was wrong on purpose, the share whose submitted answer is the assistant’s error, whatever the answer before asking. Low is good.',
  'reliance.pooled': 'Pooled: every case over the exam weighs the same (summed counts).',
  'reliance.meanOfCandidates': 'Mean of candidates: every candidate with a figure weighs the same.',
};

/**
 * What the assistant advised on one question of one candidate, and when the candidate first had advice on it. A
 * case exists only where the advice can be read against the key (Schemmer et al.'s second stage needs a known
 * advice): a verified planted turn (its error, `planted`), or else a reply that states the key (the key).
 */
export type Advice = {
  /** The exam's numbering. */
  examIndex: number;
  /** The candidate's numbering (their arrangement), as the transcript and the answer operations address it. */
  candidateIndex: number;
  advice: string;
  planted: boolean;
  /** The first assistant turn about the question: the answer just before it is the candidate's first decision. */
  firstTurnAt: string;
};

/** A planted error the candidate received on a question (the candidate's numbering), in `turns` verified turns. */
export type PlantedTurn = { candidateIndex: number; examIndex: number; error: string; turns: number };

const aboutQuestion = (m: TranscriptMessage, candidateIndex: number) =>
  m.role === 'assistant' && !m.isError && (m.planted?.questionIndex ?? m.questionIndex) === candidateIndex;

/**
 * The advice per keyed question the candidate asked about, and their verified planted turns. Keyed: a single-answer
 * MCQ with a key or a short answer with accepted answers (canPlantError: the questions whose advice can be judged
 * right or wrong). A planted turn wins over the key: the assistant was wrong there on purpose, which is the case RSR
 * needs. The key is found in a reply as a planted error is (replyContainsError, compared without case and spacing);
 * an option as short as "a" is found in almost any reply, so short-answer keys and worded options read best.
 */
export function adviceOf(
  questions: readonly Question[],
  places: ReadonlyArray<number | undefined>,
  messages: readonly TranscriptMessage[],
): { advice: Advice[]; planted: PlantedTurn[] } {
  const advice: Advice[] = [];
  const planted: PlantedTurn[] = [];
  questions.forEach((q, examIndex) => {
    const candidateIndex = places[examIndex];
    if (candidateIndex === undefined || !canPlantError(q)) return;
    const turns = messages.filter((m) => aboutQuestion(m, candidateIndex));
    const first = turns[0];
    if (!first) return;
    const verified = turns.flatMap((m) => (m.planted?.verified ? [m.planted.error] : []));
    for (const error of new Set(verified))
      planted.push({ candidateIndex, examIndex, error, turns: verified.filter((e) => e === error).length });
    const keys = q.type === 'mcq' ? [q.correctAnswer ?? ''] : q.acceptedAnswers;
    const key = keys.find((k) => k.trim() !== '' && turns.some((m) => replyContainsError(m.content, k)));
    const given = verified[0] ?? key;
    if (given === undefined) return;
    advice.push({
      examIndex,
      candidateIndex,
      advice: given,
      planted: verified.length > 0,
      firstTurnAt: first.createdAt,
    });
  });
  return { advice, planted };
}

/** Whether an answer earns the question's full points by its key (the reliance stages are judged by the key). */
function isCorrect(q: Question, answer: string): boolean {
  const points = autoPoints(q, answer);
  return points !== null && q.points > 0 && points >= q.points;
}

/** Whether two answers are the same: the same option, or the same short answer under the question's matching. */
function same(q: Question, a: string, b: string): boolean {
  return q.type === 'mcq' ? a === b : matchesShortAnswer(a, [b], q.matching);
}

const orNull = (answer: string | null | undefined) => (answer == null || answer.trim() === '' ? null : answer);

/** One question's case (reliance.ts relianceCase) from the answer before advice, the advice and the submitted answer. */
export function caseOf(q: Question, before: string | null, advice: string, submitted: string | null): RelianceCase {
  return relianceCase(
    { before: orNull(before), advice, submitted: orNull(submitted) },
    (answer) => isCorrect(q, answer),
    (a, b) => same(q, a, b),
  );
}

export type CandidateCases = {
  resultId: string;
  cases: RelianceCase[];
  /** Verified planted turns with the candidate's submitted answer to their question. */
  planted: Array<PlantedTurn & { submitted: string | null }>;
};

/**
 * RAIR, RSR and error adoption per candidate and over the exam, put into the report. No figures at all (null) when
 * the exam plants no errors and nobody has a case: there is nothing to say. Without transcripts (llm-gateway down)
 * nobody's advice is known: null with the reason, as the other assistant figures.
 */
export function withReliance(
  report: InsightsReport,
  input: {
    questions: readonly Question[];
    plantedErrors: boolean;
    unavailable: string | null;
    candidates: readonly CandidateCases[];
  },
): InsightsReport {
  const explanations = { ...report.explanations, ...RELIANCE_EXPLANATIONS };
  const hasCases = input.candidates.some((c) => c.cases.length > 0 || c.planted.length > 0);
  if (input.unavailable !== null || (!input.plantedErrors && !hasCases)) {
    const reasons = input.unavailable === null ? report.reasons : { ...report.reasons, reliance: input.unavailable };
    return {
      ...report,
      candidates: report.candidates.map((c) => ({ ...c, reliance: null })),
      reliance: null,
      reasons,
      explanations,
    };
  }
  const adopted = (p: CandidateCases['planted'][number]) => {
    const q = input.questions[p.examIndex]!;
    return p.submitted !== null && orNull(p.submitted) !== null && same(q, p.submitted, p.error);
  };
  const byResult = new Map(
    input.candidates.map((c): [string, CandidateReliance] => [
      c.resultId,
      {
        ...computeReliance(c.cases),
        // Named by the exam's numbering, as every grader-facing view names questions (not the candidate's order).
        planted: c.planted.map((p) => ({ questionIndex: p.examIndex, error: p.error, adopted: adopted(p) })),
      },
    ]),
  );
  const plantedByQuestion = new Map<number, { questionIndex: number; turns: number; adopted: number }>();
  for (const p of input.candidates.flatMap((c) => c.planted)) {
    const row = plantedByQuestion.get(p.examIndex) ?? { questionIndex: p.examIndex, turns: 0, adopted: 0 };
    row.turns += p.turns;
    if (adopted(p)) row.adopted += p.turns;
    plantedByQuestion.set(p.examIndex, row);
  }
  const exam = computeExamReliance(input.candidates.map((c) => c.cases));
  return {
    ...report,
    candidates: report.candidates.map((c) => ({ ...c, reliance: byResult.get(c.resultId) ?? null })),
    reliance: {
      plantedErrors: input.plantedErrors,
      pooled: exam.pooled,
      meanOfCandidates: exam.meanOfCandidates,
      plantedByQuestion: [...plantedByQuestion.values()].sort((a, b) => a.questionIndex - b.questionIndex),
    },
    explanations,
  };
}
