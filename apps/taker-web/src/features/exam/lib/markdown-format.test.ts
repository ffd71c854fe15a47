import { describe, expect, it } from 'vitest';
import { applyFormat } from './markdown-format.ts';

describe('applyFormat', () => {
  it('wraps the selection in bold or italic markers and keeps it selected', () => {
    expect(applyFormat('a word here', { start: 2, end: 6 }, 'bold')).toEqual({
      value: 'a **word** here',
      selection: { start: 4, end: 8 },
    });
    expect(applyFormat('a word', { start: 2, end: 6 }, 'italic').value).toBe('a _word_');
  });

  it('puts the caret between empty markers', () => {
    expect(applyFormat('ab', { start: 1, end: 1 }, 'bold')).toEqual({
      value: 'a****b',
      selection: { start: 3, end: 3 },
    });
  });

  it('makes every touched line a list item, and takes the markers off a list', () => {
    const listed = applyFormat('one\ntwo\nthree', { start: 1, end: 5 }, 'list');
    expect(listed.value).toBe('- one\n- two\nthree');
    expect(applyFormat(listed.value, listed.selection, 'list').value).toBe('one\ntwo\nthree');
  });

  it('writes inline code within a line and a fenced block on lines of their own for several lines', () => {
    expect(applyFormat('call f()', { start: 5, end: 8 }, 'code').value).toBe('call `f()`');
    expect(applyFormat('see x = 1\ny = 2', { start: 4, end: 15 }, 'code').value).toBe('see \n```\nx = 1\ny = 2\n```');
  });
});
