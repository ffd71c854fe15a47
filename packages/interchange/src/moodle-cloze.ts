import { type Blank } from '@exam/domain/question-kinds';

/**
 * Moodle's embedded answers (Cloze, docs.moodle.org/en/Embedded_Answers_(Cloze)_question_type): a gap is
 * `{weight:TYPE:answers}`, answers separated by `~`, each `=answer` (right), `%n%answer` (n percent) or `answer`
 * (wrong), then `#feedback`; `\` escapes `} # ~ / " \`. A numerical answer is `value:tolerance`.
 */

export type ClozeAnswer = { fraction: number; text: string; feedback: string };
export type ClozeGap = { weight: number; type: string; answers: ClozeAnswer[]; source: string };

export const CLOZE_KINDS: Record<string, { kind: Blank['kind']; caseSensitive?: boolean; layout?: string }> = {
  SHORTANSWER: { kind: 'text' },
  SA: { kind: 'text' },
  MW: { kind: 'text' },
  SHORTANSWER_C: { kind: 'text', caseSensitive: true },
  SAC: { kind: 'text', caseSensitive: true },
  MWC: { kind: 'text', caseSensitive: true },
  NUMERICAL: { kind: 'numeric' },
  NM: { kind: 'numeric' },
  MULTICHOICE: { kind: 'choice' },
  MC: { kind: 'choice' },
  MULTICHOICE_S: { kind: 'choice' },
  MCS: { kind: 'choice' },
  MULTICHOICE_V: { kind: 'choice', layout: 'vertical radio buttons' },
  MCV: { kind: 'choice', layout: 'vertical radio buttons' },
  MULTICHOICE_VS: { kind: 'choice', layout: 'vertical radio buttons' },
  MCVS: { kind: 'choice', layout: 'vertical radio buttons' },
  MULTICHOICE_H: { kind: 'choice', layout: 'horizontal radio buttons' },
  MCH: { kind: 'choice', layout: 'horizontal radio buttons' },
  MULTICHOICE_HS: { kind: 'choice', layout: 'horizontal radio buttons' },
  MCHS: { kind: 'choice', layout: 'horizontal radio buttons' },
};

/** Splits at an unescaped separator. */
function splitUnescaped(text: string, separator: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i++;
    } else if (ch === separator) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}

const unescape = (text: string) => text.replace(/\\(.)/g, '$1');

function parseAnswers(body: string): ClozeAnswer[] {
  return splitUnescaped(body, '~')
    .filter((part, i) => i > 0 || part.trim() !== '')
    .map((part) => {
      const [answer = '', ...feedback] = splitUnescaped(part, '#');
      let text = answer;
      let fraction = 0;
      const percent = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(text);
      if (text.trimStart().startsWith('=')) {
        fraction = 100;
        text = text.trimStart().slice(1);
      } else if (percent) {
        fraction = Number(percent[1]);
        text = text.slice(percent[0].length);
      }
      return { fraction, text: unescape(text).trim(), feedback: unescape(feedback.join('#')).trim() };
    });
}

/**
 * The embedded answers of a question text, each replaced by `marker(n)` (n from 0); the gaps in order. Braces
 * that do not start an embedded answer are left as written.
 */
export function extractGaps(text: string, marker: (n: number) => string): { text: string; gaps: ClozeGap[] } {
  const gaps: ClozeGap[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const head = /^\{(\d*):([A-Z_]+):/.exec(text.slice(i));
    if (!head) {
      out += text[i];
      i++;
      continue;
    }
    let end = i + head[0].length;
    while (end < text.length && text[end] !== '}') end += text[end] === '\\' ? 2 : 1;
    if (end >= text.length) {
      out += text.slice(i);
      break;
    }
    const source = text.slice(i, end + 1);
    gaps.push({
      weight: head[1] === '' ? 1 : Number(head[1]),
      type: head[2]!,
      answers: parseAnswers(text.slice(i + head[0].length, end)),
      source,
    });
    out += marker(gaps.length - 1);
    i = end + 1;
  }
  return { text: out, gaps };
}

/** Escapes what ends or splits an embedded answer. */
export const escapeCloze = (text: string) => text.replace(/[\\}#~/"]/g, (c) => `\\${c}`);

/** One gap of the platform as an embedded answer; `weight` is an integer (Moodle reads no other). */
export function formatGap(blank: Blank, weight: number, caseSensitive: boolean): string {
  if (blank.kind === 'numeric') {
    const answers = blank.accepted.map((a) => `=${a.trim()}:${blank.tolerance}`);
    return `{${weight}:NUMERICAL:${answers.join('~')}}`;
  }
  if (blank.kind === 'choice') {
    const accepted = new Set(blank.accepted);
    const answers = blank.options.map((o) => `${accepted.has(o) ? '=' : ''}${escapeCloze(o)}`);
    return `{${weight}:MULTICHOICE:${answers.join('~')}}`;
  }
  const answers = blank.accepted.map((a) => `=${escapeCloze(a)}`);
  return `{${weight}:${caseSensitive ? 'SHORTANSWER_C' : 'SHORTANSWER'}:${answers.join('~')}}`;
}
