import { type Blank, type MatchPair, type Unit } from '@exam/domain/question-kinds';
import { type Question } from '@exam/domain/question';
import { markdownOf } from './html-text.ts';
import { type QuestionDraft } from './model.ts';
import { calculatedOf, calculatedTolerance } from './qti-template-import.ts';
import { type XmlNode, child, childrenNamed, descendants, elements, local, textOf } from './xml.ts';

/**
 * One QTI 3.0 assessment item as a question of the platform (docs/product.md#importing-and-exporting-questions),
 * or the reason it cannot be one. `lost` collects what an imported question leaves behind, for the preview.
 */

type Base = Pick<Question, 'title' | 'content' | 'points' | 'feedback'>;
export type ItemRead = { draft: QuestionDraft; lost: string[] } | string;

const MEDIA = new Set(['img', 'video', 'audio', 'object', 'math', 'svg', 'picture', 'iframe']);
const INTERACTION_TEXT_SKIP = new Set([
  'qti-choice-interaction',
  'qti-order-interaction',
  'qti-match-interaction',
  'qti-associate-interaction',
  'qti-gap-match-interaction',
  'qti-extended-text-interaction',
  'qti-upload-interaction',
  'qti-modal-feedback',
  'qti-feedback-block',
  'qti-rubric-block',
]);
const SUPPORTED =
  'choice, order, match, associate, gap match, inline choice, text entry, extended text and upload interactions';
const EMPTY: XmlNode = { name: '', attrs: {}, children: [] };
const num = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : Number(s));

function findInteractions(node: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of elements(node)) {
    const name = local(c.name);
    if (name.endsWith('-interaction') && name !== 'qti-end-attempt-interaction') out.push(c);
    else out.push(...findInteractions(c));
  }
  return out;
}

/** The item's reading of one response: its declaration, correct values and mapping. */
function responseOf(root: XmlNode, id: string | undefined) {
  const declaration = childrenNamed(root, 'qti-response-declaration').find((d) => d.attrs.identifier === id);
  const correct = childrenNamed(child(declaration ?? EMPTY, 'qti-correct-response') ?? EMPTY, 'qti-value').map((v) =>
    textOf(v).trim(),
  );
  const mapping = declaration ? child(declaration, 'qti-mapping') : undefined;
  const entries = mapping ? childrenNamed(mapping, 'qti-map-entry') : [];
  return { declaration, correct, mapping, entries, baseType: declaration?.attrs['base-type'] ?? '' };
}

/** Values the mapping gives its most points, with the correct values first. */
function keysOf(r: ReturnType<typeof responseOf>): string[] {
  const best = Math.max(0, ...r.entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)));
  const full = r.entries.filter((e) => best > 0 && Number(e.attrs['mapped-value'] ?? 0) === best);
  return [...new Set([...r.correct, ...full.map((e) => e.attrs['map-key'] ?? '')])].filter((k) => k !== '');
}

/** MAXSCORE's default when the item declares it; else what the mapping can give; else `fallback`. */
function pointsOf(root: XmlNode, fallback = 1): number {
  const max = childrenNamed(root, 'qti-outcome-declaration').find((o) => o.attrs.identifier === 'MAXSCORE');
  const declared = num(textOf(max && child(child(max, 'qti-default-value') ?? max, 'qti-value')));
  if (declared !== undefined && declared > 0) return declared;
  const interactions = findInteractions(child(root, 'qti-item-body') ?? EMPTY);
  if (interactions.length === 1) {
    const r = responseOf(root, interactions[0]!.attrs['response-identifier']);
    const upper = num(r.mapping?.attrs['upper-bound']);
    if (upper !== undefined && upper > 0) return upper;
    const positive = r.entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)).filter((v) => v > 0);
    const total =
      r.declaration?.attrs.cardinality === 'single' ? Math.max(0, ...positive) : positive.reduce((a, b) => a + b, 0);
    if (total > 0) return Math.round(total * 100) / 100;
  }
  return fallback;
}

