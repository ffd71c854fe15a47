import { strFromU8 } from 'fflate';
import { type Passage } from '@exam/domain/passages';
import { type Question } from '@exam/domain/question';
import { markdownOf } from './html-text.ts';
import { ImportCollector, type QuestionDraft, type ReadResult } from './model.ts';
import { readItemXml } from './qti-item-import.ts';
import {
  EXTENSION_FILE,
  type ExamExtension,
  type ExtensionFile,
  type ItemExtension,
  ITEM_EXTENSION_FIELDS,
} from './qti-shared.ts';
import { DEFAULT_ZIP_LIMITS, type ZipLimits, openZip } from './safe-unzip.ts';
import { type XmlNode, child, childrenNamed, descendants, local, parseXml } from './xml.ts';

/** A QTI read: the questions, their passages, what was left out, and the exam settings of the platform's own package. */
export type QtiReadResult = ReadResult & { settings: ExamExtension | null };

type ItemSource = { ref: string; path: string; xml: string | undefined; extension: ItemExtension | null };
type Files = (path: string) => string | undefined;

/**
 * Reads a QTI 3.0 content package (zip) or a single assessment item (XML). Throws when it is neither, and
 * ZipRefusedError when the zip passes `limits` (safe-unzip.ts).
 */
export function importQti(data: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): QtiReadResult {
  const isZip = data[0] === 0x50 && data[1] === 0x4b;
  const collector = new ImportCollector();
  if (!isZip) {
    readItem(
      collector,
      { ref: 'item', path: 'item.xml', xml: strFromU8(data), extension: null },
      () => undefined,
      new Map(),
    );
    return { title: '', ...results(collector), settings: null };
  }
  const zip = openZip(data, limits);
  const text: Files = (path) => {
    const content = zip.read(path);
    return content ? strFromU8(content) : undefined;
  };
  const manifest = text('imsmanifest.xml');
  let title = '';
  let extension: ExtensionFile | null = null;
  const sources: ItemSource[] = [];
  if (manifest !== undefined) {
    const read = readManifest(parseXml(manifest), text);
    title = read.title;
    extension = read.extension;
    sources.push(...read.items);
  } else {
    for (const path of [...zip.names].sort()) {
      if (path.endsWith('.xml')) sources.push({ ref: path, path, xml: text(path), extension: null });
    }
    if (sources.length === 0) throw new Error('The zip holds neither imsmanifest.xml nor QTI item files');
  }
  // The platform's own package names its passages exactly (ids and Markdown); others' are read from their stimuli.
  const passages = new Map<string, Passage>((extension?.passages ?? []).map((p) => [`#${p.id}`, p]));
  for (const source of sources) readItem(collector, source, text, passages);
  // Every passage of the platform's own package (an exam may hold one no question shows yet), and every stimulus
  // an imported question refers to.
  const used = new Set(collector.questions.map((q) => q.passageId));
  collector.passages.push(
    ...[...passages].filter(([key, p]) => key.startsWith('#') || used.has(p.id)).map(([, p]) => p),
  );
  return { title, ...results(collector), settings: extension?.exam ?? null };
}

const results = (c: ImportCollector) => ({
  questions: c.questions,
  notImported: c.notImported,
  passages: c.passages,
  warnings: c.warnings,
});

/** The platform's extension file when the manifest lists it and it reads as one. */
function extensionOf(text: Files): ExtensionFile | null {
  const raw = text(EXTENSION_FILE);
  if (raw === undefined) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<ExtensionFile>;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.items !== 'object') return null;
    return { exam: parsed.exam!, items: parsed.items, passages: Array.isArray(parsed.passages) ? parsed.passages : [] };
  } catch {
    return null;
  }
}

