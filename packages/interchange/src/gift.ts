import { type Blank, EMPTY_FEEDBACK, type QuestionFeedback } from '@exam/domain/question-kinds';
import { htmlToMarkdown, linkTargets } from './html-text.ts';
import { ImportCollector, type QuestionDraft, type FullReadResult, titleFrom } from './model.ts';

/**
 * GIFT import (Moodle's text format, docs.moodle.org/en/GIFT_format): questions separated by blank lines,
 * `//` comment lines, `$CATEGORY:` lines, `::title::`, `[html]`/`[markdown]`/`[plain]`/`[moodle]` text formats,
 * `{…}` answer blocks (essay `{}`, true/false, numeric `#`, matching `->`, multiple choice `~`, short answer `=`),
 * `%weight%`, `#feedback` (per option; `####` for the question) and the `\` escapes of `~ = # { } :`. GIFT has no
 * points, so every question is worth 1. An answer block in the middle of the text is a fill-in-the-blanks gap.
 * A question that links a file (an audio recording, say) by a relative address is listed: the file stays behind;
 * a link to a web address is kept in the text.
 */

// Escaped characters stand in as private-use characters while the block is split, then come back.
const ESCAPES: Record<string, string> = {
  '~': '\uE000',
  '=': '\uE001',
  '#': '\uE002',
  '{': '\uE003',
  '}': '\uE004',
  ':': '\uE005',
  '\\': '\uE006',
};
const UNESCAPE = Object.fromEntries(Object.entries(ESCAPES).map(([c, p]) => [p, c]));
const protect = (s: string) => s.replace(/\\([~=#{}:\\n])/g, (_, c: string) => (c === 'n' ? '\n' : (ESCAPES[c] ?? c)));
const restore = (s: string) => s.replace(/[\uE000-\uE006]/g, (c) => UNESCAPE[c] ?? c);

type Answer = { correct: boolean; weight: number | null; text: string; feedback: string };

export function importGift(text: string): FullReadResult {
  const collector = new ImportCollector();
  let category = '';
  const chunks = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => !/^\s*\/\//.test(line))
    .join('\n')
    .split(/\n\s*\n/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  chunks.forEach((chunk, i) => {
    const cat = /^\$CATEGORY:\s*(.*)$/m.exec(chunk);
    if (cat && chunk.startsWith('$CATEGORY:')) {
      category = topicOf(cat[1] ?? '');
      const rest = chunk.slice(chunk.indexOf('\n') + 1).trim();
      if (!chunk.includes('\n') || rest === '') return;
      chunk = rest;
    }
    readQuestion(collector, protect(chunk), i + 1, category);
  });
  return {
    title: '',
    questions: collector.questions,
    notImported: collector.notImported,
    passages: [],
    warnings: collector.warnings,
  };
}

/** Moodle category paths start with their context ($course$, $module$, $system$, top); the rest is the topic. */
export function topicOf(path: string): string {
  const parts = path
    .trim()
    .split('/')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  while (parts.length > 0 && /^(\$\w+\$|top)$/i.test(parts[0] ?? '')) parts.shift();
  return parts.join('/').slice(0, 120);
}

function formatText(raw: string): string {
  const m = /^\s*\[(html|moodle|plain|markdown)\]/i.exec(raw);
  const body = restore(m ? raw.slice(m[0].length) : raw).trim();
  return m?.[1]?.toLowerCase() === 'html' ? htmlToMarkdown(body) : body;
}

function readQuestion(collector: ImportCollector, chunk: string, n: number, topic: string): void {
  const titled = /^::([\s\S]*?)::/.exec(chunk);
  const explicitTitle = titled ? restore(titled[1] ?? '').trim() : '';
  const rest = titled ? chunk.slice(titled[0].length) : chunk;
  const open = rest.indexOf('{');
  const close = rest.lastIndexOf('}');
  const ref = `#${n}${explicitTitle ? ` ${explicitTitle}` : ''}`;
  if (open < 0 || close < open) {
    const content = formatText(rest);
    collector.skip(
      ref,
      explicitTitle || titleFrom(content, ref),
      'A description (text without a question) is not a question',
    );
    return;
  }
  const after = rest.slice(close + 1).trim();
  const before = rest.slice(0, open).trimEnd();
  const content = formatText(after ? `${before} ____ ${after}` : before);
  const title = explicitTitle || titleFrom(content, `Question ${n}`);
  const { block, general } = splitGeneralFeedback(rest.slice(open + 1, close).trim());
  const base = { title, content, topic, feedback: { ...EMPTY_FEEDBACK, general } };
  const warnings: string[] = [];
  const draft = after
    ? (gapDraft(block, formatText(`${rest.slice(0, open)}[[1]]${rest.slice(close + 1)}`), base, (w) =>
        warnings.push(w),
      ) ?? draftOf(block, base, (w) => warnings.push(w)))
    : draftOf(block, base, (w) => warnings.push(w));
  const unreachable = typeof draft === 'string' ? [] : fileLinks(draft);
  if (typeof draft === 'string') collector.skip(ref, title, draft);
  else if (unreachable.length > 0)
    collector.skip(
      ref,
      title,
      `It links ${unreachable.join(', ')}, a file a GIFT file does not carry (a link to a web address is kept)`,
    );
  else collector.add(ref, draft, warnings);
}

/** Link targets of a question's texts that are not web addresses: files that stayed behind in Moodle. */
function fileLinks(draft: QuestionDraft): string[] {
  const texts = [draft.content ?? '', draft.gapText ?? '', ...(draft.options ?? []), draft.feedback?.general ?? ''];
  return texts.flatMap(linkTargets).filter((url) => !/^https?:\/\//i.test(url));
}

/** `####text` at the end of a block is the question's general feedback. */
function splitGeneralFeedback(block: string): { block: string; general: string } {
  const at = block.indexOf('####');
  if (at < 0) return { block, general: '' };
  return { block: block.slice(0, at).trim(), general: formatText(block.slice(at + 4)) };
}

type Base = { title: string; content: string; topic: string; feedback: QuestionFeedback };
type Warn = (reason: string) => void;

function draftOf(block: string, base: Base, warn: Warn): QuestionDraft | string {
  if (block === '') return { ...base, type: 'essay' };
  if (block.startsWith('#')) return numericDraft(block.slice(1), base);
  const tf = /^(T|TRUE|F|FALSE)\s*(#|$)/i.exec(block);
  if (tf) return trueFalseDraft(block, (tf[1] ?? '').toUpperCase().startsWith('T'), base);
  const answers = splitAnswers(block);
  if (answers.length === 0) return 'The answer block has no answers';
  if (answers.some((a) => a.correct && a.text.includes('->'))) return matchingDraft(answers, base, warn);
  const hasWrong = answers.some((a) => !a.correct);
  return hasWrong ? choiceDraft(answers, base) : shortAnswerDraft(answers, base, warn);
}

/** `{T#feedback if wrong#feedback if right}`: the first feedback is for the wrong answer, the second for the right. */
function trueFalseDraft(block: string, value: boolean, base: Base): QuestionDraft {
  const [, wrong = '', right = ''] = block.split('#').map((part) => formatText(part));
  return {
    ...base,
    type: 'true-false',
    correctAnswer: value ? 'true' : 'false',
    optionFeedback: wrong || right ? (value ? [right, wrong] : [wrong, right]) : [],
  };
}

/**
 * The answer block in the middle of the text (`Paris is the capital of {=France} .`): a fill-in-the-blanks
 * question with one gap, typed (short answer), numeric, or a drop-down (multiple choice with one right answer).
 * Undefined for blocks a gap cannot hold (true/false, matching), read as a question with a ____ in its text.
 */
function gapDraft(block: string, gapText: string, base: Base, warn: Warn): QuestionDraft | string | undefined {
  const asGap = (read: QuestionDraft | string, blank: (q: QuestionDraft) => Blank | undefined) => {
    if (typeof read === 'string') return read;
    const gap = blank(read);
    if (!gap) return undefined;
    return { ...base, content: '', gapText, type: 'fill-blanks' as const, blanks: [gap] };
  };
  if (block === '' || /^(T|TRUE|F|FALSE)\s*(#|$)/i.test(block)) return undefined;
  if (block.startsWith('#'))
    return asGap(numericDraft(block.slice(1), base), (q) => ({
      kind: 'numeric',
      accepted: q.acceptedAnswers ?? [],
      options: [],
      tolerance: q.matching?.numeric?.tolerance ?? 0,
      weight: 1,
    }));
  const answers = splitAnswers(block);
  if (answers.length === 0 || answers.some((a) => a.text.includes('->'))) return undefined;
  if (answers.some((a) => !a.correct))
    return asGap(choiceDraft(answers, base), (q) =>
      q.multipleAnswers
        ? undefined
        : { kind: 'choice', accepted: [q.correctAnswer ?? ''], options: q.options ?? [], tolerance: 0, weight: 1 },
    );
  return asGap(shortAnswerDraft(answers, base, warn), (q) =>
    (q.acceptedAnswers ?? []).length > 0
      ? { kind: 'text', accepted: q.acceptedAnswers ?? [], options: [], tolerance: 0, weight: 1 }
      : undefined,
  );
}

/** `=answer`, `~answer`, each with an optional `%weight%` and a `#feedback`. */
function splitAnswers(block: string): Answer[] {
  const out: Answer[] = [];
  const re = /([=~])([^=~]*)/g;
  for (const m of block.matchAll(re)) {
    let body = m[2] ?? '';
    const hash = body.indexOf('#');
    const feedback = hash >= 0 ? formatText(body.slice(hash + 1)) : '';
    if (hash >= 0) body = body.slice(0, hash);
    const w = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(body);
    if (w) body = body.slice(w[0].length);
    out.push({ correct: m[1] === '=', weight: w ? Number(w[1]) : null, text: formatText(body), feedback });
  }
  return out;
}

/** `=prompt -> answer` pairs; `= -> answer` is an answer that matches no prompt. Credit per pair, as in Moodle. */
function matchingDraft(answers: Answer[], base: Base, warn: Warn): QuestionDraft | string {
  const pairs: Array<{ prompt: string; answer: string }> = [];
  const distractors: string[] = [];
  for (const a of answers) {
    const at = a.text.lastIndexOf('->');
    if (!a.correct || at < 0) return 'A matching question with an answer that is not a pair (prompt -> answer)';
    const prompt = formatText(a.text.slice(0, at));
    const answer = formatText(a.text.slice(at + 2));
    if (prompt === '') distractors.push(answer);
    else pairs.push({ prompt, answer });
  }
  if (answers.some((a) => a.feedback !== '')) warn('Its feedback for particular pairs is not carried over');
  return { ...base, type: 'matching', pairs, distractors, scoring: 'partial' };
}

function choiceDraft(answers: Answer[], base: Base): QuestionDraft | string {
  const options = answers.map((a) => a.text);
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  const optionFeedback = answers.some((a) => a.feedback !== '') ? answers.map((a) => a.feedback) : [];
  const weighted = answers.some((a) => !a.correct && a.weight !== null && a.weight > 0);
  if (!weighted) {
    const right = answers.filter((a) => a.correct);
    if (answers.some((a) => a.correct && a.weight !== null && a.weight !== 100))
      return 'An option gives part of the points; a single-answer question here is right or wrong';
    if (right.length === 1) return { ...base, type: 'mcq', options, correctAnswer: right[0]?.text, optionFeedback };
    return {
      ...base,
      type: 'mcq',
      options,
      multipleAnswers: true,
      correctAnswers: right.map((a) => a.text),
      optionFeedback,
    };
  }
  // Multiple response: the options of positive weight are the key; the platform's partial credit gives each
  // right option an equal share, so unequal weights cannot be kept.
  const right = answers.filter((a) => (a.weight ?? (a.correct ? 100 : 0)) > 0);
  const weights = new Set(right.map((a) => a.weight ?? 100));
  if (weights.size > 1) return 'The right options carry different weights; here each right option counts the same';
  return {
    ...base,
    type: 'mcq',
    options,
    multipleAnswers: true,
    correctAnswers: right.map((a) => a.text),
    scoring: 'partial',
    optionFeedback,
  };
}

function shortAnswerDraft(answers: Answer[], base: Base, warn: Warn): QuestionDraft | string {
  const partial = answers.filter((a) => a.weight !== null && a.weight > 0 && a.weight < 100);
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((a) => `"${a.text}"`).join(', ')}; a short answer here is right or wrong`;
  const right = answers.filter((a) => (a.weight ?? 100) === 100);
  const accepted = right.map((a) => a.text);
  if (accepted.some((a) => a.includes('*')))
    return 'An accepted answer uses the * wildcard, which is not supported here';
  const feedback = [...new Set(right.map((a) => a.feedback).filter((f) => f !== ''))];
  if (feedback.length > 1) warn('Its right answers have different feedback; here the first one is shown for all');
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: accepted,
    feedback: { ...base.feedback, correct: feedback[0] ?? '' },
  };
}

/** `#3:2` (3 ± 2), `#1..5` (the range as its middle ± half its width), or `=`-answers of those forms. */
function numericDraft(block: string, base: Base): QuestionDraft | string {
  const parts = block.includes('=')
    ? splitAnswers(block).filter((a) => a.correct)
    : [{ correct: true, weight: null, text: block.split(/[~#]/)[0] ?? '', feedback: '' }];
  const full = parts.filter((p) => (p.weight ?? 100) === 100);
  if (parts.some((p) => (p.weight ?? 100) !== 100 && (p.weight ?? 0) > 0))
    return 'It gives part of the points for some numbers; a numeric question here is right or wrong';
  const values = full.map((p) => numberOf(p.text.trim()));
  if (values.length === 0 || values.some((v) => v === null))
    return 'The numeric answer is not a number this platform can read';
  const ok = values as Array<{ value: number; tolerance: number }>;
  const tolerances = new Set(ok.map((v) => v.tolerance));
  if (tolerances.size > 1) return 'The accepted numbers have different tolerances; here one tolerance applies to all';
  const tolerance = ok[0]?.tolerance ?? 0;
  return {
    ...base,
    type: 'numeric',
    acceptedAnswers: ok.map((v) => String(v.value)),
    matching: { caseSensitive: false, numeric: tolerance > 0 ? { tolerance, mode: 'absolute' } : null },
  };
}
function numberOf(text: string): { value: number; tolerance: number } | null {
  const range = /^(-?[\d.]+)\.\.(-?[\d.]+)$/.exec(text);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null;
    return { value: (lo + hi) / 2, tolerance: Math.abs(hi - lo) / 2 };
  }
  const [v, t] = text.split(':');
  const value = Number(v);
  const tolerance = t === undefined ? 0 : Number(t);
  if (v === undefined || v.trim() === '' || !Number.isFinite(value) || !Number.isFinite(tolerance)) return null;
  return { value, tolerance: Math.abs(tolerance) };
}