const processingOf = (root: XmlNode) => child(root, 'qti-response-processing');
const usesMapping = (root: XmlNode) => {
  const rp = processingOf(root);
  return (
    (rp?.attrs.template ?? '').includes('map_response') || (rp ? descendants(rp, 'qti-map-response').length > 0 : false)
  );
};

/** The creator's feedback from modal feedback on the platform's outcome (general / correct / partial / incorrect). */
function feedbackOf(root: XmlNode, lost: string[]): Question['feedback'] {
  const feedback = { general: '', correct: '', partial: '', incorrect: '' };
  for (const modal of childrenNamed(root, 'qti-modal-feedback')) {
    const kind = modal.attrs.identifier as keyof typeof feedback;
    const text = markdownOf((child(modal, 'qti-content-body') ?? modal).children);
    if (modal.attrs['show-hide'] !== 'hide' && kind in feedback) feedback[kind] = text;
    else lost.push(`Its feedback "${modal.attrs.identifier}" is shown on a condition this platform has no place for`);
  }
  if (feedback.partial === feedback.incorrect) feedback.partial = '';
  return feedback;
}

export function readItemXml(root: XmlNode, title: string): ItemRead {
  const body = child(root, 'qti-item-body');
  if (!body) return 'The item has no qti-item-body';
  const interactions = findInteractions(body);
  if (interactions.length === 0) return 'The item has no interaction for a candidate to answer';
  const media = [...MEDIA].filter((m) => descendants(body, m).length > 0);
  if (media.length > 0) return `Its text holds ${media.join(', ')} content, which is not carried over`;
  const lost: string[] = [];
  if (descendants(body, 'qti-feedback-block').length > 0)
    lost.push('Its feedback blocks in the text are not carried over');
  const base: Base = { title, content: '', points: pointsOf(root), feedback: feedbackOf(root, lost) };
  const kinds = interactions.map((i) => local(i.name));
  const gapKinds = new Set(['qti-text-entry-interaction', 'qti-inline-choice-interaction']);
  const templated = childrenNamed(root, 'qti-template-declaration').length > 0;
  const unit = interactions.find((i) => i.attrs['response-identifier'] === 'UNIT' && kinds.length === 2);
  const draft = (d: QuestionDraft | string): ItemRead => (typeof d === 'string' ? d : { draft: d, lost });
  if (unit && local(unit.name) === 'qti-inline-choice-interaction')
    return draft(quantityDraft(root, body, { ...base, content: textWithout(body, root) }, unit, templated));
  const gapDiv = descendants(body, 'div').some((d) => (d.attrs.class ?? '').split(' ').includes('exam-gap-text'));
  if (kinds.length > 1 || kinds[0] === 'qti-inline-choice-interaction' || gapDiv) {
    if (kinds.every((k) => gapKinds.has(k)) && !templated) return draft(blanksDraft(root, body, interactions, base));
    const names = [...new Set(kinds)].join(', ');
    return `The item has ${interactions.length} interactions (${names}); a question on this platform has one answer, or gaps in a text`;
  }
  const interaction = interactions[0]!;
  const prompt = child(interaction, 'qti-prompt');
  const content = [markdownOf(body.children, INTERACTION_TEXT_SKIP, printed), prompt ? markdownOf(prompt.children) : '']
    .filter((t) => t !== '')
    .join('\n\n');
  const withText = { ...base, content };
  const r = responseOf(root, interaction.attrs['response-identifier']);
  switch (kinds[0]) {
    case 'qti-choice-interaction':
      return draft(choiceDraft(root, interaction, r, withText));
    case 'qti-order-interaction':
      return draft(orderDraft(root, interaction, r, withText));
    case 'qti-match-interaction':
    case 'qti-associate-interaction':
      return draft(matchDraft(root, interaction, r, withText, lost));
    case 'qti-gap-match-interaction':
      return draft(gapMatchDraft(root, interaction, r, base, lost));
    case 'qti-text-entry-interaction':
      if (templated || r.baseType === 'float' || r.baseType === 'integer')
        return draft(quantityDraft(root, body, { ...base, content: textWithout(body, root) }, undefined, templated));
      return draft(textEntryDraft(r, withText));
    case 'qti-extended-text-interaction': {
      const className = interaction.attrs.class ?? '';
      const language = interaction.attrs['data-exam-language'] ?? /exam-language-(\w+)/.exec(className)?.[1];
      if (language) {
        const starter = child(r.declaration ?? EMPTY, 'qti-default-value');
        return draft({
          ...withText,
          type: 'coding',
          language: language as Question['language'],
          starterCode: textOf(child(starter ?? EMPTY, 'qti-value')),
        });
      }
      // expected-lines is the size of the box a player draws, not a limit: no word limit is read from it.
      return draft({
        ...withText,
        type: 'essay',
        essay: { minWords: null, maxWords: null, formatted: interaction.attrs.format === 'xhtml' },
      });
    }
    case 'qti-upload-interaction':
      return draft({ ...withText, type: 'file-upload' });
    default:
      return `${kinds[0]} is not read by this platform (it reads ${SUPPORTED})`;
  }
}

