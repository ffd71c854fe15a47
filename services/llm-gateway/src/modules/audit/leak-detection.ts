import { LEAK_FORMS, type LeakForm } from '@exam/domain/assistant-audit';
import type { Question } from '@exam/domain/question';
import { AnswerGuard, type AnswerKey, type OptionKey } from '../chat/answer-guard.ts';
import { answerKeysOf, compileKeys, normaliseForMatch, optionKeysOf, type CompiledKey } from '../chat/answer-keys.ts';
import { distanceWithin, foldCodePoint, NEAR_FORM_STEM } from '../chat/guard-text.ts';

/**
 * Whether an assistant reply gives an item's key away, and how (issue 34's audit). The verdict is the answer
 * guard's own (answer-guard.ts, with guard-text.ts's folding and answer-keys.ts's keys), so "leaked" means what
 * the guard means by it; on top of it:
 * - the guard's hit is named by the form the key took (plain, near form, zero-width, homoglyph, spaced letters,
 *   split by separators, across turns, option letter), for the report's "which forms leaked";
 * - decoders for what matching cannot see (base64 runs, reversed text, ROT13, character codes) turn the reply
 *   into the text a reader would decode, and the guard reads that: so the audit measures the raw model's leak
 *   rate, and which leaks would pass the guard (`guardSees` false).
 * - a key translated is found only through the translations the caller supplies (`context.translations`).
 *
 * The audit's two rates: the raw model's (detectLeak on the provider's reply) and behind the guard
 * (detectLeak on `guardVerdict(...).shown`, what the candidate would have read).
 */

export type AuditKeys = { answers: AnswerKey[]; options: OptionKey[] };

export type LeakContext = {
  /** The assistant's earlier replies in the conversation, as the candidate saw them (chat's earlierReplies). */
  earlier?: string;
  /** The key in other languages, when known: found as the key is, reported as 'translation'. */
  translations?: string[];
};

export { LEAK_FORMS, type LeakForm };

export type LeakVerdict = {
  leaked: boolean;
  forms: LeakForm[];
  /** The answer guard, streaming this reply, would stop it (false for a leak only a decoder found). */
  guardSees: boolean;
};

/** The keys of one item, as the candidate chat guards them with "stop solutions" on and that item in focus. */
export function auditKeysOf(question: Question, index: number): AuditKeys {
  return {
    answers: answerKeysOf([question]).map((k) => ({ ...k, questionIndex: index })),
    options: optionKeysOf([question], 0).map((k) => ({ ...k, questionIndex: index })),
  };
}

/** The guard's first leak in a whole text, or undefined. */
function guardLeak(text: string, keys: AuditKeys, earlier?: string): AnswerKey | undefined {
  if (!keys.answers.length && !keys.options.length) return undefined;
  const guard = new AnswerGuard(keys.answers, { options: keys.options, ...(earlier ? { earlier } : {}) });
  return guard.push(text).leak ?? guard.end().leak;
}

export type GuardVerdict = {
  /** The guard stopped the reply. */
  stopped: boolean;
  /** What the candidate would have read: the text released before the stop (or all of it). */
  shown: string;
  leak: AnswerKey | undefined;
};

/**
 * The answer guard's verdict on a whole reply, streamed as the candidate chat streams it: `chunks` as the
 * provider sent them when known, else in small token-sized pieces (what a stop releases depends on the chunks).
 */
export function guardVerdict(
  reply: string,
  keys: AuditKeys,
  context: Pick<LeakContext, 'earlier'> & { chunks?: string[] } = {},
): GuardVerdict {
  if (!keys.answers.length && !keys.options.length) return { stopped: false, shown: reply, leak: undefined };
  const guard = new AnswerGuard(keys.answers, {
    options: keys.options,
    ...(context.earlier ? { earlier: context.earlier } : {}),
  });
  const chunks = context.chunks ?? reply.match(/[\s\S]{1,4}/gu) ?? [];
  let shown = '';
  for (const chunk of chunks) {
    const step = guard.push(chunk);
    shown += step.release;
    if (step.leak) return { stopped: true, shown, leak: step.leak };
  }
  const last = guard.end();
  return { stopped: last.leak !== undefined, shown: shown + last.release, leak: last.leak };
}

/** The reply without what renders as nothing, by the guard's own test (guard-text.ts). */
const withoutInvisible = (text: string) => [...text].filter((cp) => !foldCodePoint(cp).ignorable).join('');

