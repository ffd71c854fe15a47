import { describe, expect, it } from 'vitest';
import { fileAnswer } from './uploads.ts';
import { fileNameOf, formatFileSize } from './file-size.ts';

describe('formatFileSize', () => {
  it('picks the largest unit the size reaches and rounds to one decimal', () => {
    expect(formatFileSize(0, 'en')).toBe('0 bytes');
    expect(formatFileSize(512, 'en')).toBe('512 bytes');
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(10 * 1024 * 1024, 'en')).toBe('10 MB');
  });

  it('formats numbers in the page language', () => {
    expect(formatFileSize(1536, 'es')).toBe('1,5 kB');
  });
});

describe('fileNameOf', () => {
  it('reads the name back from a file answer and nothing from other answers', () => {
    expect(fileNameOf(fileAnswer('report final.pdf'))).toBe('report final.pdf');
    expect(fileNameOf('')).toBeNull();
    expect(fileNameOf('Paris')).toBeNull();
  });
});