/** A printed template variable is the calculated question's `{name}`. */
const printed = (node: XmlNode) =>
  local(node.name) === 'qti-printed-variable' ? `{${node.attrs.identifier ?? ''}}` : undefined;

/** The item's text without its interactions (a numeric item's entry and unit list sit in the text). */
function textWithout(body: XmlNode, _root: XmlNode): string {
  return markdownOf(
    body.children,
    new Set([...INTERACTION_TEXT_SKIP, 'qti-text-entry-interaction', 'qti-inline-choice-interaction']),
    printed,
  );
}

/** A choice's text without its feedback; plain text is kept as written (spaces inside included). */
function choiceText(choice: XmlNode): string {
  const children = choice.children.filter((c) => typeof c === 'string' || !local(c.name).startsWith('qti-feedback'));
  const hasMarkup = children.some((c) => typeof c !== 'string');
  return hasMarkup ? markdownOf(children) : children.join('').trim();
}

function choiceDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ReturnType<typeof responseOf>,
  base: Base,
): QuestionDraft | string {
  const choices = childrenNamed(interaction, 'qti-simple-choice');
  const options = choices.map(choiceText);
  if (options.some((o) => o === '')) return 'An option has no text (an image or media only), which is not carried over';
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  // Feedback inside a choice is the option's feedback, never part of its text (a candidate would read the key).
  const optionFeedback = choices.map((c) =>
    childrenNamed(c, 'qti-feedback-inline')
      .map((f) => markdownOf(f.children))
      .join('\n'),
  );
  const feedback = optionFeedback.some((f) => f !== '') ? optionFeedback : [];
  const textOfId = new Map(choices.map((c, i) => [c.attrs.identifier ?? '', options[i]!]));
  const correct = r.correct.map((id) => textOfId.get(id)).filter((t): t is string => t !== undefined);
  const multiple = r.declaration?.attrs.cardinality === 'multiple' || (interaction.attrs['max-choices'] ?? '1') !== '1';
  if (
    !multiple &&
    options.length === 2 &&
    options[0]!.toLowerCase() === 'true' &&
    options[1]!.toLowerCase() === 'false'
  ) {
    const key = correct[0]?.toLowerCase();
    return { ...base, type: 'true-false', ...(key ? { correctAnswer: key } : {}), optionFeedback: feedback };
  }
  if (multiple)
    return {
      ...base,
      type: 'mcq',
      options,
      multipleAnswers: true,
      correctAnswers: correct,
      scoring: usesMapping(root) || r.mapping ? 'partial' : 'all-or-nothing',
      optionFeedback: feedback,
    };
  return {
    ...base,
    type: 'mcq',
    options,
    ...(correct[0] !== undefined ? { correctAnswer: correct[0] } : {}),
    optionFeedback: feedback,
  };
}