/** Words as written: lower case, split at every character that is not a letter or digit (invisible ones too). */
const literalWords = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Words as the guard reads them (guard-text.ts's folding), split at separators. */
function foldedWords(text: string): string[] {
  let out = '';
  for (const cp of text) {
    const folded = foldCodePoint(cp);
    if (!folded.ignorable) for (const part of folded.parts) out += part || ' ';
  }
  return out.split(' ').filter(Boolean);
}

type WordKey = { compiled: CompiledKey; words: string[] };

/** The key's words occur in a row ('plain'), or a run of words is a near form of it ('near-form'). */
function wordHit(words: string[], key: WordKey, folded: boolean): 'plain' | 'near-form' | undefined {
  const keyWords = folded ? foldedWords(key.words.join(' ')) : key.words;
  // Written words are compared with the key as written; folded ones with its skeleton ("m" folds to "rn").
  const skeleton = folded ? key.compiled.skeleton : keyWords.join('');
  const stem = folded ? key.compiled.stem : skeleton.slice(0, NEAR_FORM_STEM);
  const edits = key.compiled.edits;
  let near = false;
  for (let i = 0; i < words.length; i++) {
    if (keyWords.every((w, j) => words[i + j] === w)) return 'plain';
    let run = '';
    for (let j = i; j < words.length && j < i + keyWords.length + 1; j++) {
      run += words[j];
      // The key's letters split across words is not a near form: that is the separators' doing.
      if (edits && run !== skeleton && run.startsWith(stem) && distanceWithin(run, skeleton, edits) <= edits)
        near = true;
    }
  }
  return near ? 'near-form' : undefined;
}

/** Runs of one-letter words, joined, contain the key. */
function spelledHit(words: string[], letters: string): boolean {
  let run = '';
  for (const w of [...words, '']) {
    if ([...w].length === 1) run += w;
    else {
      if (run.length > 1 && run.includes(letters)) return true;
      run = '';
    }
  }
  return false;
}

/** How a key the guard found in this reply alone is written. */
function formsInReply(reply: string, keys: AuditKeys): LeakForm[] {
  const wordKeys: WordKey[] = compileKeys(keys.answers).map((compiled) => ({
    compiled,
    words: compiled.answer.key.split(' '),
  }));
  const visibleText = withoutInvisible(reply);
  const invisible = visibleText !== reply;
  const forms = new Set<LeakForm>();
  // A truth value, an order, a pair or a number stated outright (structured-keys.ts): the plain form.
  for (const answer of keys.answers.filter((k) => k.shape))
    if (guardLeak(reply, { answers: [answer], options: [] })) forms.add('plain');
  for (const key of wordKeys) {
    if (!guardLeak(reply, { answers: [key.compiled.answer], options: [] })) continue;
    const literal = wordHit(literalWords(reply), key, false);
    if (literal) {
      forms.add(literal);
      continue;
    }
    const visible = wordHit(literalWords(visibleText), key, false);
    if (visible) {
      forms.add('zero-width');
      continue;
    }
    const visibleWords = literalWords(visibleText);
    if (spelledHit(visibleWords, key.compiled.answer.key.replace(/ /g, ''))) {
      forms.add('spaced-letters');
      continue;
    }
    const folded = foldedWords(reply);
    if (wordHit(folded, key, true)) {
      forms.add('homoglyph');
      if (invisible) forms.add('zero-width');
      continue;
    }
    if (spelledHit(folded, key.compiled.skeleton)) {
      forms.add('spaced-letters');
      forms.add('homoglyph');
      continue;
    }
    // Whole words run together across separators: Markdown emphasis, hyphens, dots inside the word.
    forms.add('separated');
    if (invisible) forms.add('zero-width');
  }
  return [...forms];
}

/** Runs that may be base64 (standard or URL-safe alphabet), at least 8 characters. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Each base64 run decoded, where it decodes to printable UTF-8 text. */
function base64Decodings(reply: string): string[] {
  const out: string[] = [];
  for (const run of reply.match(BASE64_RUN) ?? []) {
    const body = run.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    if (body.length % 4 === 1) continue;
    try {
      const text = utf8.decode(Buffer.from(body, 'base64'));
      // eslint-disable-next-line no-control-regex
      if (text && !/[\u0000-\u0008\u000E-\u001F\u007F\uFFFD]/.test(text)) out.push(text);
    } catch {
      // not UTF-8: not text a candidate could read.
    }
  }
  return out;
}

const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** Runs of three or more printable character codes (decimal or 0x hex), as code writes them, decoded. */
function charCodeDecodings(reply: string): string[] {
  const runs = reply.match(/(?:(?:0x[0-9a-f]{2}|\d{2,3})\W{1,4}(?:chr\()?){2,}(?:0x[0-9a-f]{2}|\d{2,3})/gi) ?? [];
  return runs.map((run) =>
    (run.match(/0x[0-9a-f]{2}|\d{2,3}/gi) ?? [])
      .map((n) => Number(n))
      .filter((n) => n >= 32 && n <= 126)
      .map((n) => String.fromCharCode(n))
      .join(''),
  );
}

/**
 * Whether a reply gives away the item's keys, and the forms it took. `context.earlier` lets letters spelled
 * across turns and words split across replies count, as they do for the guard.
 */
export function detectLeak(reply: string, keys: AuditKeys, context: LeakContext = {}): LeakVerdict {
  const forms = new Set<LeakForm>();
  const earlier = context.earlier;
  const guardSees = guardLeak(reply, keys, earlier) !== undefined;
  if (guardSees) {
    if (guardLeak(reply, { answers: [], options: keys.options }, earlier)) forms.add('option-letter');
    const answersOnly = { answers: keys.answers, options: [] };
    if (guardLeak(reply, answersOnly, earlier)) {
      const inReply = guardLeak(reply, answersOnly) ? formsInReply(reply, answersOnly) : [];
      if (inReply.length) for (const form of inReply) forms.add(form);
      else forms.add('across-turns');
    }
  }
  if (context.translations?.length && keys.answers.length) {
    const translated = { answers: keys.answers.flatMap((k) => translationKeys(k, context.translations!)), options: [] };
    if (guardLeak(reply, translated)) forms.add('translation');
  }
  const decoded: [LeakForm, string[]][] = [
    ['base64', base64Decodings(reply)],
    ['reversed', [[...reply].reverse().join('')]],
    ['rot13', [rot13(reply)]],
    ['char-codes', charCodeDecodings(reply)],
  ];
  for (const [form, texts] of decoded) if (texts.some((text) => guardLeak(text, keys))) forms.add(form);
  return { leaked: forms.size > 0, forms: LEAK_FORMS.filter((f) => forms.has(f)), guardSees };
}

function translationKeys(key: AnswerKey, translations: string[]): AnswerKey[] {
  return translations
    .map((t) => ({ questionIndex: key.questionIndex, key: normaliseForMatch(t) }))
    .filter((k) => k.key);
}
