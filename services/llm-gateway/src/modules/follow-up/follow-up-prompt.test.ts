import { describe, expect, it } from 'vitest';
import { buildAnswersMessage } from './follow-up-prompt.ts';

describe("the follow-up examiner's answers message", () => {
  it('names each further question type in words, and an unknown one by its id', () => {
    const answer = (questionIndex: number, type: string) => ({
      questionIndex,
      title: 'Q',
      text: '',
      type,
      answer: 'x',
    });
    const { content } = buildAnswersMessage(
      [answer(0, 'essay'), answer(1, 'ordering'), answer(2, 'calculated'), answer(3, 'something-new')],
      'n',
    );
    expect(content).toContain('## questionIndex 0: essay (the answer is their essay, possibly in Markdown)');
    expect(content).toContain('## questionIndex 1: ordering (the answer lists the items in their order)');
    expect(content).toContain(
      '## questionIndex 2: calculated (the answer is a number computed from values of their own)',
    );
    expect(content).toContain('## questionIndex 3: something-new');
  });
});
