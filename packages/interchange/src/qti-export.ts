import { zipSync, strToU8 } from 'fflate';
import { type Question } from '@exam/domain/question';
import { sectionIndexOf } from '@exam/domain/sections';
import {
  CP_NS,
  CP_SCHEMA,
  EXTENSION_NS,
  type ExamExtension,
  type ExchangeExam,
  ITEM_EXTENSION_FIELDS,
  ITEM_SCHEMA,
  type ItemExtension,
  QTI_NS,
  RP_MAP_RESPONSE,
} from './qti-shared.ts';
import { el, escapeXml } from './xml.ts';

/**
 * QTI 3.0 export (1EdTech QTI 3.0 ASI and its Content Packaging profile): one assessment item per question,
 * one assessment test whose sections are the exam's questions and its pools (a pool is a section that selects
 * `draw` of its items) — or, for an exam with sections, one section each holding its questions and pools — and
 * imsmanifest.xml listing them, zipped.
 */
export function exportQti(exam: ExchangeExam): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const items = exam.questions.map((q, i) => ({ q, ident: `item-${i + 1}`, href: `items/item-${i + 1}.xml` }));
  for (const { q, ident, href } of items) files[href] = strToU8(itemXml(q, ident, exam.shuffleOptions));
  files['test.xml'] = strToU8(testXml(exam, items));
  files['imsmanifest.xml'] = strToU8(manifestXml(exam, items));
  return zipSync(files);
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const rootAttrs = (identifier: string, title: string) => ({
  xmlns: QTI_NS,
  'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
  'xsi:schemaLocation': `${QTI_NS} ${ITEM_SCHEMA}`,
  identifier,
  title,
});

const value = (v: string | number) => el('qti-value', {}, escapeXml(String(v)));
const floatOutcome = (identifier: string, extra: Record<string, string> = {}, def?: number) =>
  el(
    'qti-outcome-declaration',
    { identifier, cardinality: 'single', 'base-type': 'float', ...extra },
    ...(def === undefined ? [] : [el('qti-default-value', {}, value(def))]),
  );

/** Markdown paragraphs as HTML paragraphs, for players that read the item body. */
function bodyHtml(markdown: string): string {
  return markdown
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => el('p', {}, p.split('\n').map(escapeXml).join('<br/>')))
    .join('');
}

/** SCORE is MAXSCORE when the response matches the correct response, else 0. */
const matchCorrectProcessing = el(
  'qti-response-processing',
  {},
  el(
    'qti-response-condition',
    {},
    el(
      'qti-response-if',
      {},
      el(
        'qti-match',
        {},
        el('qti-variable', { identifier: 'RESPONSE' }),
        el('qti-correct', { identifier: 'RESPONSE' }),
      ),
      el('qti-set-outcome-value', { identifier: 'SCORE' }, el('qti-variable', { identifier: 'MAXSCORE' })),
    ),
    el(
      'qti-response-else',
      {},
      el('qti-set-outcome-value', { identifier: 'SCORE' }, el('qti-base-value', { 'base-type': 'float' }, '0')),
    ),
  ),
);

const round = (n: number) => Math.round(n * 10000) / 10000;

function choiceParts(q: Question, shuffle: boolean) {
  const ids = q.options.map((_, i) => `C${i + 1}`);
  const idOf = (option: string) => ids[q.options.indexOf(option)] ?? '';
  const correct = q.multipleAnswers ? q.correctAnswers : q.correctAnswer ? [q.correctAnswer] : [];
  const keyed = correct.length > 0;
  const partial = q.multipleAnswers && q.scoring === 'partial' && keyed;
  // Partial credit: each right option earns its share, each wrong one costs as much, never below 0.
  const share = keyed ? q.points / correct.length : 0;
  const mapping = partial
    ? el(
        'qti-mapping',
        { 'default-value': 0, 'lower-bound': 0, 'upper-bound': q.points },
        ...q.options.map((o) =>
          el('qti-map-entry', { 'map-key': idOf(o), 'mapped-value': round(correct.includes(o) ? share : -share) }),
        ),
      )
    : '';
  const declaration = el(
    'qti-response-declaration',
    { identifier: 'RESPONSE', cardinality: q.multipleAnswers ? 'multiple' : 'single', 'base-type': 'identifier' },
    ...(keyed ? [el('qti-correct-response', {}, ...correct.map((c) => value(idOf(c))))] : []),
    mapping,
  );
  const interaction = el(
    'qti-choice-interaction',
    {
      'response-identifier': 'RESPONSE',
      'max-choices': q.multipleAnswers ? 0 : 1,
      shuffle: shuffle ? 'true' : undefined,
    },
    ...q.options.map((o, i) => el('qti-simple-choice', { identifier: ids[i] }, escapeXml(o))),
  );
  const processing = !keyed
    ? ''
    : partial
      ? el('qti-response-processing', { template: RP_MAP_RESPONSE })
      : matchCorrectProcessing;
  return { declaration, interaction, processing, human: !keyed };
}

