import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { importQti } from './qti-import.ts';
import { openZip, ZipRefusedError } from './safe-unzip.ts';
import {
  buildZip,
  deflated,
  fullOverlapBomb,
  honestBomb,
  manyEntries,
  quotedOverlapBomb,
  understatedBomb,
} from './zip-bombs.testing.ts';

const MB = 1024 * 1024;
const limits = { maxUnzippedBytes: 50 * MB, maxEntries: 1000 };
const item = (id: string) =>
  strToU8(
    `<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="${id}" title="${id}">` +
      '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">' +
      '<qti-correct-response><qti-value>A</qti-value></qti-correct-response></qti-response-declaration>' +
      '<qti-item-body><qti-choice-interaction response-identifier="RESPONSE" max-choices="1">' +
      '<qti-prompt>Pick A</qti-prompt><qti-simple-choice identifier="A">A</qti-simple-choice>' +
      '<qti-simple-choice identifier="B">B</qti-simple-choice></qti-choice-interaction></qti-item-body>' +
      '</qti-assessment-item>',
  );

// Building the bombs deflates tens of megabytes: seconds on a loaded 2-core machine.
describe('QTI zip import under limits', { timeout: 30_000 }, () => {
  it('reads every entry of an ordinary archive exactly as unzipSync does', () => {
    const archive = zipSync({
      'imsmanifest.xml': strToU8('<manifest/>'),
      'items/a.xml': item('a'),
      'items/': new Uint8Array(0),
      'media/raw.bin': [new Uint8Array(3000).fill(7), { level: 0 }],
    });
    const zip = openZip(archive, limits);
    const expected = unzipSync(archive);
    expect([...zip.names].sort()).toEqual(Object.keys(expected).sort());
    for (const name of zip.names) expect(zip.read(name), name).toEqual(name.endsWith('/') ? undefined : expected[name]);
  });

  it('still imports a package whose items are stored and deflated', () => {
    const archive = buildZip([deflated('a.xml', item('a')), deflated('b.xml', item('b'))]);
    expect(importQti(archive, limits).questions).toHaveLength(2);
    expect(importQti(zipSync({ 'c.xml': [item('c'), { level: 0 }] }), limits).questions).toHaveLength(1);
  });

  it('refuses overlapping entries that all point at one deflated kernel, before inflating any', () => {
    // 100 names for one 2 MB kernel: about 200 MB unpacked naively, from an upload of a few kilobytes.
    const bomb = fullOverlapBomb(100, 2 * MB);
    expect(bomb.length).toBeLessThan(20_000);
    expect(() => importQti(bomb, limits)).toThrow(/share their data \(overlapping entries, a zip bomb\)/);
  });

  it('refuses an entry that quotes another entry inside its own data (overlap with distinct local headers)', () => {
    expect(() => importQti(quotedOverlapBomb(MB), limits)).toThrow(
      "The zip's entries outer.xml and inner.xml share their data (overlapping entries, a zip bomb)",
    );
  });

  it('refuses a zip whose declared sizes add up past the budget: 4 × 20 MB of zeros in under 100 KB', () => {
    const bomb = honestBomb(4, 20 * MB);
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => importQti(bomb, limits)).toThrow(
      'The zip unpacks to 80 MB; at most 50 MB are accepted (IMPORT_MAX_UNZIPPED_BYTES)',
    );
  });

  it('stops inflating an entry that unpacks past the size it declares', () => {
    const bomb = understatedBomb(8 * MB, 100);
    const zip = openZip(bomb, limits);
    expect(() => zip.read('item.xml')).toThrow('item.xml unpacks to more than the 100 bytes it declares');
    expect(() => importQti(bomb, limits)).toThrow(ZipRefusedError);
  });

  it('refuses a zip with more entries than allowed', () => {
    expect(() => importQti(manyEntries(1001), limits)).toThrow('The zip holds 1001 entries; at most 1000 are accepted');
    expect(() => openZip(manyEntries(1000), limits)).not.toThrow();
  });

  it('counts every read against one budget, so a manifest naming one item many times cannot multiply it', () => {
    const zip = openZip(buildZip([deflated('big.xml', new Uint8Array(2 * MB))]), {
      ...limits,
      maxUnzippedBytes: 5 * MB,
    });
    expect(zip.read('big.xml')).toHaveLength(2 * MB);
    expect(zip.read('big.xml')).toHaveLength(2 * MB);
    expect(() => zip.read('big.xml')).toThrow('The zip unpacks to more than 5 MB');
  });
});
