import { markdownOf } from './html-text.ts';
import { type Question } from '@exam/domain/question';
import { type XmlNode, child, childrenNamed, descendants, elements, local, textOf } from './xml.ts';

/** What the readers of each interaction family share (qti-item-import.ts chooses the reader): an item's responses and texts. */

export type Base = Pick<Question, 'title' | 'content' | 'points' | 'feedback'>;

export const INTERACTION_TEXT_SKIP = new Set([
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
export const EMPTY: XmlNode = { name: '', attrs: {}, children: [] };
export const num = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : Number(s));

/** The item's reading of one response: its declaration, correct values and mapping. */
export function responseOf(root: XmlNode, id: string | undefined) {
  const declaration = childrenNamed(root, 'qti-response-declaration').find((d) => d.attrs.identifier === id);
  const correct = childrenNamed(child(declaration ?? EMPTY, 'qti-correct-response') ?? EMPTY, 'qti-value').map((v) =>
    textOf(v).trim(),
  );
  const mapping = declaration ? child(declaration, 'qti-mapping') : undefined;
  const entries = mapping ? childrenNamed(mapping, 'qti-map-entry') : [];
  return { declaration, correct, mapping, entries, baseType: declaration?.attrs['base-type'] ?? '' };
}

/** Values the mapping gives its most points, with the correct values first. */
export function keysOf(r: ReturnType<typeof responseOf>): string[] {
  const best = Math.max(0, ...r.entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)));
  const full = r.entries.filter((e) => best > 0 && Number(e.attrs['mapped-value'] ?? 0) === best);
  return [...new Set([...r.correct, ...full.map((e) => e.attrs['map-key'] ?? '')])].filter((k) => k !== '');
}

export const processingOf = (root: XmlNode) => child(root, 'qti-response-processing');
export const usesMapping = (root: XmlNode) => {
  const rp = processingOf(root);
  return (
    (rp?.attrs.template ?? '').includes('map_response') || (rp ? descendants(rp, 'qti-map-response').length > 0 : false)
  );
};

/** A choice's text without its feedback; plain text is kept as written (spaces inside included). */
export function choiceText(choice: XmlNode): string {
  const children = choice.children.filter((c) => typeof c === 'string' || !local(c.name).startsWith('qti-feedback'));
  const hasMarkup = children.some((c) => typeof c !== 'string');
  return hasMarkup ? markdownOf(children) : children.join('').trim();
}

export function findInteractions(node: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of elements(node)) {
    const name = local(c.name);
    if (name.endsWith('-interaction') && name !== 'qti-end-attempt-interaction') out.push(c);
    else out.push(...findInteractions(c));
  }
  return out;
}

/** MAXSCORE's default when the item declares it; else what the mapping can give; else `fallback`. */
export function pointsOf(root: XmlNode, fallback = 1): number {
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

/** One response's reading (responseOf). */
export type ResponseRead = ReturnType<typeof responseOf>;
