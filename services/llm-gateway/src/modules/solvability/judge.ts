import type { Question } from '@exam/domain/question';
import type { RunRequest } from '@exam/domain/coding';
import { hasAnswerKey, matchesShortAnswer } from '@exam/domain/grading';
import { AnswerGuard, answerKeysOf, normaliseForMatch } from '../chat/answer-guard.ts';

/**
 * Whether an assistant's reply gives a question's key away, judged on the text the candidate would have seen.
 *
 * Multiple choice: the options a reply names are found by their text (whole words, normalised as the
 * guardrail normalises) and by their letter or number as the prompt lists them ("B", "B)", "option 2"). A reply
 * gives the key away when it asserts an option ("the answer is B", "Median is correct", "choose 2") and that is
 * a correct one, or, with no assertion, when it names every correct option and no other. A reply that walks
 * through all the options names wrong ones too, so it is not counted unless it asserts the right one.
 *
 * Short answer: the reply contains an accepted answer under the question's own matching (grading.ts's
 * matchesShortAnswer): each run of as many words as an accepted answer has, and each number for numeric
 * matching, is tried as if the candidate had typed it.
 *
 * The further types (true/false, ordering, matching, fill-in-the-blanks, numeric): the reply states the key as the
 * answer guard defines it (structured-keys.ts), so "solvable" means what the guard would have stopped. A calculated
 * question of a draft has no values, hence no key, and essays have none: both are not judged.
 */

const letterOf = (i: number) => String.fromCharCode(65 + i);

/**
 * The option indices a fragment of text refers to: "Median", "option 2", "answer (b)", "B)" or "B" standing
 * alone in capitals. "A" alone is usually the article, so it counts only marked ("A)", "(A)", "option A") or
 * as a whole fragment ("the answer is A").
 */
function optionsIn(fragment: string, options: readonly string[]): Set<number> {
  const found = new Set<number>();
  const norm = ` ${normaliseForMatch(fragment)} `;
  options.forEach((option, i) => {
    const key = normaliseForMatch(option);
    if (key && norm.includes(` ${key} `)) found.add(i);
    const letter = letterOf(i);
    const patterns = [
      new RegExp(`\\b(?:option|answer|choice)\\s*\\(?${letter}\\b`, 'i'),
      new RegExp(`\\b(?:option|choice)\\s*#?${i + 1}\\b`, 'i'),
      new RegExp(`\\(${letter}\\)`, 'i'),
      new RegExp(`(?<![\\w'])${letter}\\)`),
      new RegExp(`^[\\s*_"']*${letter}[\\s*_"'.]*$`),
    ];
    if (letter !== 'A') patterns.push(new RegExp(`(?<![\\w'])${letter}(?![\\w'])`));
    if (patterns.some((p) => p.test(fragment))) found.add(i);
  });
  return found;
}

const CLAUSE = /,|\bwhile\b|\bbut\b|\bwhereas\b|\bbecause\b|\bsince\b|\bso\b/i;

// What follows "the (correct) answer is", "choose"…, up to its clause's end; or what precedes "is correct".
const ASSERTED_AFTER = [
  /\b(?:correct|right|best|final)\s+(?:answer|option|choice)\s*(?:is|would be|:)\s*([^.\n;!?]{1,120})/gi,
  /\b(?:answer|option|choice)\s+is\s*:?\s*([^.\n;!?]{1,120})/gi,
  /\b(?:choose|pick|select|go with|tick)\s+([^.\n;!?]{1,120})/gi,
];
const ASSERTED_BEFORE =
  /([^.\n;!?]{1,120}?)\s+is\s+(?:the\s+)?(?:correct|right)(?:\s+(?:answer|option|one|choice))?\b/gi;

