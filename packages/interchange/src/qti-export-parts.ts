import { el, escapeXml } from './xml.ts';

/** What each question type contributes to its QTI item (qti-item-export.ts assembles them), and the helpers they share. */

export type ItemOptions = { shuffle: boolean; stimulus?: { identifier: string; href: string; title: string } };

export type Parts = {
  declarations: string[];
  templates?: string[];
  templateProcessing?: string;
  /** The interaction(s) and any text of the type's own after the question's content. */
  body: string;
  /** Content replaced: fill-in-the-blanks and calculated render the content themselves. */
  ownContent?: string;
  /** Rules setting SCORE; empty: a person scores the answer. */
  scoring: string[];
  /** Choice identifiers per option, for option feedback. */
  choiceIds?: string[];
};

export const value = (v: string | number) => el('qti-value', {}, escapeXml(String(v)));
export const response = (identifier: string, cardinality: string, baseType: string, ...children: string[]) =>
  el('qti-response-declaration', { identifier, cardinality, 'base-type': baseType }, ...children);
export const correctResponse = (values: Array<string | number>) =>
  values.length > 0 ? [el('qti-correct-response', {}, ...values.map(value))] : [];
export const share = (points: number, of: number) => points / of;
