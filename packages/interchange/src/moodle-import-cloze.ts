import { type Blank } from '@exam/domain/question-kinds';
import { htmlToMarkdown } from './html-text.ts';
import { CLOZE_KINDS, type ClozeGap, extractGaps } from './moodle-cloze.ts';
import { type Base, type Read, type Warn, numberField, onlyGeneral } from './moodle-fields.ts';
import { type XmlNode, child, textOf } from './xml.ts';

/**
 * An embedded-answers (Cloze) question as fill-in-the-blanks: each embedded answer is a gap ([[n]]) keyed by its
 * answers worth 100%, weighted by its mark; a drop-down or radio-button choice is a drop-down gap. Moodle gives
 * credit per gap, so the question has partial credit. The text before the paragraph holding the first gap is
 * the question's content, the rest its text with gaps (how our export writes the two).
 */
export function clozeDraft(q: XmlNode, base: Base, warn: Warn): Read {
  const text = child(q, 'questiontext');
  const raw = textOf(child(text ?? q, 'text'));
  const { text: marked, gaps } = extractGaps(raw, (n) => `[[${n + 1}]]`);
  if (gaps.length === 0) return 'An embedded-answers question without an embedded answer';
  if (gaps.length > 50) return 'More than 50 embedded answers; a question here has at most 50 gaps';
  const format = text?.attrs.format ?? 'html';
  const markdown = format === 'html' || format === 'moodle_auto_format' ? htmlToMarkdown(marked) : marked.trim();
  const blanks: Blank[] = [];
  const sensitivity = new Set<boolean>();
  let feedbackLost = false;
  for (const [i, gap] of gaps.entries()) {
    const blank = blankOf(gap, i + 1, warn);
    if (typeof blank === 'string') return blank;
    blanks.push(blank.blank);
    if (blank.caseSensitive !== undefined) sensitivity.add(blank.caseSensitive);
    feedbackLost ||= gap.answers.some((a) => a.feedback !== '');
  }
  if (sensitivity.size > 1)
    warn('Some of its text gaps are case-sensitive and some not; here all of them are case-sensitive');
  if (feedbackLost) warn('Its feedback for the gaps’ answers is not carried over');
  const paragraphs = markdown.split(/\n\n/);
  const first = paragraphs.findIndex((p) => /\[\[\d+\]\]/.test(p));
  const sum = blanks.reduce((total, b) => total + b.weight, 0);
  return {
    ...base,
    content: paragraphs.slice(0, first).join('\n\n'),
    gapText: paragraphs.slice(first).join('\n\n'),
    points: numberField(q, 'defaultgrade', 0) > 0 ? base.points : sum,
    type: 'fill-blanks',
    blanks,
    scoring: 'partial',
    matching: { caseSensitive: sensitivity.has(true), numeric: null },
    feedback: onlyGeneral(base.feedback, warn),
  };
}

function blankOf(gap: ClozeGap, n: number, warn: Warn): { blank: Blank; caseSensitive?: boolean } | string {
  const kind = CLOZE_KINDS[gap.type];
  if (!kind)
    return /^(MULTIRESPONSE|MR)/.test(gap.type)
      ? `Gap ${n} takes several choices (${gap.type}); a gap here takes one`
      : `Gap ${n} is of a type this platform does not know (${gap.type})`;
  if (!(gap.weight > 0 && gap.weight <= 100)) return `Gap ${n} has a weight of ${gap.weight}; here 1 to 100`;
  const right = gap.answers.filter((a) => a.fraction === 100);
  const partial = gap.answers.filter((a) => a.fraction > 0 && a.fraction < 100);
  if (right.length === 0) return `Gap ${n} has no answer worth full marks`;
  if (partial.length > 0)
    warn(`Gap ${n} gives part of the points for ${partial.map((a) => `"${a.text}"`).join(', ')}; here those are wrong`);
  if (kind.layout) warn(`Gap ${n} is shown as a drop-down here (${kind.layout} in Moodle)`);
  const weight = gap.weight;
  if (kind.kind === 'choice') {
    const options = gap.answers.map((a) => htmlToMarkdown(a.text));
    if (new Set(options).size !== options.length) return `Gap ${n} has two options with the same text`;
    const accepted = gap.answers.flatMap((a, i) => (a.fraction === 100 ? [options[i]!] : []));
    return { blank: { kind: 'choice', accepted, options, tolerance: 0, weight } };
  }
  if (kind.kind === 'numeric') {
    const values = right.map((a) => {
      const [value = '', tolerance = '0'] = a.text.split(':');
      return { value: value.trim(), tolerance: Math.abs(Number(tolerance)) };
    });
    if (values.some((v) => v.value === '' || !Number.isFinite(Number(v.value)) || !Number.isFinite(v.tolerance)))
      return `Gap ${n} has a numeric answer that is not a number`;
    if (new Set(values.map((v) => v.tolerance)).size > 1)
      return `Gap ${n} accepts numbers with different tolerances; here one tolerance applies to a gap`;
    return {
      blank: {
        kind: 'numeric',
        accepted: values.map((v) => v.value),
        options: [],
        tolerance: values[0]!.tolerance,
        weight,
      },
    };
  }
  if (right.some((a) => /(^|[^\\])\*/.test(a.text)))
    return `Gap ${n} accepts answers by the * wildcard, which is not supported here`;
  const accepted = right.map((a) => htmlToMarkdown(a.text));
  return {
    blank: { kind: 'text', accepted, options: [], tolerance: 0, weight },
    caseSensitive: kind.caseSensitive ?? false,
  };
}