/** Partial credit by neighbouring pairs when the processing reads positions (the platform's ORDERING rule). */
function orderDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ReturnType<typeof responseOf>,
  base: Base,
): QuestionDraft | string {
  const textOfId = new Map(
    childrenNamed(interaction, 'qti-simple-choice').map((c) => [c.attrs.identifier ?? '', choiceText(c)]),
  );
  const items = r.correct.map((id) => textOfId.get(id) ?? '');
  if (items.length < 2) return 'It has no correct order';
  if (items.length !== textOfId.size)
    return 'Its correct order leaves some items out, which an ordering question cannot';
  const rp = processingOf(root);
  const partial = usesMapping(root) || (rp ? descendants(rp, 'qti-index').length > 0 : false);
  return { ...base, type: 'ordering', items, scoring: partial ? 'partial' : 'all-or-nothing' };
}

/** Match (two sets) and associate (pairs of one set, the first of each pair the prompt) as a matching question. */
function matchDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ReturnType<typeof responseOf>,
  base: Base,
  lost: string[],
): QuestionDraft | string {
  const all = descendants(interaction, 'qti-simple-associable-choice');
  const textOfId = new Map(all.map((c) => [c.attrs.identifier ?? '', choiceText(c)]));
  const associate = local(interaction.name) === 'qti-associate-interaction';
  const sets = childrenNamed(interaction, 'qti-simple-match-set');
  const correct = r.correct.map((v) => v.split(/\s+/));
  const pairs: MatchPair[] = correct.map(([p, a]) => ({
    prompt: textOfId.get(p ?? '') ?? '',
    answer: textOfId.get(a ?? '') ?? '',
  }));
  if (pairs.length < 2) return 'It has fewer than two right pairs';
  if (new Set(correct.map(([p]) => p)).size !== correct.length)
    return 'A prompt has several right answers, which a matching question cannot';
  const used = new Set(correct.flat());
  const answerIds = associate
    ? [...textOfId.keys()]
    : childrenNamed(sets[1] ?? EMPTY, 'qti-simple-associable-choice').map((c) => c.attrs.identifier ?? '');
  const distractors = answerIds.filter((id) => !used.has(id)).map((id) => textOfId.get(id) ?? '');
  if (!associate) {
    const prompts = childrenNamed(sets[0] ?? EMPTY, 'qti-simple-associable-choice');
    const unpaired = prompts.filter((p) => !correct.some(([id]) => id === p.attrs.identifier));
    if (unpaired.length > 0)
      lost.push(`Prompts without a right answer are left out: ${unpaired.map((p) => `"${choiceText(p)}"`).join(', ')}`);
  } else lost.push('Its pairs are read as a matching question: the first choice of each right pair is the prompt');
  const worth = new Set(
    r.entries.filter((e) => Number(e.attrs['mapped-value'] ?? 0) > 0).map((e) => e.attrs['mapped-value']),
  );
  if (worth.size > 1)
    lost.push('Its right pairs are worth different points; here each right pair is worth the same share');
  return {
    ...base,
    type: 'matching',
    pairs,
    distractors,
    scoring: usesMapping(root) || r.mapping ? 'partial' : 'all-or-nothing',
  };
}

