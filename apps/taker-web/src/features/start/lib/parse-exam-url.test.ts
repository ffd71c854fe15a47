import { describe, expect, it } from 'vitest';
import { findExamId, parseInviteToken } from './parse-exam-url.ts';

describe('findExamId', () => {
  it('returns the id when the URL has an /exam/{id} path', () => {
    expect(findExamId('http://localhost:5174/exam/abc-123')).toBe('abc-123');
  });

  it('ignores the query and hash after the /exam/{id} path', () => {
    expect(findExamId('https://exams.example.com/exam/Q7x9?creator=true#top')).toBe('Q7x9');
  });

  it('returns the id when the URL carries an examId= parameter', () => {
    expect(findExamId('https://exams.example.com/take?lang=en&examId=xyz789')).toBe('xyz789');
  });

  it('accepts a path without a scheme and trims surrounding spaces', () => {
    expect(findExamId('   /exam/ABC123   ')).toBe('ABC123');
  });

  it('decodes percent-encoded ids', () => {
    expect(findExamId('http://h/exam/a%20b')).toBe('a b');
  });

  it('returns undefined when the URL has neither shape', () => {
    expect(findExamId('https://exams.example.com/take/123')).toBeUndefined();
    expect(findExamId('not a url')).toBeUndefined();
    expect(findExamId('http://h/exam/')).toBeUndefined();
  });

  it('returns undefined for an empty input', () => {
    expect(findExamId('   ')).toBeUndefined();
  });
});

describe('parseInviteToken', () => {
  it('reads the token of a pasted invitation link, and nothing from a plain exam link', () => {
    expect(parseInviteToken('https://exam.example/exam/abc?invite=Tok_en-1')).toBe('Tok_en-1');
    expect(parseInviteToken('https://exam.example/exam/abc')).toBeUndefined();
  });
});
