import { strFromU8 } from 'fflate';
import { type Question } from '@exam/domain/question';
import { markdownOf } from './html-text.ts';
import { ImportCollector, type QuestionDraft, type ReadResult } from './model.ts';
import { type ExamExtension, type ItemExtension, ITEM_EXTENSION_FIELDS } from './qti-shared.ts';
import { DEFAULT_ZIP_LIMITS, type ZipLimits, openZip } from './safe-unzip.ts';
import { type XmlNode, child, childrenNamed, descendants, elements, local, parseXml, textOf } from './xml.ts';

/** A QTI read: the questions, what was left out, and the exam settings when the package is the platform's own. */
export type QtiReadResult = ReadResult & { settings: ExamExtension | null };

type ItemSource = { ref: string; xml: string | undefined; extension: ItemExtension | null };

const MEDIA = new Set(['img', 'video', 'audio', 'object', 'math', 'svg', 'picture', 'iframe']);
const PLATFORM_TYPES = 'multiple choice, short answer, file upload or coding';

/**
 * Reads a QTI 3.0 content package (zip) or a single assessment item (XML). Throws when it is neither, and
 * ZipRefusedError when the zip passes `limits` (safe-unzip.ts).
 */
export function importQti(data: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): QtiReadResult {
  const isZip = data[0] === 0x50 && data[1] === 0x4b;
  if (!isZip) {
    const collector = new ImportCollector();
    readItem(collector, { ref: 'item', xml: strFromU8(data), extension: null });
    return { title: '', questions: collector.questions, notImported: collector.notImported, settings: null };
  }
  const zip = openZip(data, limits);
  const text = (path: string) => {
    const content = zip.read(path);
    return content ? strFromU8(content) : undefined;
  };
  const manifest = text('imsmanifest.xml');
  const collector = new ImportCollector();
  let title = '';
  let settings: ExamExtension | null = null;
  const sources: ItemSource[] = [];
  if (manifest !== undefined) {
    const read = readManifest(parseXml(manifest), text);
    title = read.title;
    settings = read.settings;
    sources.push(...read.items);
  } else {
    for (const path of [...zip.names].sort()) {
      if (path.endsWith('.xml')) sources.push({ ref: path, xml: text(path), extension: null });
    }
    if (sources.length === 0) throw new Error('The zip holds neither imsmanifest.xml nor QTI item files');
  }
  for (const source of sources) readItem(collector, source);
  return { title, questions: collector.questions, notImported: collector.notImported, settings };
}

function extensionOf(resource: XmlNode): unknown {
  const metadata = child(resource, 'metadata');
  const ext = metadata ? descendants(metadata, 'extension')[0] : undefined;
  if (!ext) return null;
  try {
    return JSON.parse(textOf(ext));
  } catch {
    return null;
  }
}

/** Items in the test's order when the package has a test, otherwise in the manifest's order. */
function readManifest(root: XmlNode, text: (path: string) => string | undefined) {
  const resources = descendants(root, 'resource');
  const itemResources = resources.filter((r) => (r.attrs.type ?? '').startsWith('imsqti_item'));
  const testResource = resources.find((r) => (r.attrs.type ?? '').startsWith('imsqti_test'));
  let title = '';
  let ordered = itemResources;
  const settings = testResource ? (extensionOf(testResource) as ExamExtension | null) : null;
  // The platform's manifest lists items in the exam's order; the test groups pooled ones into their sections.
  if (testResource?.attrs.href) {
    const testXml = text(testResource.attrs.href);
    if (testXml !== undefined) {
      const test = parseXml(testXml);
      title = test.attrs.title ?? '';
      const refs = descendants(test, 'qti-assessment-item-ref');
      const byHref = (href: string) => itemResources.find((r) => r.attrs.href === href || r.attrs.identifier === href);
      const inTest = refs.map((r) => byHref(r.attrs.href ?? '') ?? byHref(r.attrs.identifier ?? ''));
      const listed = inTest.filter((r): r is XmlNode => r !== undefined);
      if (settings === null) ordered = [...listed, ...itemResources.filter((r) => !listed.includes(r))];
    }
  }
  const items = ordered.map((r) => {
    const href = r.attrs.href ?? childrenNamed(r, 'file')[0]?.attrs.href ?? '';
    return {
      ref: r.attrs.identifier ?? href,
      xml: text(href),
      extension: extensionOf(r) as ItemExtension | null,
    };
  });
  return { title, items, settings };
}

