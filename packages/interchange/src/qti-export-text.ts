import { parseNumber } from '@exam/domain/grading';
import { splitGapText } from '@exam/domain/question-kinds';
import { type Question } from '@exam/domain/question';
import { markdownToXhtml, placeholder } from './markdown-xhtml.ts';
import { type Parts, correctResponse, response, value } from './qti-export-parts.ts';
import {
  addToScore,
  allOrNothing,
  and,
  matchValue,
  numberEquals,
  or,
  quantityRight,
  responseIf,
  scoreIs,
  textRight,
  unitId,
  variable,
} from './qti-processing.ts';
import { el, escapeXml } from './xml.ts';

/**
 * The typed-answer family as QTI interactions: text entries (short answer, numeric with its unit list, each gap of
 * a fill-in-the-blanks text, inline drop-downs among them) and extended text (essay, coding).
 */

export function blanksParts(q: Question): Parts {
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
export function quantityParts(q: Question, accepted: number[]): Parts {
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

export function textEntryParts(q: Question): Parts {
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

export function essayParts(q: Question): Parts {
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
export function codingParts(q: Question): Parts {
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
