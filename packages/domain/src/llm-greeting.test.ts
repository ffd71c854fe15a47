import { describe, expect, it } from 'vitest';
import { greetingOf } from './llm-greeting.ts';

const base = { provider: 'anthropic' as const, startMessage: '', uploadDocuments: false, materialNames: [] };

describe('greetingOf', () => {
  it("uses the creator's welcome message when there is one", () => {
    expect(greetingOf({ ...base, startMessage: '  Welcome to Algebra!  ', uploadDocuments: true })).toBe(
      'Welcome to Algebra!',
    );
  });

  it('says hello naming the provider and no uploads when they are not allowed', () => {
    const greeting = greetingOf(base);
    expect(greeting).toMatch(/^Hello!/);
    expect(greeting).toContain('Anthropic');
    expect(greeting).not.toMatch(/attach/i);
  });

  it('mentions uploads when allowed and the course materials by name', () => {
    const greeting = greetingOf({
      ...base,
      provider: 'openai',
      uploadDocuments: true,
      materialNames: ['week1.pdf', 'notes.txt'],
    });
    expect(greeting).toContain('OpenAI');
    expect(greeting).toContain('attach files');
    expect(greeting).toContain('week1.pdf, notes.txt');
  });
});