function readItem(collector: ImportCollector, source: ItemSource): void {
  if (source.xml === undefined) {
    collector.skip(source.ref, source.ref, 'The item file named in the manifest is not in the package');
    return;
  }
  let root: XmlNode;
  try {
    root = parseXml(source.xml);
  } catch (error) {
    collector.skip(source.ref, source.ref, (error as Error).message);
    return;
  }
  const ref = root.attrs.identifier ?? source.ref;
  const title = (root.attrs.title ?? '').trim() || ref;
  if (local(root.name) !== 'qti-assessment-item') {
    const reason =
      local(root.name) === 'assessmentItem'
        ? 'A QTI 2.x item; only QTI 3.0 items are read'
        : `Not a QTI 3.0 assessment item (the root element is ${root.name})`;
    if (local(root.name) !== 'qti-assessment-test' && local(root.name) !== 'qti-assessment-stimulus')
      collector.skip(ref, title, reason);
    return;
  }
  const draft = draftOf(root, title);
  if (typeof draft === 'string') {
    collector.skip(ref, title, draft);
    return;
  }
  const ext = source.extension ? pickExtension(source.extension) : {};
  collector.add(ref, { ...draft, ...ext } as QuestionDraft);
}

function pickExtension(ext: ItemExtension): Partial<Question> {
  return Object.fromEntries(ITEM_EXTENSION_FIELDS.filter((f) => ext[f] !== undefined).map((f) => [f, ext[f]]));
}

/** A question from an item, or the reason it cannot be one. */
function draftOf(root: XmlNode, title: string): QuestionDraft | string {
  const body = child(root, 'qti-item-body');
  if (!body) return 'The item has no qti-item-body';
  const interactions = findInteractions(body);
  if (interactions.length === 0) return 'The item has no interaction for a candidate to answer';
  if (interactions.length > 1) {
    const names = [...new Set(interactions.map((i) => local(i.name)))].join(', ');
    return `The item has ${interactions.length} interactions (${names}); a question on this platform has one answer`;
  }
  const interaction = interactions[0] as XmlNode;
  const media = [...MEDIA].filter((m) => descendants(body, m).length > 0);
  if (media.length > 0) return `Its text holds ${media.join(', ')} content, which is not carried over`;
  const declaration = childrenNamed(root, 'qti-response-declaration').find(
    (d) => d.attrs.identifier === interaction.attrs['response-identifier'],
  );
  const prompt = child(interaction, 'qti-prompt');
  const content = [
    markdownOf(
      body.children,
      new Set([
        'qti-choice-interaction',
        'qti-extended-text-interaction',
        'qti-upload-interaction',
        'qti-modal-feedback',
        'qti-feedback-block',
        'qti-rubric-block',
      ]),
    ),
    prompt ? markdownOf(prompt.children) : '',
  ]
    .filter((t) => t !== '')
    .join('\n\n');
  const points = pointsOf(root, declaration);
  const base = { title, content, points };
  const kind = local(interaction.name);
  switch (kind) {
    case 'qti-choice-interaction':
      return choiceDraft(interaction, declaration, base);
    case 'qti-text-entry-interaction':
      return textEntryDraft(declaration, base);
    case 'qti-extended-text-interaction': {
      const language = interaction.attrs['data-exam-language'];
      if (!language) return { ...base, type: 'short-answer', acceptedAnswers: [] };
      const starter = declaration ? child(declaration, 'qti-default-value') : undefined;
      const starterCode = starter ? textOf(child(starter, 'qti-value')) : '';
      return { ...base, type: 'coding', language: language as Question['language'], starterCode };
    }
    case 'qti-upload-interaction':
      return { ...base, type: 'file-upload' };
    default:
      return `${kind} is not a question type of this platform (${PLATFORM_TYPES})`;
  }
}

function findInteractions(node: XmlNode): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of elements(node)) {
    const name = local(c.name);
    if (name.endsWith('-interaction') && name !== 'qti-end-attempt-interaction') out.push(c);
    else out.push(...findInteractions(c));
  }
  return out;
}

const num = (s: string | undefined) => (s === undefined || s.trim() === '' ? undefined : Number(s));

