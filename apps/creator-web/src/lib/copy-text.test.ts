import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyText } from './copy-text.ts';

describe('copyText', () => {
  afterEach(() => vi.restoreAllMocks());

  it('falls back to a hidden text area when the Clipboard API refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) },
    });
    let copied = '';
    document.execCommand = vi.fn(() => {
      copied = document.querySelector('textarea')?.value ?? '';
      return true;
    });
    await expect(copyText('http://taker.test/exam/1')).resolves.toBe(true);
    expect(copied).toBe('http://taker.test/exam/1');
    expect(document.querySelector('textarea')).toBeNull();
  });

  it('reports failure when neither way works', async () => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
    document.execCommand = vi.fn(() => false);
    await expect(copyText('x')).resolves.toBe(false);
  });
});