function textEntryParts(q: Question) {
  const keyed = q.acceptedAnswers.length > 0;
  const declaration = el(
    'qti-response-declaration',
    { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' },
    ...(keyed
      ? [
          el('qti-correct-response', {}, value(q.acceptedAnswers[0] ?? '')),
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
  );
  return {
    declaration,
    interaction: el('p', {}, el('qti-text-entry-interaction', { 'response-identifier': 'RESPONSE' })),
    processing: keyed ? el('qti-response-processing', { template: RP_MAP_RESPONSE }) : '',
    human: !keyed,
  };
}

function uploadParts() {
  return {
    declaration: el('qti-response-declaration', { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'file' }),
    interaction: el('qti-upload-interaction', { 'response-identifier': 'RESPONSE' }),
    processing: '',
    human: true,
  };
}

/** A coding question is extended text: the starter code is the response's default value, the language a data attribute. */
function codingParts(q: Question) {
  const declaration = el(
    'qti-response-declaration',
    { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'string' },
    ...(q.starterCode ? [el('qti-default-value', {}, value(q.starterCode))] : []),
  );
  const interaction = el('qti-extended-text-interaction', {
    'response-identifier': 'RESPONSE',
    format: 'preformatted',
    'data-exam-language': q.language,
  });
  return { declaration, interaction, processing: '', human: q.tests.length === 0 };
}

export function itemXml(q: Question, ident: string, shuffleOptions: boolean): string {
  const parts =
    q.type === 'mcq'
      ? choiceParts(q, shuffleOptions)
      : q.type === 'short-answer'
        ? textEntryParts(q)
        : q.type === 'file-upload'
          ? uploadParts()
          : codingParts(q);
  const scoredBy = q.type === 'coding' && !parts.human ? 'externalMachine' : parts.human ? 'human' : undefined;
  return (
    XML_DECL +
    el(
      'qti-assessment-item',
      { ...rootAttrs(ident, q.title), adaptive: 'false', 'time-dependent': 'false' },
      parts.declaration,
      floatOutcome('SCORE', scoredBy ? { 'external-scored': scoredBy } : {}),
      floatOutcome('MAXSCORE', {}, q.points),
      el('qti-item-body', {}, bodyHtml(q.content), parts.interaction),
      parts.processing,
    )
  );
}

function testXml(exam: ExchangeExam, items: Array<{ q: Question; ident: string; href: string }>): string {
  const ref = (i: { ident: string; href: string }) =>
    el('qti-assessment-item-ref', { identifier: i.ident, href: i.href });
  const ordering = exam.shuffleQuestions ? [el('qti-ordering', { shuffle: 'true' })] : [];
  const poolSection = (pool: ExchangeExam['pools'][number], n: number) =>
    el(
      'qti-assessment-section',
      { identifier: `pool-${n + 1}`, title: pool.title, visible: 'true' },
      el('qti-selection', { select: pool.draw }),
      ...items.filter((i) => i.q.poolId === pool.id).map(ref),
    );
  const examSections = exam.sections ?? [];
  // An exam with sections: one qti-assessment-section each, in order, holding its questions and its pools (a
  // pool's questions share one section), with the section's own time limit. Without: the questions, then the pools.
  const sections =
    examSections.length === 0
      ? [
          el(
            'qti-assessment-section',
            { identifier: 'questions', title: 'Questions', visible: 'true' },
            ...ordering,
            ...items.filter((i) => i.q.poolId === null).map(ref),
          ),
          ...exam.pools.map(poolSection),
        ]
      : examSections.map((section, k) => {
          const mine = items.filter((i) => sectionIndexOf(i.q, examSections) === k);
          return el(
            'qti-assessment-section',
            { identifier: `section-${k + 1}`, title: section.title || `Section ${k + 1}`, visible: 'true' },
            ...(section.timeLimitMinutes !== null
              ? [el('qti-time-limits', { 'max-time': section.timeLimitMinutes * 60 })]
              : []),
            ...ordering,
            ...mine.filter((i) => i.q.poolId === null).map(ref),
            ...exam.pools.flatMap((pool, n) =>
              mine.some((i) => i.q.poolId === pool.id) ? [poolSection(pool, n)] : [],
            ),
          );
        });
  const part = el(
    'qti-test-part',
    { identifier: 'part-1', 'navigation-mode': 'nonlinear', 'submission-mode': 'simultaneous' },
    ...(exam.timerEnabled ? [el('qti-time-limits', { 'max-time': exam.timerMinutes * 60 })] : []),
    ...sections,
  );
  return XML_DECL + el('qti-assessment-test', rootAttrs('test', exam.title), part);
}

const extension = (data: unknown) =>
  el('metadata', {}, el('exam:extension', { 'xmlns:exam': EXTENSION_NS }, escapeXml(JSON.stringify(data))));

function manifestXml(exam: ExchangeExam, items: Array<{ q: Question; ident: string; href: string }>): string {
  const { questions: _questions, ...settings } = exam;
  const testExtension: ExamExtension = settings;
  const itemResource = ({ q, ident, href }: (typeof items)[number]) => {
    const ext: ItemExtension = Object.fromEntries(ITEM_EXTENSION_FIELDS.map((f) => [f, q[f]]));
    return el(
      'resource',
      { identifier: ident, type: 'imsqti_item_xmlv3p0', href },
      extension(ext),
      el('file', { href }),
    );
  };
  return (
    XML_DECL +
    el(
      'manifest',
      {
        xmlns: CP_NS,
        'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
        'xsi:schemaLocation': `${CP_NS} ${CP_SCHEMA}`,
        identifier: 'exam-package',
      },
      el('metadata', {}, el('schema', {}, 'QTI Package'), el('schemaversion', {}, '3.0.0')),
      el('organizations', {}),
      el(
        'resources',
        {},
        el(
          'resource',
          { identifier: 'test', type: 'imsqti_test_xmlv3p0', href: 'test.xml' },
          extension(testExtension),
          el('file', { href: 'test.xml' }),
          ...items.map((i) => el('dependency', { identifierref: i.ident })),
        ),
        ...items.map(itemResource),
      ),
    )
  );
}