/** Gap match: each gap a drop-down of the gap texts (no dragging on this platform), keyed by its right text. */
function gapMatchDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ReturnType<typeof responseOf>,
  base: Base,
  lost: string[],
): QuestionDraft | string {
  const texts = childrenNamed(interaction, 'qti-gap-text');
  const textOfId = new Map(texts.map((t) => [t.attrs.identifier ?? '', choiceText(t)]));
  const options = [...textOfId.values()];
  const gaps = descendants(interaction, 'qti-gap');
  const weightOf = (key: string) =>
    Number(r.entries.find((e) => e.attrs['map-key'] === key)?.attrs['mapped-value'] ?? 1);
  const blanks: Blank[] = [];
  for (const gap of gaps) {
    const keys = r.correct.filter((v) => v.split(/\s+/)[1] === gap.attrs.identifier);
    const accepted = keys.map((k) => textOfId.get(k.split(/\s+/)[0] ?? '') ?? '');
    if (accepted.length === 0) return `The gap ${gap.attrs.identifier} has no right answer`;
    blanks.push({ kind: 'choice', accepted, options, tolerance: 0, weight: Math.max(0.01, weightOf(keys[0]!)) });
  }
  const number = new Map(gaps.map((g, k) => [g, `[[${k + 1}]]`]));
  const gapText = markdownOf(interaction.children, new Set(['qti-gap-text', 'qti-prompt']), (n) => number.get(n));
  const prompt = child(interaction, 'qti-prompt');
  lost.push('Its gaps are filled by choosing from a list rather than by dragging the words');
  return {
    ...base,
    content: [
      markdownOf(child(root, 'qti-item-body')!.children, INTERACTION_TEXT_SKIP),
      prompt ? markdownOf(prompt.children) : '',
    ]
      .filter((t) => t !== '')
      .join('\n\n'),
    type: 'fill-blanks',
    gapText,
    blanks,
    scoring: usesMapping(root) ? 'partial' : 'all-or-nothing',
  };
}

function caseSensitiveOf(root: XmlNode, r: ReturnType<typeof responseOf>): boolean | 'mixed' {
  const flags = new Set(r.entries.map((e) => e.attrs['case-sensitive'] === 'true'));
  const id = r.declaration?.attrs.identifier;
  for (const m of descendants(root, 'qti-string-match'))
    if (descendants(m, 'qti-variable').some((v) => v.attrs.identifier === id))
      flags.add(m.attrs['case-sensitive'] !== 'false');
  if (flags.size > 1) return 'mixed';
  return flags.has(true);
}

/** The absolute tolerance the processing allows a float response (qti-equal), 0 when exact. */
function toleranceOf(
  root: XmlNode,
  id: string | undefined,
): { tolerance: number; mode: 'absolute' | 'relative' } | null {
  const equal = descendants(root, 'qti-equal').find((e) =>
    descendants(e, 'qti-variable').some((v) => v.attrs.identifier === id),
  );
  if (!equal) return null;
  const t = Number((equal.attrs.tolerance ?? '0').trim().split(/\s+/)[0]);
  if (equal.attrs['tolerance-mode'] === 'absolute') return { tolerance: t, mode: 'absolute' };
  if (equal.attrs['tolerance-mode'] === 'relative') return { tolerance: t / 100, mode: 'relative' };
  return { tolerance: 0, mode: 'absolute' };
}

