import { type Blank, type MatchPair } from '@exam/domain/question-kinds';
import { markdownOf } from './html-text.ts';
import { type QuestionDraft } from './model.ts';
import {
  type Base,
  EMPTY,
  INTERACTION_TEXT_SKIP,
  type ResponseRead,
  choiceText,
  processingOf,
  usesMapping,
} from './qti-import-parts.ts';
import { type XmlNode, child, childrenNamed, descendants, local } from './xml.ts';

/** The choice family read as questions: choice (multiple choice, true/false), order, match and associate, gap match. */

export function choiceDraft(root: XmlNode, interaction: XmlNode, r: ResponseRead, base: Base): QuestionDraft | string {
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
export function orderDraft(root: XmlNode, interaction: XmlNode, r: ResponseRead, base: Base): QuestionDraft | string {
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
export function matchDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ResponseRead,
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
export function gapMatchDraft(
  root: XmlNode,
  interaction: XmlNode,
  r: ResponseRead,
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
