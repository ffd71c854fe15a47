import { CHAT_MAX_FILE_BYTES, CHAT_MAX_FILES } from '@exam/domain/llm';
import { describe, expect, it } from 'vitest';
import { acceptFiles, isValidFile, toChatFile } from './attachments.ts';

const file = (name: string, content = 'x') => new File([content], name, { type: 'text/plain' });

describe('isValidFile', () => {
  it('accepts a named file, even an empty one, and rejects nameless files and non-files', () => {
    expect(isValidFile(file('notes.txt', ''))).toBe(true);
    expect(isValidFile(file(''))).toBe(false);
    expect(isValidFile(new Blob(['x']))).toBe(false);
    expect(isValidFile({ name: 'fake.txt', size: 3 })).toBe(false);
  });
});

describe('acceptFiles', () => {
  it('keeps the files already attached and adds the valid new ones', () => {
    const a = file('a.txt');
    const b = file('b.csv');
    expect(acceptFiles([a], [b, file(''), 'nope'])).toEqual({ files: [a, b], skipped: [] });
  });

  it('skips files over the size cap and past the count cap, saying why', () => {
    const big = new File([new Uint8Array(CHAT_MAX_FILE_BYTES + 1)], 'big.bin');
    const full = Array.from({ length: CHAT_MAX_FILES }, (_, i) => file(`f${i}.txt`));
    const result = acceptFiles(full, [big, file('extra.txt')]);
    expect(result.files).toHaveLength(CHAT_MAX_FILES);
    expect(result.skipped).toEqual([
      { name: 'big.bin', reason: 'tooLarge' },
      { name: 'extra.txt', reason: 'tooMany' },
    ]);
  });
});

describe('toChatFile', () => {
  it("reads the file's bytes as base64 with its name, type and size", async () => {
    expect(await toChatFile(file('hello.txt', 'hello'))).toEqual({
      name: 'hello.txt',
      type: 'text/plain',
      size: 5,
      dataBase64: btoa('hello'),
    });
  });
});
