import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir, fixtureText } from './testing.ts';
import { descendants, local, parseXml, textOf, type XmlNode } from './xml.ts';

/** Every committed sample file, by its path under src/fixtures. */
function files(dir = fixturesDir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [relative(fixturesDir, full)];
  });
}

const xml = files().filter((file) => file.endsWith('.xml'));
const parsed = new Map<string, XmlNode>(xml.map((file) => [file, parseXml(fixtureText(file))]));
const holding = (element: string) =>
  [...parsed].filter(([, root]) => local(root.name) === element || descendants(root, element).length > 0);
const moodleTypes = new Set(
  [...parsed]
    .filter(([file]) => file.startsWith('moodle/'))
    .flatMap(([, root]) => descendants(root, 'question').map((q) => q.attrs.type)),
);
const gift = files()
  .filter((file) => file.endsWith('.gift.txt'))
  .map((file) => fixtureText(file))
  .join('\n');

// The interchange formats' constructs the importers and exporters must handle (docs/product.md, "Importing and
// exporting questions"): the sample files written for this repository hold each at least once.
describe('the sample files', () => {
  it('are all well-formed XML where they are XML', () => {
    expect(xml.length).toBeGreaterThan(15);
    for (const [file, root] of parsed) expect(root.name, file).toBeTruthy();
  });

  it.each([
    'qti-choice-interaction',
    'qti-feedback-inline',
    'qti-extended-text-interaction',
    'qti-upload-interaction',
    'qti-match-interaction',
    'qti-order-interaction',
    'qti-associate-interaction',
    'qti-gap-match-interaction',
    'qti-inline-choice-interaction',
    'qti-text-entry-interaction',
    'qti-assessment-stimulus',
    'qti-assessment-stimulus-ref',
    'qti-template-declaration',
    'qti-template-processing',
    'qti-mapping',
    'qti-assessment-test',
    'manifest',
  ])('hold a QTI %s', (element) => {
    expect(holding(element).length).toBeGreaterThan(0);
  });

  it('hold a QTI item with inline feedback inside a choice and one with several text gaps', () => {
    const [inChoice] = holding('qti-simple-choice').filter(([, root]) =>
      descendants(root, 'qti-simple-choice').some((choice) => descendants(choice, 'qti-feedback-inline').length > 0),
    );
    expect(inChoice?.[0]).toBe('qti/question-kinds/inline-feedback.xml');
    const gaps = holding('qti-text-entry-interaction').filter(
      ([, root]) => descendants(root, 'qti-text-entry-interaction').length >= 2,
    );
    expect(gaps.map(([file]) => file)).toEqual(['qti/question-kinds/inline-choice-and-gaps.xml']);
  });

  it('hold every Moodle XML question kind, units and a Moodle 1.9 image', () => {
    for (const type of ['category', 'multichoice', 'truefalse', 'shortanswer', 'numerical', 'essay', 'matching'])
      expect(moodleTypes).toContain(type);
    for (const type of ['cloze', 'calculated', 'description']) expect(moodleTypes).toContain(type);
    const kinds = parsed.get('moodle/question-kinds.xml')!;
    expect(descendants(kinds, 'unit').length).toBeGreaterThan(0);
    expect(descendants(kinds, 'dataset_definition')).toHaveLength(2);
    expect(descendants(kinds, 'image')).toHaveLength(1);
  });

  it('hold the Moodle constructs beyond the basic kinds: ordering, all-or-nothing choice, inline picture, cloze kinds', () => {
    for (const type of ['ordering', 'multichoiceset', 'calculatedsimple', 'multianswer'])
      expect(moodleTypes).toContain(type);
    const more = parsed.get('moodle/more-kinds.xml')!;
    expect(descendants(more, 'image_base64')).toHaveLength(1);
    const cloze = descendants(more, 'questiontext')
      .map((t) => textOf(t))
      .join('\n');
    for (const kind of [':MCV:', ':SAC:', ':NM:', ':MULTIRESPONSE:']) expect(cloze).toContain(kind);
    expect(descendants(more, 'unitsleft').map((u) => textOf(u))).toContain('1');
  });

  it('hold GIFT gaps in the text, a numeric range, general feedback and a linked file', () => {
    expect(gift).toMatch(/capital of \{=France/);
    expect(gift).toMatch(/\{#\d+\.\.\d+/);
    expect(gift).toMatch(/####/);
    expect(gift).toMatch(/<audio /);
    expect(gift).toMatch(/href\\="recordings\//);
  });

  it('hold GIFT matching, missing-word, numeric, essay, category and an audio link', () => {
    expect(gift).toMatch(/=.+ -> .+/);
    expect(gift).toMatch(/\$CATEGORY:/);
    expect(gift).toMatch(/\{#[\d.]+:[\d.]+/);
    expect(gift).toMatch(/\{\}/);
    expect(gift).toMatch(/ {=R =resistance} in a circuit/);
    expect(gift).toMatch(/\.mp3/);
  });
});
