import { htmlToMarkdown } from './html-text.ts';
import { ImportCollector, type QuestionDraft, type ReadResult, titleFrom } from './model.ts';

/**
 * GIFT import (Moodle's text format, docs.moodle.org/en/GIFT_format): questions separated by blank lines,
 * `//` comment lines, `$CATEGORY:` lines, `::title::`, `[html]`/`[markdown]`/`[plain]`/`[moodle]` text formats,
 * `{…}` answer blocks (essay `{}`, true/false, numeric `#`, matching `->`, multiple choice `~`, short answer `=`),
 * `%weight%`, `#feedback` and the `\` escapes of `~ = # { } :`. Feedback has no place in a platform question
 * and is not carried over; GIFT has no points, so every question is worth 1.
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

type Answer = { correct: boolean; weight: number | null; text: string };

export function importGift(text: string): ReadResult {
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
  return { title: '', questions: collector.questions, notImported: collector.notImported };
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
  const content = formatText(after ? `${rest.slice(0, open).trimEnd()} ____ ${after}` : rest.slice(0, open));
  const title = explicitTitle || titleFrom(content, `Question ${n}`);
  const block = rest.slice(open + 1, close).trim();
  const draft = draftOf(block, { title, content, topic });
  if (typeof draft === 'string') collector.skip(ref, title, draft);
  else collector.add(ref, draft);
}

type Base = { title: string; content: string; topic: string };

function draftOf(block: string, base: Base): QuestionDraft | string {
  if (block === '') return { ...base, type: 'short-answer', acceptedAnswers: [] };
  if (block.startsWith('#')) return numericDraft(block.slice(1), base);
  const tf = /^(T|TRUE|F|FALSE)\s*(#|$)/i.exec(block);
  if (tf) {
    const value = (tf[1] ?? '').toUpperCase().startsWith('T') ? 'True' : 'False';
    return { ...base, type: 'mcq', options: ['True', 'False'], correctAnswer: value };
  }
  const answers = splitAnswers(block);
  if (answers.length === 0) return 'The answer block has no answers';
  if (answers.some((a) => a.correct && a.text.includes('->')))
    return 'A matching question: this platform has no matching questions';
  const hasWrong = answers.some((a) => !a.correct);
  return hasWrong ? choiceDraft(answers, base) : shortAnswerDraft(answers, base);
}

/** `=answer`, `~answer`, each with an optional `%weight%` and a `#feedback` that is dropped. */
function splitAnswers(block: string): Answer[] {
  const out: Answer[] = [];
  const re = /([=~])([^=~]*)/g;
  for (const m of block.matchAll(re)) {
    let body = m[2] ?? '';
    const hash = body.indexOf('#');
    if (hash >= 0) body = body.slice(0, hash);
    const w = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(body);
    if (w) body = body.slice(w[0].length);
    out.push({ correct: m[1] === '=', weight: w ? Number(w[1]) : null, text: formatText(body) });
  }
  return out;
}

function choiceDraft(answers: Answer[], base: Base): QuestionDraft | string {
  const options = answers.map((a) => a.text);
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  const weighted = answers.some((a) => !a.correct && a.weight !== null && a.weight > 0);
  if (!weighted) {
    const right = answers.filter((a) => a.correct);
    if (answers.some((a) => a.correct && a.weight !== null && a.weight !== 100))
      return 'An option gives part of the points; a single-answer question here is right or wrong';
    if (right.length === 1) return { ...base, type: 'mcq', options, correctAnswer: right[0]?.text };
    return { ...base, type: 'mcq', options, multipleAnswers: true, correctAnswers: right.map((a) => a.text) };
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
  };
}

function shortAnswerDraft(answers: Answer[], base: Base): QuestionDraft | string {
  const partial = answers.filter((a) => a.weight !== null && a.weight > 0 && a.weight < 100);
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((a) => `"${a.text}"`).join(', ')}; a short answer here is right or wrong`;
  const accepted = answers.filter((a) => (a.weight ?? 100) === 100).map((a) => a.text);
  if (accepted.some((a) => a.includes('*')))
    return 'An accepted answer uses the * wildcard, which is not supported here';
  return { ...base, type: 'short-answer', acceptedAnswers: accepted };
}

/** `#3:2` (3 ± 2), `#1..5` (the range as its middle ± half its width), or `=`-answers of those forms. */
function numericDraft(block: string, base: Base): QuestionDraft | string {
  const parts = block.includes('=')
    ? splitAnswers(block).filter((a) => a.correct)
    : [{ correct: true, weight: null, text: block.split(/[~#]/)[0] ?? '' }];
  const full = parts.filter((p) => (p.weight ?? 100) === 100);
  if (parts.some((p) => (p.weight ?? 100) !== 100 && (p.weight ?? 0) > 0))
    return 'It gives part of the points for some numbers; a short answer here is right or wrong';
  const values = full.map((p) => numberOf(p.text.trim()));
  if (values.length === 0 || values.some((v) => v === null))
    return 'The numeric answer is not a number this platform can read';
  const ok = values as Array<{ value: number; tolerance: number }>;
  const tolerances = new Set(ok.map((v) => v.tolerance));
  if (tolerances.size > 1) return 'The accepted numbers have different tolerances; here one tolerance applies to all';
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: ok.map((v) => String(v.value)),
    matching: { caseSensitive: false, numeric: { tolerance: ok[0]?.tolerance ?? 0, mode: 'absolute' } },
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
