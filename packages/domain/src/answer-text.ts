import { decodeChoices, type NumericTolerance } from './grading.ts';
import { type UnitSettings, decodeBlanks, decodeMatches, decodeOrder, splitGapText } from './question-kinds.ts';
import type { Question } from './question.ts';
import { NO_ANSWER } from './result.ts';

/**
 * Answers and keys as people read them, for every question type: the grader's page, the CSV, the candidate's
 * released result and review, and the assistant's answer guard all read them here, so a matching answer reads
 * the same everywhere ("France → Paris; Spain → Madrid").
 */

type Readable = Pick<
  Question,
  | 'type'
  | 'multipleAnswers'
  | 'correctAnswer'
  | 'correctAnswers'
  | 'acceptedAnswers'
  | 'items'
  | 'pairs'
  | 'gapText'
  | 'blanks'
> & {
  /** Absent from questions kept (in attempts' snapshots) before units existed: a short answer then has none. */
  units?: UnitSettings | undefined;
  /** How answers are compared: a numeric key reads with its tolerance ("3.14 ± 0.01", "100 ± 1%"). */
  matching?: { numeric: NumericTolerance | null } | undefined;
};

/** A number without float noise: 0.1 + 0.2 reads "0.3". */
const plain = (n: number) => String(Number(n.toPrecision(12)));

/**
 * A numeric key with its tolerance: "3.14 ± 0.01" (absolute, in the key's unit: "0.125 ± 0.001 m") or
 * "100 ± 1%" (relative, a fraction of the key stored as 0.01); the bare key when the tolerance is 0.
 */
export function withTolerance(key: string, tolerance: NumericTolerance | null | undefined, unit?: string): string {
  const suffix = unit ? ` ${unit}` : '';
  if (!tolerance || !(tolerance.tolerance > 0)) return `${key}${suffix}`;
  return tolerance.mode === 'relative'
    ? `${key}${suffix} ± ${plain(tolerance.tolerance * 100)}%`
    : `${key} ± ${plain(tolerance.tolerance)}${suffix}`;
}

const TRUE_FALSE_WORDS: Record<string, string> = { true: 'True', false: 'False' };

/** The gap text with each gap's value in brackets: "The capital of France is [Paris]." */
function filledGaps(gapText: string, values: readonly string[]): string {
  return splitGapText(gapText)
    .map((part) => ('text' in part ? part.text : `[${values[part.gap] || '…'}]`))
    .join('');
}

/** Whether the candidate gave an answer: a structured answer counts once any part of it is filled. */
export function isAnswered(
  q: Pick<Question, 'type' | 'multipleAnswers' | 'pairs' | 'blanks'>,
  answer: string | null | undefined,
): boolean {
  if (answer === null || answer === undefined || answer.trim() === '') return false;
  switch (q.type) {
    case 'mcq':
      return q.multipleAnswers ? decodeChoices(answer).length > 0 : true;
    case 'ordering':
      return decodeOrder(answer).length > 0;
    case 'matching':
      return decodeMatches(answer, q.pairs.length).some((v) => v.trim() !== '');
    case 'fill-blanks':
      return decodeBlanks(answer, q.blanks.length).some((v) => v.trim() !== '');
    default:
      return true;
  }
}

/** The answer as shown: NO_ANSWER when blank; structured answers in words. */
export function answerText(q: Readable, answer: string | null | undefined): string {
  if (!answer?.trim() || !isAnswered(q, answer)) return NO_ANSWER;
  switch (q.type) {
    case 'mcq': {
      if (!q.multipleAnswers) return answer;
      const choices = decodeChoices(answer);
      return choices.length ? choices.join(' | ') : NO_ANSWER;
    }
    case 'true-false':
      return TRUE_FALSE_WORDS[answer] ?? answer;
    case 'ordering':
      return decodeOrder(answer)
        .map((item, i) => `${i + 1}. ${item}`)
        .join('; ');
    case 'matching': {
      const chosen = decodeMatches(answer, q.pairs.length);
      return q.pairs.map((p, i) => `${p.prompt} → ${chosen[i] || '—'}`).join('; ');
    }
    case 'fill-blanks':
      return filledGaps(q.gapText, decodeBlanks(answer, q.blanks.length));
    default:
      return answer;
  }
}

/** The key as people read it; null when the question has none (a grader decides). */
export function answerKeyText(q: Readable): string | null {
  switch (q.type) {
    case 'mcq':
      if (q.multipleAnswers) return q.correctAnswers.length ? q.correctAnswers.join(' | ') : null;
      return q.correctAnswer || null;
    case 'true-false':
      return q.correctAnswer ? (TRUE_FALSE_WORDS[q.correctAnswer] ?? null) : null;
    case 'short-answer':
    case 'numeric':
    case 'calculated': {
      const accepted = q.acceptedAnswers.filter((a) => a.trim() !== '');
      if (accepted.length === 0) return null;
      const base = q.units?.units.find((u) => u.multiplier === 1)?.symbol;
      const tolerance = q.matching?.numeric ?? null;
      return accepted.map((a) => withTolerance(a, tolerance, base)).join(' | ');
    }
    case 'ordering':
      return q.items.length ? q.items.map((item, i) => `${i + 1}. ${item}`).join('; ') : null;
    case 'matching':
      return q.pairs.length ? q.pairs.map((p) => `${p.prompt} → ${p.answer}`).join('; ') : null;
    case 'fill-blanks':
      return q.blanks.length
        ? filledGaps(
            q.gapText,
            q.blanks.map((b) =>
              b.accepted
                .map((a) => (b.kind === 'numeric' ? withTolerance(a, { tolerance: b.tolerance, mode: 'absolute' }) : a))
                .join(' / '),
            ),
          )
        : null;
    default:
      return null;
  }
}
