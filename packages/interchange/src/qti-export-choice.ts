import { type Question, toPublicQuestion } from '@exam/domain/question';
import { type ItemOptions, type Parts, correctResponse, response, share } from './qti-export-parts.ts';
import {
  addToScore,
  allOrNothing,
  and,
  baseValue,
  matchValue,
  or,
  responseIf,
  scoreIs,
  variable,
} from './qti-processing.ts';
import { el, escapeXml } from './xml.ts';

/** The choice family as QTI interactions: choice (multiple choice, true/false), order and match. */

export function choiceIdsOf(q: Question): string[] {
  return q.type === 'true-false' ? ['true', 'false'] : q.options.map((_o, i) => `C${i + 1}`);
}

export function choiceParts(q: Question, opts: ItemOptions): Parts {
  const ids = choiceIdsOf(q);
  const texts = q.type === 'true-false' ? ['True', 'False'] : q.options;
  const idOf = (option: string) => ids[texts === q.options ? q.options.indexOf(option) : ids.indexOf(option)] ?? '';
  const multiple = q.type === 'mcq' && q.multipleAnswers;
  const correct = multiple ? q.correctAnswers : q.correctAnswer ? [q.correctAnswer] : [];
  const keyed = correct.length > 0;
  const partial = multiple && q.scoring === 'partial' && keyed;
  const each = keyed ? share(q.points, correct.length) : 0;
  const mapping = partial
    ? [
        el(
          'qti-mapping',
          { 'default-value': 0, 'lower-bound': 0, 'upper-bound': q.points },
          ...texts.map((o) =>
            el('qti-map-entry', { 'map-key': idOf(o), 'mapped-value': correct.includes(o) ? each : -each }),
          ),
        ),
      ]
    : [];
  const feedback = (i: number) => {
    const text = q.optionFeedback[i] ?? '';
    if (text.trim() === '') return [];
    const body = text.split('\n').map(escapeXml).join('<br/>');
    return [
      el('qti-feedback-inline', { 'outcome-identifier': 'FEEDBACK', identifier: ids[i], 'show-hide': 'show' }, body),
    ];
  };
  const interaction = el(
    'qti-choice-interaction',
    { 'response-identifier': 'RESPONSE', 'max-choices': multiple ? 0 : 1, shuffle: opts.shuffle ? 'true' : 'false' },
    ...texts.map((o, i) => el('qti-simple-choice', { identifier: ids[i] }, escapeXml(o), ...feedback(i))),
  );
  const scoring = !keyed
    ? []
    : partial
      ? [scoreIs(el('qti-map-response', { identifier: 'RESPONSE' }))]
      : [allOrNothing(el('qti-match', {}, variable('RESPONSE'), el('qti-correct', { identifier: 'RESPONSE' })))];
  return {
    declarations: [
      response(
        'RESPONSE',
        multiple ? 'multiple' : 'single',
        'identifier',
        ...correctResponse(correct.map(idOf)),
        ...mapping,
      ),
    ],
    body: interaction,
    scoring,
    choiceIds: ids,
  };
}

export function orderingParts(q: Question): Parts {
  const ids = q.items.map((_item, i) => `I${i + 1}`);
  const idOf = (item: string) => ids[q.items.indexOf(item)]!;
  const shown = toPublicQuestion(q).items ?? q.items;
  const interaction = el(
    'qti-order-interaction',
    { 'response-identifier': 'RESPONSE', shuffle: 'true' },
    ...shown.map((item) => el('qti-simple-choice', { identifier: idOf(item) }, escapeXml(item))),
  );
  const n = ids.length;
  const at = (j: number) => el('qti-index', { n: j }, variable('RESPONSE'));
  // Partial credit (question-kinds.ts ORDERING): each neighbouring pair of the right order that stands next to
  // each other, in that order, in a complete answer earns points / (n − 1).
  const pairs = ids
    .slice(0, -1)
    .map((id, k) =>
      responseIf(
        or(
          ...Array.from({ length: n - 1 }, (_v, j) =>
            and(matchValue(at(j + 1), 'identifier', id), matchValue(at(j + 2), 'identifier', ids[k + 1]!)),
          ),
        ),
        [addToScore(share(q.points, n - 1))],
      ),
    );
  const complete = el('qti-match', {}, el('qti-container-size', {}, variable('RESPONSE')), baseValue('integer', n));
  const scoring =
    q.scoring === 'partial'
      ? [scoreIs(0), responseIf(complete, pairs)]
      : [allOrNothing(el('qti-match', {}, variable('RESPONSE'), el('qti-correct', { identifier: 'RESPONSE' })))];
  return {
    declarations: [response('RESPONSE', 'ordered', 'identifier', ...correctResponse(ids))],
    body: interaction,
    scoring,
  };
}

export function matchingParts(q: Question): Parts {
  const answers = toPublicQuestion(q).choices ?? [];
  const answerId = (text: string) => `A${answers.findIndex((a) => a.trim() === text.trim()) + 1}`;
  const pairs = q.pairs.map((p, i) => `P${i + 1} ${answerId(p.answer)}`);
  const each = share(q.points, q.pairs.length);
  const mapping =
    q.scoring === 'partial'
      ? [
          el(
            'qti-mapping',
            { 'default-value': 0, 'lower-bound': 0, 'upper-bound': q.points },
            ...pairs.map((key) => el('qti-map-entry', { 'map-key': key, 'mapped-value': each })),
          ),
        ]
      : [];
  const interaction = el(
    'qti-match-interaction',
    { 'response-identifier': 'RESPONSE', 'max-associations': q.pairs.length, shuffle: 'false' },
    el(
      'qti-simple-match-set',
      {},
      ...q.pairs.map((p, i) =>
        el('qti-simple-associable-choice', { identifier: `P${i + 1}`, 'match-max': 1 }, escapeXml(p.prompt)),
      ),
    ),
    el(
      'qti-simple-match-set',
      {},
      ...answers.map((a, i) =>
        el('qti-simple-associable-choice', { identifier: `A${i + 1}`, 'match-max': 0 }, escapeXml(a)),
      ),
    ),
  );
  return {
    declarations: [response('RESPONSE', 'multiple', 'directedPair', ...correctResponse(pairs), ...mapping)],
    body: interaction,
    scoring:
      q.scoring === 'partial'
        ? [scoreIs(el('qti-map-response', { identifier: 'RESPONSE' }))]
        : [allOrNothing(el('qti-match', {}, variable('RESPONSE'), el('qti-correct', { identifier: 'RESPONSE' })))],
  };
}
