import { type Question } from '@exam/domain/question';
import { markdownOf } from './html-text.ts';
import { type QuestionDraft } from './model.ts';
import { choiceDraft, gapMatchDraft, matchDraft, orderDraft } from './qti-import-choice.ts';
import { type Base, EMPTY, INTERACTION_TEXT_SKIP, findInteractions, pointsOf, responseOf } from './qti-import-parts.ts';
import { blanksDraft, quantityDraft, textEntryDraft } from './qti-import-text.ts';
import { type XmlNode, child, descendants, local, textOf, childrenNamed } from './xml.ts';

/**
 * One QTI 3.0 assessment item as a question of the platform (docs/product.md#importing-and-exporting-questions),
 * or the reason it cannot be one. `lost` collects what an imported question leaves behind, for the preview.
 */
export type ItemRead = { draft: QuestionDraft; lost: string[] } | string;

const MEDIA = new Set(['img', 'video', 'audio', 'object', 'math', 'svg', 'picture', 'iframe']);
const SUPPORTED =
  'choice, order, match, associate, gap match, inline choice, text entry, extended text and upload interactions';

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