/** Items in the test's order when the package has a test, otherwise in the manifest's order. */
function readManifest(root: XmlNode, text: Files) {
  const resources = descendants(root, 'resource');
  const itemResources = resources.filter((r) => (r.attrs.type ?? '').startsWith('imsqti_item'));
  const testResource = resources.find((r) => (r.attrs.type ?? '').startsWith('imsqti_test'));
  const listed = resources.some((r) => descendants(r, 'file').some((f) => f.attrs.href === EXTENSION_FILE));
  const extension = listed ? extensionOf(text) : null;
  let title = '';
  let ordered = itemResources;
  if (testResource?.attrs.href) {
    const testXml = text(testResource.attrs.href);
    if (testXml !== undefined) {
      const test = parseXml(testXml);
      title = test.attrs.title ?? '';
      const refs = descendants(test, 'qti-assessment-item-ref');
      const byHref = (href: string) => itemResources.find((r) => r.attrs.href === href || r.attrs.identifier === href);
      const inTest = refs.map((r) => byHref(r.attrs.href ?? '') ?? byHref(r.attrs.identifier ?? ''));
      const listedInTest = inTest.filter((r): r is XmlNode => r !== undefined);
      // The platform's manifest lists items in the exam's order; the test groups pooled ones into their sections.
      if (extension === null) ordered = [...listedInTest, ...itemResources.filter((r) => !listedInTest.includes(r))];
    }
  }
  const items = ordered.map((r) => {
    const href = r.attrs.href ?? childrenNamed(r, 'file')[0]?.attrs.href ?? '';
    const ref = r.attrs.identifier ?? href;
    return { ref, path: href, xml: text(href), extension: extension?.items[ref] ?? null };
  });
  return { title, items, extension };
}

/** A path relative to the file that names it, as a URL reference is resolved (no leaving the package). */
function resolve(from: string, href: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of href.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/**
 * The passage an item's qti-assessment-stimulus-ref points at, read from the stimulus file in the package (kept
 * by its path, so items sharing it share one passage); the reason when it cannot be.
 */
function passageOf(ref: XmlNode, itemPath: string, text: Files, passages: Map<string, Passage>): Passage | string {
  const path = resolve(itemPath, ref.attrs.href ?? '');
  const known = passages.get(path);
  if (known) return known;
  const xml = text(path);
  if (xml === undefined)
    return `Its passage "${ref.attrs.title ?? ref.attrs.identifier}" (${ref.attrs.href}) is not in the file`;
  let root: XmlNode;
  try {
    root = parseXml(xml);
  } catch (error) {
    return `Its passage ${ref.attrs.href} cannot be read: ${(error as Error).message}`;
  }
  const body = child(root, 'qti-stimulus-body');
  if (local(root.name) !== 'qti-assessment-stimulus' || !body)
    return `${ref.attrs.href} is not a QTI assessment stimulus`;
  const content = markdownOf(body.children);
  if (content === '') return `Its passage ${ref.attrs.href} holds no text (media only), which is not carried over`;
  const taken = new Set([...passages.values()].map((p) => p.id));
  let id = (root.attrs.identifier ?? ref.attrs.identifier ?? 'passage').slice(0, 60);
  for (let n = 2; taken.has(id); n++) id = `${id.slice(0, 56)}-${n}`;
  const passage: Passage = { id, title: (root.attrs.title ?? ref.attrs.title ?? '').slice(0, 300), content };
  passages.set(path, passage);
  return passage;
}

function readItem(collector: ImportCollector, source: ItemSource, text: Files, passages: Map<string, Passage>): void {
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
  const read = readItemXml(root, title);
  if (typeof read === 'string') {
    collector.skip(ref, title, read);
    return;
  }
  const lost = [...read.lost];
  let passageId: string | null = null;
  const refs = childrenNamed(root, 'qti-assessment-stimulus-ref');
  if (refs.length > 1) lost.push('It refers to several passages; the first is shown beside it');
  if (refs[0]) {
    const ext = source.extension?.passageId;
    const passage = ext ? passages.get(`#${ext}`) : undefined;
    const found = passage ?? passageOf(refs[0], source.path, text, passages);
    if (typeof found === 'string') lost.push(found);
    else passageId = found.id;
  }
  const ext = source.extension ? pickExtension(source.extension) : {};
  const kept = collector.add(ref, { ...read.draft, passageId, ...ext } as QuestionDraft);
  if (kept) for (const reason of lost) collector.warn(ref, title, reason);
}

function pickExtension(ext: ItemExtension): Partial<Question> {
  return Object.fromEntries(ITEM_EXTENSION_FIELDS.filter((f) => ext[f] !== undefined).map((f) => [f, ext[f]]));
}