/** MAXSCORE's default when the item declares it; else what the mapping can give; else 1. */
function pointsOf(root: XmlNode, declaration: XmlNode | undefined): number {
  const max = childrenNamed(root, 'qti-outcome-declaration').find((o) => o.attrs.identifier === 'MAXSCORE');
  const declared = num(textOf(max && child(child(max, 'qti-default-value') ?? max, 'qti-value')));
  if (declared !== undefined && declared > 0) return declared;
  const mapping = declaration ? child(declaration, 'qti-mapping') : undefined;
  if (mapping) {
    const upper = num(mapping.attrs['upper-bound']);
    if (upper !== undefined && upper > 0) return upper;
    const values = childrenNamed(mapping, 'qti-map-entry').map((e) => Number(e.attrs['mapped-value'] ?? 0));
    const positive = values.filter((v) => v > 0);
    const total =
      declaration?.attrs.cardinality === 'single' ? Math.max(0, ...positive) : positive.reduce((a, b) => a + b, 0);
    if (total > 0) return Math.round(total * 100) / 100;
  }
  return 1;
}

function choiceText(choice: XmlNode): string {
  const hasMarkup = elements(choice).length > 0;
  return hasMarkup ? markdownOf(choice.children) : textOf(choice).trim();
}

function choiceDraft(
  interaction: XmlNode,
  declaration: XmlNode | undefined,
  base: Pick<Question, 'title' | 'content' | 'points'>,
): QuestionDraft | string {
  const choices = childrenNamed(interaction, 'qti-simple-choice');
  const options = choices.map(choiceText);
  if (options.some((o) => o === '')) return 'An option has no text (an image or media only), which is not carried over';
  if (new Set(options).size !== options.length) return 'Two options have the same text';
  const textOfId = new Map(choices.map((c, i) => [c.attrs.identifier ?? '', options[i] as string]));
  const correctIds = declaration
    ? childrenNamed(
        child(declaration, 'qti-correct-response') ?? { name: '', attrs: {}, children: [] },
        'qti-value',
      ).map((v) => textOf(v).trim())
    : [];
  const correct = correctIds.map((id) => textOfId.get(id)).filter((t): t is string => t !== undefined);
  const multiple = declaration?.attrs.cardinality === 'multiple' || interaction.attrs['max-choices'] !== '1';
  const partial = multiple && declaration !== undefined && child(declaration, 'qti-mapping') !== undefined;
  if (multiple)
    return {
      ...base,
      type: 'mcq',
      options,
      multipleAnswers: true,
      correctAnswers: correct,
      scoring: partial ? 'partial' : 'all-or-nothing',
    };
  return { ...base, type: 'mcq', options, ...(correct[0] !== undefined ? { correctAnswer: correct[0] } : {}) };
}

function textEntryDraft(
  declaration: XmlNode | undefined,
  base: Pick<Question, 'title' | 'content' | 'points'>,
): QuestionDraft | string {
  const correct = declaration
    ? childrenNamed(
        child(declaration, 'qti-correct-response') ?? { name: '', attrs: {}, children: [] },
        'qti-value',
      ).map(textOf)
    : [];
  const mapping = declaration ? child(declaration, 'qti-mapping') : undefined;
  const entries = mapping ? childrenNamed(mapping, 'qti-map-entry') : [];
  const best = Math.max(0, ...entries.map((e) => Number(e.attrs['mapped-value'] ?? 0)));
  const partial = entries.filter((e) => {
    const v = Number(e.attrs['mapped-value'] ?? 0);
    return v > 0 && v < best;
  });
  if (partial.length > 0)
    return `It gives part of the points for ${partial.map((e) => `"${e.attrs['map-key']}"`).join(', ')}; a short answer here is right or wrong`;
  const full = entries.filter((e) => best > 0 && Number(e.attrs['mapped-value'] ?? 0) === best);
  const accepted = [...new Set([...full.map((e) => e.attrs['map-key'] ?? ''), ...correct])].filter((a) => a !== '');
  const sensitivity = new Set(full.map((e) => e.attrs['case-sensitive'] === 'true'));
  if (sensitivity.size > 1) return 'Some accepted answers are case-sensitive and others are not';
  const numeric = declaration?.attrs['base-type'] === 'float' || declaration?.attrs['base-type'] === 'integer';
  return {
    ...base,
    type: 'short-answer',
    acceptedAnswers: accepted,
    matching: {
      caseSensitive: sensitivity.has(true),
      numeric: numeric ? { tolerance: 0, mode: 'absolute' } : null,
    },
  };
}
