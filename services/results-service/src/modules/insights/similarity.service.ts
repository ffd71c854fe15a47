import type { CodingLanguage, Question } from '@exam/domain/question';
import type { TranscriptMessage } from '@exam/domain/internal';
import {
  codeBlocksOf,
  compareFingerprints,
  fingerprint,
  MAX_COMPARED_ANSWERS,
  MAX_REPORTED_PAIRS,
  MIN_SIMILARITY_TOKENS,
  normalizedCode,
  SIMILARITY_K,
  SIMILARITY_WINDOW,
  starterFingerprints,
  type AssistantMatch,
  type Fingerprint,
  type QuestionSimilarity,
  type SimilarityCandidate,
  type SimilarityReport,
  type SimilarPair,
} from '@exam/domain/similarity';

/** One kept, submitted candidate: their answers in the exam's question order (null when none). */
export type SimilarityEntrant = {
  resultId: string;
  name: string;
  studentId: string;
  answers: ReadonlyArray<string | null>;
  /** The assistant's replies in this candidate's own conversation. */
  replies: readonly TranscriptMessage[];
};

/** Past this, a reply's matched code is shortened in the report. */
const EXCERPT_CHARS = 4000;

/** Questions without a language are read with the JavaScript tokeniser: C-style comments and quotes, no keywords lost. */
const languageOf = (q: Question): CodingLanguage => q.language ?? 'javascript';

/**
 * The similarity report of an exam (docs/product.md#code-similarity): for every coding question, the pairs of
 * candidates whose answers are at least `threshold` alike, and the answers that match code the assistant gave
 * their author. Pure: the caller reads the results and transcripts.
 */
export function buildSimilarityReport(input: {
  questions: readonly Question[];
  entrants: readonly SimilarityEntrant[];
  threshold: number;
  examThreshold: number;
  assistantMatchesUnavailable: string | null;
}): SimilarityReport {
  const questions = input.questions.flatMap((q, questionIndex) =>
    q.type === 'coding' ? [questionSimilarity(q, questionIndex, input.entrants, input.threshold)] : [],
  );
  return {
    threshold: input.threshold,
    examThreshold: input.examThreshold,
    method: { k: SIMILARITY_K, window: SIMILARITY_WINDOW, minTokens: MIN_SIMILARITY_TOKENS },
    questions,
    assistantMatchesUnavailable: input.assistantMatchesUnavailable,
  };
}

type Answer = { candidate: SimilarityCandidate; print: Fingerprint; replies: readonly TranscriptMessage[] };

function questionSimilarity(
  q: Question,
  questionIndex: number,
  entrants: readonly SimilarityEntrant[],
  threshold: number,
): QuestionSimilarity {
  const language = languageOf(q);
  const starter = starterFingerprints(q.starterCode, language);
  const answers: Answer[] = entrants.flatMap((e) => {
    const code = e.answers[questionIndex];
    if (!code?.trim()) return [];
    const candidate = { resultId: e.resultId, name: e.name, studentId: e.studentId, code };
    return [{ candidate, print: fingerprint(code, language, starter), replies: e.replies }];
  });
  const comparable = answers.filter((a) => a.print.isComparable);
  const compared = comparable.slice(0, MAX_COMPARED_ANSWERS);
  const pairs = flaggedPairs(compared, threshold);
  return {
    questionIndex,
    title: q.title,
    language: q.language ?? null,
    answered: answers.length,
    compared: compared.length,
    tooShort: answers.length - comparable.length,
    isCapped: comparable.length > compared.length,
    cap: MAX_COMPARED_ANSWERS,
    pairs: pairs.slice(0, MAX_REPORTED_PAIRS),
    flaggedPairs: pairs.length,
    assistantMatches: answers
      .flatMap((a) => {
        const match = assistantMatchOf(a, language, starter, q.starterCode ?? '', threshold);
        return match ? [match] : [];
      })
      .sort((x, y) => y.similarity - x.similarity || x.candidate.resultId.localeCompare(y.candidate.resultId))
      .slice(0, MAX_REPORTED_PAIRS),
  };
}

/** Every pair at or above the threshold, most similar first (ties by shared fingerprints, then result ids). */
function flaggedPairs(answers: readonly Answer[], threshold: number): SimilarPair[] {
  const pairs: SimilarPair[] = [];
  for (let i = 0; i < answers.length; i++) {
    const a = answers[i] as Answer;
    for (let j = i + 1; j < answers.length; j++) {
      const b = answers[j] as Answer;
      const c = compareFingerprints(a.print, b.print);
      if (c.similarity < threshold) continue;
      pairs.push({
        a: a.candidate,
        b: b.candidate,
        similarity: c.similarity,
        aMatched: c.aMatched,
        bMatched: c.bMatched,
        sharedFingerprints: c.shared,
      });
    }
  }
  return pairs.sort(
    (x, y) =>
      y.similarity - x.similarity ||
      y.sharedFingerprints - x.sharedFingerprints ||
      x.a.resultId.localeCompare(y.a.resultId) ||
      x.b.resultId.localeCompare(y.b.resultId),
  );
}

/**
 * The assistant reply (of the candidate's own conversation) whose code the answer matches best: identical but
 * for layout, or with at least `threshold` of the answer's fingerprints in the reply's code. An answer that is
 * only the starter code matches nothing: the assistant may well have quoted the template.
 */
function assistantMatchOf(
  answer: Answer,
  language: CodingLanguage,
  starter: ReadonlySet<number>,
  starterCode: string,
  threshold: number,
): AssistantMatch | undefined {
  const code = normalizedCode(answer.candidate.code);
  if (code === normalizedCode(starterCode)) return undefined;
  let best: AssistantMatch | undefined;
  for (const reply of answer.replies) {
    if (reply.role !== 'assistant' || reply.isError) continue;
    for (const block of codeBlocksOf(reply.content)) {
      const isIdentical = normalizedCode(block) === code;
      const similarity = isIdentical
        ? 1
        : compareFingerprints(answer.print, fingerprint(block, language, starter)).aMatched;
      if (similarity < threshold || (best && best.similarity >= similarity)) continue;
      const excerpt = block.length > EXCERPT_CHARS ? `${block.slice(0, EXCERPT_CHARS)}…` : block;
      best = { candidate: answer.candidate, similarity, isIdentical, messageId: reply.id, excerpt };
    }
  }
  return best;
}
