import { parseNumber } from '@exam/domain/grading';
import { type Question } from '@exam/domain/question';
import { markdownToXhtml } from './markdown-xhtml.ts';
import { calculatedParts } from './qti-export-calculated.ts';
import { choiceParts, matchingParts, orderingParts } from './qti-export-choice.ts';
import { type ItemOptions, type Parts, response, value } from './qti-export-parts.ts';
import { blanksParts, codingParts, essayParts, quantityParts, textEntryParts } from './qti-export-text.ts';
import { baseValue, responseIf, setOutcome, variable } from './qti-processing.ts';
import { ITEM_SCHEMA, QTI_NS } from './qti-shared.ts';
import { el } from './xml.ts';

/**
 * One question as a QTI 3.0 assessment item: standard interactions, and response processing written out (never a
 * response-processing template, whose SCORE is 1 rather than the question's points) so that a QTI player scores
 * every answer as grading.ts's autoPoints does (docs/product.md#importing-and-exporting-questions).
 */

const prompt = () => '';

function partsOf(q: Question, opts: ItemOptions): Parts {
  switch (q.type) {
    case 'mcq':
    case 'true-false':
      return choiceParts(q, opts);
    case 'ordering':
      return orderingParts(q);
    case 'matching':
      return matchingParts(q);
    case 'fill-blanks':
      return blanksParts(q);
    case 'numeric':
      return quantityParts(
        q,
        q.acceptedAnswers.map((a) => parseNumber(a)).filter((n): n is number => n !== undefined),
      );
    case 'calculated':
      return calculatedParts(q);
    case 'short-answer':
      return textEntryParts(q);
    case 'essay':
      return essayParts(q);
    case 'file-upload':
      return {
        declarations: [response('RESPONSE', 'single', 'file')],
        body: el('qti-upload-interaction', { 'response-identifier': 'RESPONSE' }),
        scoring: [],
      };
    case 'coding':
      return codingParts(q);
  }
}

const outcome = (identifier: string, cardinality: string, baseType: string, extra: Record<string, string> = {}) =>
  el('qti-outcome-declaration', { identifier, cardinality, 'base-type': baseType, ...extra });

/** The creator's feedback as modal feedback on FEEDBACKBASIC: general always, then correct / partial / incorrect. */
function feedbackParts(q: Question, scored: boolean) {
  const f = q.feedback;
  const partial = f.partial.trim() !== '' ? f.partial : f.incorrect;
  const shown = { general: f.general, correct: f.correct, partial, incorrect: f.incorrect };
  const kinds = (Object.keys(shown) as Array<keyof typeof shown>).filter((k) => shown[k].trim() !== '');
  if (kinds.length === 0) return { rules: [], modal: [] };
  const set = (...ids: string[]) =>
    setOutcome('FEEDBACKBASIC', el('qti-multiple', {}, ...ids.map((id) => baseValue('identifier', id))));
  const rules = scored
    ? [
        responseIf(
          el('qti-gte', {}, variable('SCORE'), variable('MAXSCORE')),
          [set('general', 'correct')],
          [
            responseIf(
              el('qti-gt', {}, variable('SCORE'), baseValue('float', 0)),
              [set('general', 'partial')],
              [set('general', 'incorrect')],
            ),
          ],
        ),
      ]
    : [set('general')];
  const modal = kinds.map((kind) =>
    el(
      'qti-modal-feedback',
      { 'outcome-identifier': 'FEEDBACKBASIC', identifier: kind, 'show-hide': 'show' },
      el('qti-content-body', {}, markdownToXhtml(shown[kind])),
    ),
  );
  return { rules, modal };
}

export function itemXml(q: Question, ident: string, opts: ItemOptions): string {
  const parts = partsOf(q, opts);
  const scored = parts.scoring.length > 0;
  const scoredBy = !scored ? (q.type === 'coding' && q.tests.length > 0 ? 'externalMachine' : 'human') : undefined;
  const optionFeedback = parts.choiceIds !== undefined && q.optionFeedback.some((f) => f.trim() !== '');
  const multiple = q.type === 'mcq' && q.multipleAnswers;
  const feedback = feedbackParts(q, scored);
  const rules = [
    ...parts.scoring,
    ...(optionFeedback ? [setOutcome('FEEDBACK', variable('RESPONSE'))] : []),
    ...feedback.rules,
  ];
  const content = parts.ownContent ?? markdownToXhtml(q.content);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    el(
      'qti-assessment-item',
      {
        xmlns: QTI_NS,
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:schemaLocation': `${QTI_NS} ${ITEM_SCHEMA}`,
        identifier: ident,
        title: q.title,
        adaptive: 'false',
        'time-dependent': 'false',
      },
      ...(opts.stimulus ? [el('qti-assessment-stimulus-ref', opts.stimulus)] : []),
      ...parts.declarations,
      outcome('SCORE', 'single', 'float', scoredBy ? { 'external-scored': scoredBy } : {}),
      el(
        'qti-outcome-declaration',
        { identifier: 'MAXSCORE', cardinality: 'single', 'base-type': 'float' },
        el('qti-default-value', {}, value(q.points)),
      ),
      ...(optionFeedback ? [outcome('FEEDBACK', multiple ? 'multiple' : 'single', 'identifier')] : []),
      ...(feedback.modal.length > 0 ? [outcome('FEEDBACKBASIC', 'multiple', 'identifier')] : []),
      ...(parts.templates ?? []),
      parts.templateProcessing ?? '',
      el('qti-item-body', {}, prompt(), content, parts.body),
      rules.length > 0 ? el('qti-response-processing', {}, ...rules) : '',
      ...feedback.modal,
    )
  );
}