function textEntryDraft(r: ReturnType<typeof responseOf>, base: Base): QuestionDraft | string {
  const best = Math.max(0, ...r.entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)));
  const partial = r.entries.filter((e) => {
    const v = Number(e.attrs['mapped-value'] ?? 0);
    return v > 0 && v < best;
  });
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((e) => `"${e.attrs['map-key']}"`).join(', ')}; a short answer here is right or wrong`;
  const sensitivity = new Set(
    r.entries
      .filter((e) => Number(e.attrs['mapped-value'] ?? 0) === best)
      .map((e) => e.attrs['case-sensitive'] === 'true'),
  );
  if (sensitivity.size > 1) return 'Some accepted answers are case-sensitive and others are not';
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: keysOf(r),
    matching: { caseSensitive: sensitivity.has(true), numeric: null },
  };
}

/** Numeric (a float entry, with a unit list when there is one) and calculated (the same with template variables). */
function quantityDraft(
  root: XmlNode,
  _body: XmlNode,
  base: Base,
  unit: XmlNode | undefined,
  templated: boolean,
): QuestionDraft | string {
  const units: Unit[] = [];
  if (unit) {
    const rp = processingOf(root) ?? EMPTY;
    for (const choice of childrenNamed(unit, 'qti-inline-choice')) {
      const chosen = descendants(rp, 'qti-and').find((a) =>
        descendants(a, 'qti-base-value').some((b) => textOf(b).trim() === choice.attrs.identifier),
      );
      const divide = chosen ? descendants(chosen, 'qti-divide')[0] : undefined;
      const multiplier = divide ? Number(textOf(descendants(divide, 'qti-base-value')[0])) : 1;
      units.push({ symbol: textOf(choice).trim(), multiplier });
    }
  }
  const unitSettings = { units, required: unit?.attrs.required === 'true' };
  if (templated) {
    const calculated = calculatedOf(root, 'RESPONSE');
    if (typeof calculated === 'string') return calculated;
    const title = base.title;
    return {
      ...base,
      title,
      type: 'calculated',
      calculated: { ...calculated, values: null },
      units: unitSettings,
      matching: { caseSensitive: false, numeric: calculatedTolerance(root) },
    };
  }
  const r = responseOf(root, 'RESPONSE');
  const accepted = keysOf(r);
  return {
    ...base,
    type: 'numeric',
    acceptedAnswers: accepted,
    units: unitSettings,
    matching: { caseSensitive: false, numeric: toleranceOf(root, 'RESPONSE') },
  };
}

/** Text entries and drop-downs inline in a text: a fill-in-the-blanks question, each gap keyed on its own. */
function blanksDraft(root: XmlNode, body: XmlNode, interactions: XmlNode[], base: Base): QuestionDraft | string {
  const blanks: Blank[] = [];
  let caseSensitive: boolean | undefined;
  for (const [k, interaction] of interactions.entries()) {
    const r = responseOf(root, interaction.attrs['response-identifier']);
    const weight = Math.max(0.01, Number(r.entries[0]?.attrs['mapped-value'] ?? 1) || 1);
    if (local(interaction.name) === 'qti-inline-choice-interaction') {
      const choices = childrenNamed(interaction, 'qti-inline-choice');
      const textOfId = new Map(choices.map((c) => [c.attrs.identifier ?? '', textOf(c).trim()]));
      const accepted = keysOf(r)
        .map((id) => textOfId.get(id))
        .filter((t): t is string => t !== undefined);
      if (accepted.length === 0) return `Gap ${k + 1} has no right answer`;
      blanks.push({ kind: 'choice', accepted, options: [...textOfId.values()], tolerance: 0, weight });
      continue;
    }
    const accepted = keysOf(r);
    if (accepted.length === 0) return `Gap ${k + 1} has no right answer`;
    if (r.baseType === 'float' || r.baseType === 'integer') {
      blanks.push({
        kind: 'numeric',
        accepted,
        options: [],
        tolerance: toleranceOf(root, r.declaration?.attrs.identifier)?.tolerance ?? 0,
        weight,
      });
      continue;
    }
    const sensitive = caseSensitiveOf(root, r);
    if (sensitive === 'mixed' || (caseSensitive !== undefined && caseSensitive !== sensitive))
      return 'Some gaps compare case and others do not; a fill-in-the-blanks question compares all its gaps alike';
    caseSensitive = sensitive;
    blanks.push({ kind: 'text', accepted, options: [], tolerance: 0, weight });
  }
  const number = new Map(interactions.map((i, k) => [i, `[[${k + 1}]]`]));
  const replace = (n: XmlNode) => number.get(n);
  const gapDiv = descendants(body, 'div').find((d) => (d.attrs.class ?? '').split(' ').includes('exam-gap-text'));
  const content = gapDiv ? markdownOf(body.children, new Set(['div'])) : '';
  const gapText = markdownOf((gapDiv ?? body).children, INTERACTION_TEXT_SKIP, replace);
  const rp = processingOf(root);
  const first = rp && descendants(rp, 'qti-response-if')[0];
  const allOrNothing =
    (rp?.attrs.template ?? '').includes('match_correct') ||
    (first !== undefined && local(elements(first)[0]?.name ?? '') === 'qti-and');
  const points = pointsOf(root, interactions.length);
  return {
    ...base,
    points,
    content,
    type: 'fill-blanks',
    gapText,
    blanks,
    scoring: allOrNothing ? 'all-or-nothing' : 'partial',
    matching: { caseSensitive: caseSensitive ?? false, numeric: null },
  };
}
