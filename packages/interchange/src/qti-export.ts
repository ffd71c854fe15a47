import { zipSync, strToU8 } from 'fflate';
import { type Question } from '@exam/domain/question';
import { sectionIndexOf } from '@exam/domain/sections';
import { type Passage } from '@exam/domain/passages';
import { markdownToXhtml } from './markdown-xhtml.ts';
import { itemXml } from './qti-item-export.ts';
import {
  CP_NS,
  CP_SCHEMA,
  EXTENSION_FILE,
  EXTENSION_RESOURCE,
  type ExchangeExam,
  type ExtensionFile,
  ITEM_EXTENSION_FIELDS,
  ITEM_SCHEMA,
  type ItemExtension,
  QTI_NS,
} from './qti-shared.ts';
import { el } from './xml.ts';

/**
 * QTI 3.0 export (1EdTech QTI 3.0 ASI and its Content Packaging profile): one assessment item per question,
 * one assessment test whose sections are the exam's questions and its pools (a pool is a section that selects
 * `draw` of its items) — or, for an exam with sections, one section each holding its questions and pools —, one
 * assessment stimulus per passage (the items that show it refer to it), the platform's extension file
 * (qti-shared.ts) and imsmanifest.xml listing them all, zipped.
 */
export function exportQti(exam: ExchangeExam): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const stimuli = exam.passages.map((passage, i) => ({
    passage,
    ident: `passage-${i + 1}`,
    href: `stimuli/passage-${i + 1}.xml`,
  }));
  const items: ItemFile[] = exam.questions.map((q, i) => ({
    q,
    ident: `item-${i + 1}`,
    href: `items/item-${i + 1}.xml`,
    stimulus: stimuli.find((s) => s.passage.id === q.passageId),
  }));
  for (const s of stimuli) files[s.href] = strToU8(stimulusXml(s));
  for (const { q, ident, href, stimulus } of items) {
    const ref = stimulus && {
      identifier: stimulus.ident,
      href: relativeHref(href, stimulus.href),
      title: stimulus.passage.title || stimulus.ident,
    };
    files[href] = strToU8(itemXml(q, ident, { shuffle: exam.shuffleOptions, ...(ref ? { stimulus: ref } : {}) }));
  }
  files['test.xml'] = strToU8(testXml(exam, items));
  files[EXTENSION_FILE] = strToU8(JSON.stringify(extensionOf(exam, items), null, 1));
  files['imsmanifest.xml'] = strToU8(manifestXml(items, stimuli));
  return zipSync(files);
}

/** A stimulus's href as the item names it: relative to the item file (QTI resolves it against the item's URL). */
function relativeHref(from: string, to: string): string {
  const up = from.split('/').length - 1;
  return `${'../'.repeat(up)}${to}`;
}

function extensionOf(exam: ExchangeExam, items: ItemFile[]): ExtensionFile {
  const { questions: _questions, passages, ...settings } = exam;
  return {
    exam: settings,
    items: Object.fromEntries(
      items.map(({ q, ident }) => [
        ident,
        Object.fromEntries(ITEM_EXTENSION_FIELDS.map((f) => [f, q[f]])) as ItemExtension,
      ]),
    ),
    passages,
  };
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const rootAttrs = (identifier: string, title: string) => ({
  xmlns: QTI_NS,
  'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
  'xsi:schemaLocation': `${QTI_NS} ${ITEM_SCHEMA}`,
  identifier,
  title,
});

type ItemFile = { q: Question; ident: string; href: string; stimulus: StimulusFile | undefined };
type StimulusFile = { passage: Passage; ident: string; href: string };

/** A passage as a qti-assessment-stimulus: its Markdown rendered as XHTML in the stimulus body. */
function stimulusXml(s: StimulusFile): string {
  return (
    XML_DECL +
    el(
      'qti-assessment-stimulus',
      rootAttrs(s.ident, s.passage.title || s.ident),
      el('qti-stimulus-body', {}, markdownToXhtml(s.passage.content)),
    )
  );
}

function testXml(exam: ExchangeExam, items: ItemFile[]): string {
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

/**
 * The manifest: the test (depending on its items and on the extension file), each item (depending on its stimulus),
 * each stimulus, and the extension file as a resource of its own. Resources carry no <metadata>: IMS Content
 * Packaging allows only LOM or QTI metadata there.
 */
function manifestXml(items: ItemFile[], stimuli: StimulusFile[]): string {
  const resource = (identifier: string, type: string, href: string, ...dependencies: string[]) =>
    el(
      'resource',
      { identifier, type, href },
      el('file', { href }),
      ...dependencies.map((d) => el('dependency', { identifierref: d })),
    );
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
        resource('test', 'imsqti_test_xmlv3p0', 'test.xml', ...items.map((i) => i.ident), EXTENSION_RESOURCE),
        ...items.map((i) =>
          resource(i.ident, 'imsqti_item_xmlv3p0', i.href, ...(i.stimulus ? [i.stimulus.ident] : [])),
        ),
        ...stimuli.map((s) => resource(s.ident, 'imsqti_stimulus_xmlv3p0', s.href)),
        resource(EXTENSION_RESOURCE, 'webcontent', EXTENSION_FILE),
      ),
    )
  );
}
