import { describe, expect, it } from 'vitest';
import { fileAnswer } from './uploads.ts';
import { fileNameOf } from './file-name.ts';

describe('fileNameOf', () => {
  it('reads the name back from a file answer and nothing from other answers', () => {
    expect(fileNameOf(fileAnswer('report final.pdf'))).toBe('report final.pdf');
    expect(fileNameOf('')).toBeNull();
    expect(fileNameOf('Paris')).toBeNull();
  });
});
