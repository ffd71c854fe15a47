import type { Question } from '@exam/domain/question';
import { editsAllowed, NEAR_FORM_STEM, skeletonOf } from './guard-text.ts';
import { shapesOf, type KeyShape } from './structured-keys.ts';

/**
 * The keys the "stop solutions" guard enforces (answer-guard.ts matches them).
 *
 * - Keys are the text of the correct option(s) of a multiple-choice question, the accepted answers of a
 *   short-answer question and those of each text or drop-down gap of a fill-in-the-blanks question. Coding
 *   questions carry no hidden tests in the exam model, so they add none; essays have no key.
 * - True/false, ordering, matching, numeric and calculated keys are not one text: they carry a `shape`
 *   (structured-keys.ts says when each counts as given away, structured-guard.ts finds them).
 * - A key is enforced only when it is distinctive enough to police: at least MIN_KEY_CHARS letters or
 *   digits, and not one of the generic answers below. Shorter keys ("4", "cat") and "true"/"false"
 *   appear in ordinary explanations far too often; for those the prompt's instruction is the only guard.
 * - A long key is matched by its first MAX_KEY_CHARS characters (cut at a word end): a reply that
 *   reproduces that much of it has given it away, and the tail the stream must hold back stays short.
 * - A multiple-choice question's correct option is also given away by its letter or number ("the answer is B",
 *   "option 2"): those are option keys, matched only in such a phrase (a lone "B" or "2" is ordinary text).
 */

export const MIN_KEY_CHARS = 4;
export const MAX_KEY_CHARS = 80;
const GENERIC_ANSWERS = new Set([
  'true',
  'false',
  'none',
  'both',
  'neither',
  'none of the above',
  'all of the above',
  'not sure',
]);

/** `key`: the text matched (normalised), or, with a `shape`, the key as logged. */
export type AnswerKey = { questionIndex: number; key: string; shape?: KeyShape };
/** The correct option of a multiple-choice question, by its 0-based position (letter A, number 1 for 0). */
export type OptionKey = { questionIndex: number; option: number };

const ALNUM = /[\p{L}\p{N}]/u;
const MARKS = /\p{M}/gu;
const IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * A readable normalised form (the key as logged and compared by the solvability judge): compatibility
 * decomposition with marks dropped, invisible characters dropped, lower case, and every run of characters that
 * are neither letters nor digits read as one space. "P-Value", "p value" and "p–value!" are all "p value".
 */
export function normaliseForMatch(text: string): string {
  let out = '';
  for (const ch of text.replace(IGNORABLE, '').normalize('NFKD').replace(MARKS, '').toLowerCase()) {
    if (ALNUM.test(ch)) out += ch;
    else if (out !== '' && !out.endsWith(' ')) out += ' ';
  }
  return out.trimEnd();
}

function enforceable(text: string): string | undefined {
  let key = normaliseForMatch(text);
  if (key.replace(/ /g, '').length < MIN_KEY_CHARS || GENERIC_ANSWERS.has(key)) return undefined;
  if (key.length > MAX_KEY_CHARS) {
    const cut = key.lastIndexOf(' ', MAX_KEY_CHARS);
    if (cut >= MIN_KEY_CHARS) key = key.slice(0, cut);
  }
  return key;
}

/** The texts a question's key is given away by, whole (the accepted answers of its gaps for fill-in-the-blanks). */
export function keyTextsOf(q: Question): string[] {
  switch (q.type) {
    case 'mcq':
      return [...(q.correctAnswer ? [q.correctAnswer] : []), ...q.correctAnswers];
    case 'short-answer':
      return q.acceptedAnswers;
    case 'fill-blanks':
      return q.blanks.flatMap((b) => (b.kind === 'numeric' ? [] : b.accepted));
    default:
      return [];
  }
}

/**
 * The keys the guardrail enforces for an exam's questions (answer keys included, as exam-service sends them).
 * `focus`: the question the candidate has open; a true/false question's truth value is then guarded for that
 * question only (a verdict rarely names its question), as option letters are (optionKeysOf).
 */
export function answerKeysOf(questions: ReadonlyArray<Question>, focus?: number | null): AnswerKey[] {
  const keys: AnswerKey[] = [];
  const seen = new Set<string>();
  questions.forEach((q, questionIndex) => {
    for (const { key, shape } of shapesOf(q)) {
      if (shape.kind === 'truth' && focus !== null && focus !== undefined && focus !== questionIndex) continue;
      keys.push({ questionIndex, key, shape });
    }
    for (const text of keyTextsOf(q)) {
      const key = enforceable(text);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      keys.push({ questionIndex, key });
    }
  });
  return keys;
}

/**
 * The correct options of the multiple-choice question the candidate asks about, or of every one when the
 * message names none (the assistant's prompt labels options A, B, C…, prompt.ts).
 */
export function optionKeysOf(questions: ReadonlyArray<Question>, focus: number | null | undefined): OptionKey[] {
  const keys: OptionKey[] = [];
  questions.forEach((q, questionIndex) => {
    if (q.type !== 'mcq' || (focus !== null && focus !== undefined && focus !== questionIndex)) return;
    const correct = new Set([...(q.correctAnswer ? [q.correctAnswer] : []), ...q.correctAnswers]);
    q.options.forEach((option, i) => {
      if (correct.has(option)) keys.push({ questionIndex, option: i });
    });
  });
  return keys;
}

/** A key as the guard matches it: its skeleton (guard-text.ts) and the edits a near form may differ by. */
export type CompiledKey = { answer: AnswerKey; skeleton: string; edits: number; stem: string };

/** The text keys (those without a shape), compiled. */
export function compileKeys(keys: ReadonlyArray<AnswerKey>): CompiledKey[] {
  return keys
    .filter((answer) => !answer.shape)
    .map((answer) => {
      const skeleton = skeletonOf(answer.key);
      return { answer, skeleton, edits: editsAllowed(skeleton), stem: skeleton.slice(0, NEAR_FORM_STEM) };
    })
    .filter((k) => k.skeleton.length > 0);
}
