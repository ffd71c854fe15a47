import { parseFormula } from '@exam/domain/formula';
import { parseNumber } from '@exam/domain/grading';
import { splitGapText } from '@exam/domain/question-kinds';
import { type Question, toPublicQuestion } from '@exam/domain/question';
import { markdownToXhtml, placeholder } from './markdown-xhtml.ts';
import {
  addToScore,
  allOrNothing,
  and,
  baseValue,
  formulaExpression,
  matchValue,
  numberEquals,
  or,
  quantityRight,
  responseIf,
  scoreIs,
  setOutcome,
  textRight,
  unitId,
  variable,
} from './qti-processing.ts';
import { ITEM_SCHEMA, QTI_NS } from './qti-shared.ts';
import { el, escapeXml } from './xml.ts';

/**
 * One question as a QTI 3.0 assessment item: standard interactions, and response processing written out (never a
 * response-processing template, whose SCORE is 1 rather than the question's points) so that a QTI player scores
 * every answer as grading.ts's autoPoints does (docs/product.md#importing-and-exporting-questions).
 */

export type ItemOptions = { shuffle: boolean; stimulus?: { identifier: string; href: string; title: string } };

type Parts = {
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

const value = (v: string | number) => el('qti-value', {}, escapeXml(String(v)));
const response = (identifier: string, cardinality: string, baseType: string, ...children: string[]) =>
  el('qti-response-declaration', { identifier, cardinality, 'base-type': baseType }, ...children);
const correctResponse = (values: Array<string | number>) =>
  values.length > 0 ? [el('qti-correct-response', {}, ...values.map(value))] : [];
const prompt = () => '';
const share = (points: number, of: number) => points / of;

function choiceIdsOf(q: Question): string[] {
  return q.type === 'true-false' ? ['true', 'false'] : q.options.map((_o, i) => `C${i + 1}`);
}

function choiceParts(q: Question, opts: ItemOptions): Parts {
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

function orderingParts(q: Question): Parts {
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

function matchingParts(q: Question): Parts {
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

function blanksParts(q: Question): Parts {
  const total = q.blanks.reduce((sum, b) => sum + b.weight, 0);
  const declarations: string[] = [];
  const interactions: string[] = [];
  const rights: string[] = [];
  q.blanks.forEach((blank, k) => {
    const id = `RESPONSE_${k + 1}`;
    const points = (q.points * blank.weight) / total;
    if (blank.kind === 'choice') {
      const optionId = (o: string) => `G${k + 1}_${blank.options.indexOf(o) + 1}`;
      const accepted = blank.accepted.map(optionId);
      declarations.push(
        response(
          id,
          'single',
          'identifier',
          ...correctResponse(accepted.slice(0, 1)),
          el(
            'qti-mapping',
            { 'default-value': 0 },
            ...accepted.map((a) => el('qti-map-entry', { 'map-key': a, 'mapped-value': points })),
          ),
        ),
      );
      interactions.push(
        el(
          'qti-inline-choice-interaction',
          { 'response-identifier': id, shuffle: 'false' },
          ...blank.options.map((o) => el('qti-inline-choice', { identifier: optionId(o) }, escapeXml(o))),
        ),
      );
      rights.push(or(...accepted.map((a) => matchValue(variable(id), 'identifier', a))));
      return;
    }
    const numeric = blank.kind === 'numeric';
    const keys = numeric ? blank.accepted.map((a) => parseNumber(a) ?? 0) : blank.accepted;
    declarations.push(
      response(
        id,
        'single',
        numeric ? 'float' : 'string',
        ...correctResponse(keys.slice(0, 1)),
        el(
          'qti-mapping',
          { 'default-value': 0 },
          ...keys.map((a) =>
            el('qti-map-entry', {
              'map-key': a,
              'mapped-value': points,
              ...(numeric ? {} : { 'case-sensitive': q.matching.caseSensitive ? 'true' : 'false' }),
            }),
          ),
        ),
      ),
    );
    interactions.push(
      el('qti-text-entry-interaction', {
        'response-identifier': id,
        'base-type': numeric ? 'float' : undefined,
        'expected-length': Math.max(4, ...blank.accepted.map((a) => a.length)),
      }),
    );
    rights.push(
      numeric
        ? or(
            ...keys.map((e) =>
              numberEquals(variable(id), e as number, { tolerance: blank.tolerance, mode: 'absolute' }),
            ),
          )
        : textRight(id, blank.accepted, q.matching.caseSensitive),
    );
  });
  const gaps = splitGapText(q.gapText)
    .map((part) => ('gap' in part ? placeholder(`gap:${part.gap}`) : part.text))
    .join('');
  const text = markdownToXhtml(gaps, (key) => interactions[Number(key.slice(4))] ?? '');
  const scoring =
    q.scoring === 'all-or-nothing'
      ? [allOrNothing(and(...rights))]
      : [
          scoreIs(0),
          ...rights.map((right, k) => responseIf(right, [addToScore((q.points * q.blanks[k]!.weight) / total)])),
        ];
  return {
    declarations,
    body: el('div', { class: 'exam-gap-text' }, text),
    scoring,
  };
}

/** Numeric (and a short answer compared as a number): a float text entry, and the units as a drop-down. */
function quantityParts(q: Question, accepted: number[]): Parts {
  const units = q.units.units;
  const unitChoice =
    units.length > 0
      ? el(
          'qti-inline-choice-interaction',
          { 'response-identifier': 'UNIT', shuffle: 'false', required: q.units.required ? 'true' : 'false' },
          ...units.map((u, k) => el('qti-inline-choice', { identifier: unitId(k) }, escapeXml(u.symbol))),
        )
      : '';
  const keyed = accepted.length > 0;
  return {
    declarations: [
      response('RESPONSE', 'single', 'float', ...correctResponse(accepted.slice(0, 1)), ...extraKeys(accepted)),
      ...(units.length > 0
        ? [
            response(
              'UNIT',
              'single',
              'identifier',
              ...correctResponse([unitId(units.findIndex((u) => u.multiplier === 1))]),
            ),
          ]
        : []),
    ],
    body: el(
      'p',
      {},
      el('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE', 'base-type': 'float' }),
      unitChoice ? ` ${unitChoice}` : '',
    ),
    scoring: keyed
      ? [
          allOrNothing(
            quantityRight(units, q.units.required, (v) =>
              or(...accepted.map((e) => numberEquals(v, e, q.matching.numeric))),
            ),
          ),
        ]
      : [],
  };
}

/** Further accepted values beyond the correct response, as a mapping a reader can list (scoring does not use it). */
function extraKeys(accepted: number[]): string[] {
  if (accepted.length < 2) return [];
  return [
    el(
      'qti-mapping',
      { 'default-value': 0 },
      ...accepted.map((a) => el('qti-map-entry', { 'map-key': a, 'mapped-value': 1 })),
    ),
  ];
}

function textEntryParts(q: Question): Parts {
  if (q.matching.numeric)
    return quantityParts(
      { ...q, units: { units: [], required: false } },
      q.acceptedAnswers.map((a) => parseNumber(a)).filter((n): n is number => n !== undefined),
    );
  const keyed = q.acceptedAnswers.some((a) => a.trim() !== '');
  return {
    declarations: [
      response(
        'RESPONSE',
        'single',
        'string',
        ...correctResponse(q.acceptedAnswers.slice(0, 1)),
        ...(keyed
          ? [
              el(
                'qti-mapping',
                { 'default-value': 0 },
                ...q.acceptedAnswers.map((a) =>
                  el('qti-map-entry', {
                    'map-key': a,
                    'mapped-value': q.points,
                    'case-sensitive': q.matching.caseSensitive ? 'true' : 'false',
                  }),
                ),
              ),
            ]
          : []),
      ),
    ],
    body: el('p', {}, el('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    scoring: keyed ? [allOrNothing(textRight('RESPONSE', q.acceptedAnswers, q.matching.caseSensitive))] : [],
  };
}

/**
 * Calculated: each variable drawn by template processing as the platform draws it (a whole number in range, or a
 * whole number of 10^-decimals steps divided back), the key ANSWER computed from the formula's tree and rounded
 * as set, redrawn while the formula has no value there (qti-template-constraint), and the tolerance TOL computed
 * from ANSWER with grading.ts's hair of slack.
 */
function calculatedParts(q: Question): Parts {
  const calc = q.calculated!;
  const tree = parseFormula(
    calc.formula,
    calc.variables.map((v) => v.name),
  );
  const templates = calc.variables.map((v) =>
    el('qti-template-declaration', {
      identifier: v.name,
      cardinality: 'single',
      'base-type': v.decimals === 0 ? 'integer' : 'float',
      'math-variable': 'true',
      'param-variable': 'true',
    }),
  );
  for (const name of ['ANSWER', 'TOL'])
    templates.push(el('qti-template-declaration', { identifier: name, cardinality: 'single', 'base-type': 'float' }));
  const draws = calc.variables.map((v) => {
    const scale = 10 ** v.decimals;
    const random = el('qti-random-integer', {
      min: Math.ceil(v.min * scale - 1e-9),
      max: Math.floor(v.max * scale + 1e-9),
    });
    return el(
      'qti-set-template-value',
      { identifier: v.name },
      v.decimals === 0 ? random : el('qti-divide', {}, random, baseValue('float', scale)),
    );
  });
  const formula = formulaExpression(tree);
  const answer =
    calc.answerDecimals === null
      ? formula
      : el('qti-round-to', { 'rounding-mode': 'decimalPlaces', figures: calc.answerDecimals }, formula);
  const tolerance = q.matching.numeric ?? { tolerance: 0, mode: 'absolute' };
  const abs = (x: string) => el('qti-math-operator', { name: 'abs' }, x);
  const allowed =
    tolerance.mode === 'relative'
      ? el('qti-product', {}, baseValue('float', tolerance.tolerance), abs(variable('ANSWER')))
      : baseValue('float', tolerance.tolerance);
  const slack = el(
    'qti-product',
    {},
    baseValue('float', 1e-9),
    el('qti-max', {}, baseValue('float', 1), abs(variable('ANSWER'))),
  );
  const templateProcessing = el(
    'qti-template-processing',
    {},
    ...draws,
    el('qti-set-template-value', { identifier: 'ANSWER' }, answer),
    el('qti-template-constraint', {}, el('qti-not', {}, el('qti-is-null', {}, variable('ANSWER')))),
    el('qti-set-template-value', { identifier: 'TOL' }, el('qti-sum', {}, allowed, slack)),
    el('qti-set-correct-response', { identifier: 'RESPONSE' }, variable('ANSWER')),
  );
  const base = quantityParts(q, []);
  const within = (v: string) => el('qti-lte', {}, abs(el('qti-subtract', {}, v, variable('ANSWER'))), variable('TOL'));
  const decimals = new Map(calc.variables.map((v) => [v.name, v.decimals]));
  const content = q.content.replace(/\{([A-Za-z][A-Za-z0-9_]{0,30})\}/g, (whole, name: string) =>
    decimals.has(name) ? placeholder(`var:${name}`) : whole,
  );
  return {
    ...base,
    templates,
    templateProcessing,
    ownContent: markdownToXhtml(content, (key) =>
      el('qti-printed-variable', { identifier: key.slice(4), format: `%.${decimals.get(key.slice(4)) ?? 0}f` }),
    ),
    scoring: [allOrNothing(quantityRight(q.units.units, q.units.required, within))],
  };
}

function essayParts(q: Question): Parts {
  const max = q.essay.maxWords;
  return {
    declarations: [response('RESPONSE', 'single', 'string')],
    body: el('qti-extended-text-interaction', {
      'response-identifier': 'RESPONSE',
      format: q.essay.formatted ? 'xhtml' : 'plain',
      // About ten words a line: the box a reader draws for the answer's length.
      'expected-lines': max === null ? 15 : Math.min(200, Math.max(3, Math.ceil(max / 10))),
    }),
    scoring: [],
  };
}

/** A coding question is extended text: the starter code is the response's default value, the language a class. */
function codingParts(q: Question): Parts {
  return {
    declarations: [
      response(
        'RESPONSE',
        'single',
        'string',
        ...(q.starterCode ? [el('qti-default-value', {}, value(q.starterCode))] : []),
      ),
    ],
    body: el('qti-extended-text-interaction', {
      'response-identifier': 'RESPONSE',
      format: 'preformatted',
      class: q.language ? `exam-language-${q.language}` : undefined,
    }),
    scoring: [],
  };
}

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
