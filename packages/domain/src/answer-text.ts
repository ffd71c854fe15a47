import { decodeChoices } from './grading.ts';
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
};

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
      return accepted.map((a) => (base ? `${a} ${base}` : a)).join(' | ');
    }
    case 'ordering':
      return q.items.length ? q.items.map((item, i) => `${i + 1}. ${item}`).join('; ') : null;
    case 'matching':
      return q.pairs.length ? q.pairs.map((p) => `${p.prompt} → ${p.answer}`).join('; ') : null;
    case 'fill-blanks':
      return q.blanks.length
        ? filledGaps(
            q.gapText,
            q.blanks.map((b) => b.accepted.join(' / ')),
          )
        : null;
    default:
      return null;
  }
}