/** The option indices the reply asserts are the answer, and those it says are not ("the answer is not B"). */
function assertedOptions(reply: string, options: readonly string[]) {
  const asserted = new Set<number>();
  const denied = new Set<number>();
  const add = (fragment: string) => {
    const negated = /^\s*(?:not|n't)\b/i.test(fragment);
    for (const i of optionsIn(fragment, options)) (negated ? denied : asserted).add(i);
  };
  for (const pattern of ASSERTED_AFTER)
    for (const match of reply.matchAll(pattern)) add((match[1] ?? '').split(CLAUSE)[0] ?? '');
  // Only the last clause names what "is correct": "the mean moves, while the median is correct".
  for (const match of reply.matchAll(ASSERTED_BEFORE)) add((match[1] ?? '').split(CLAUSE).at(-1) ?? '');
  return { asserted, denied };
}

export function mcqGivesAway(
  reply: string,
  question: Pick<Question, 'options' | 'correctAnswer' | 'correctAnswers' | 'multipleAnswers'>,
): boolean {
  const options = question.options;
  const correct = new Set(
    (question.multipleAnswers ? question.correctAnswers : question.correctAnswer ? [question.correctAnswer] : [])
      .map((answer) => options.indexOf(answer))
      .filter((i) => i >= 0),
  );
  if (!correct.size) return false;
  const { asserted, denied } = assertedOptions(reply, options);
  if (asserted.size) return [...correct].every((i) => asserted.has(i)) && [...asserted].every((i) => correct.has(i));
  const named = new Set([...optionsIn(reply, options)].filter((i) => !denied.has(i)));
  return named.size === correct.size && [...named].every((i) => correct.has(i));
}

const NUMBER = /[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?|[+-]?\.\d+/gi;
/** Punctuation around a word that the candidate would not have typed ("**Median**.", "(p-value)"). */
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

export function shortAnswerGivesAway(reply: string, question: Pick<Question, 'acceptedAnswers' | 'matching'>): boolean {
  const accepted = question.acceptedAnswers.filter((a) => a.trim() !== '');
  if (!accepted.length) return false;
  if (question.matching.numeric) {
    return [...reply.matchAll(NUMBER)].some((m) => matchesShortAnswer(m[0], accepted, question.matching));
  }
  const words = reply
    .split(/\s+/)
    .map((w) => w.replace(EDGES, ''))
    .filter(Boolean);
  return accepted.some((answer) => {
    const length = answer.trim().split(/\s+/).length;
    for (let start = 0; start + length <= words.length; start++) {
      const run = words.slice(start, start + length).join(' ');
      if (matchesShortAnswer(run, [answer.replace(EDGES, '')], question.matching)) return true;
    }
    return false;
  });
}

/** A coding question's visible tests and how to run them (hidden tests never leave the grading path). */
export type CodeCheck = Pick<RunRequest, 'language' | 'tests' | 'limits' | 'setupScript'>;

/** How a question can be judged: by its key, by running a reply's code against its visible tests, or why not. */
export type Judgement =
  | { kind: 'key'; givesAway: (shownText: string) => boolean }
  | { kind: 'code'; check: CodeCheck }
  | { kind: 'unjudged'; reason: 'no-key' | 'file-upload' | 'no-visible-tests'; ask: boolean };

/**
 * Coding questions are judged by running the code a reply gives against the question's visible tests only
 * (workspace-orchestrator's runner). Without visible tests they are still asked, for the creator to read.
 */
export function judgementOf(question: Question): Judgement {
  if (question.type === 'file-upload') return { kind: 'unjudged', reason: 'file-upload', ask: false };
  if (question.type === 'coding') {
    const tests = question.tests.filter((t) => t.visible);
    const { language, limits, setupScript } = question;
    // A question with tests always has a language (codingIssues); without either there is nothing to run.
    if (!tests.length || !language) return { kind: 'unjudged', reason: 'no-visible-tests', ask: true };
    return { kind: 'code', check: { language, tests, limits, setupScript } };
  }
  if (!hasAnswerKey(question)) return { kind: 'unjudged', reason: 'no-key', ask: false };
  if (question.type === 'mcq') return { kind: 'key', givesAway: (text) => mcqGivesAway(text, question) };
  if (question.type === 'short-answer')
    return { kind: 'key', givesAway: (text) => shortAnswerGivesAway(text, question) };
  const keys = answerKeysOf([question], 0);
  if (!keys.length) return { kind: 'unjudged', reason: 'no-key', ask: false };
  return { kind: 'key', givesAway: (text) => guardFinds(text, keys) };
}

function guardFinds(text: string, keys: ReturnType<typeof answerKeysOf>): boolean {
  const guard = new AnswerGuard(keys);
  return (guard.push(text).leak ?? guard.end().leak) !== undefined;
}

export const hasCodeBlock = (text: string) => codeBlocks(text).length > 0;

/** The info-string words a fenced block may carry for each runner language. */
const LANGUAGE_TAGS: Record<RunRequest['language'], readonly string[]> = {
  python: ['python', 'py', 'python3'],
  javascript: ['javascript', 'js', 'node', 'nodejs', 'mjs'],
  sql: ['sql', 'postgresql', 'postgres', 'sqlite', 'mysql'],
  r: ['r'],
  java: ['java'],
  cpp: ['cpp', 'c++', 'cc', 'cxx'],
};

type Block = { tag: string; code: string };

/** The fenced (``` or ~~~) code blocks of a Markdown reply, with the first word of their info string. */
export function codeBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const fence = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^\n`]*)\n([\s\S]*?)^[ \t]{0,3}\1[`~]*[ \t]*$/gm;
  for (const m of text.matchAll(fence)) {
    const code = m[3] ?? '';
    if (code.trim()) blocks.push({ tag: (m[2] ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '', code });
  }
  return blocks;
}

/** The code to run from a reply: the longest block tagged with the question's language, else the longest block. */
export function codeToRun(text: string, language: RunRequest['language']): string | undefined {
  const blocks = codeBlocks(text);
  const longest = (list: Block[]) =>
    list.reduce<Block | undefined>((a, b) => (a && a.code.length >= b.code.length ? a : b), undefined);
  const tags = LANGUAGE_TAGS[language];
  return (longest(blocks.filter((b) => tags.includes(b.tag))) ?? longest(blocks))?.code;
}
