import { replay, replayWithSources } from '@exam/domain/answer-operations';
import { describe, expect, it } from 'vitest';
import {
  editOfCode,
  operationsOf,
  resolvePastes,
  sourceOfInputType,
  sourceOfUserEvent,
  type AnswerEdit,
} from './answer-edits.ts';

const AT = '2030-01-01T10:00:00.000Z';

describe('operationsOf', () => {
  it('records a textarea change as the smallest replacement, with its source', () => {
    expect(operationsOf('Paris is big', 'Paris is very big', { source: 'typed' }, AT)).toEqual([
      { at: AT, from: 9, to: 9, insert: 'very ', source: 'typed' },
    ]);
  });

  it('records an MCQ pick as one operation replacing the whole answer, and nothing when the pick is unchanged', () => {
    const pick: AnswerEdit = { source: 'typed', whole: true };
    expect(operationsOf('Mars', 'Venus', pick, AT)).toEqual([
      { at: AT, from: 0, to: 4, insert: 'Venus', source: 'typed' },
    ]);
    expect(operationsOf('Mars', 'Mars', pick, AT)).toEqual([]);
  });

  it("records the starter code the editor opened on as restored text before the candidate's first edit", () => {
    const starter = 'def solve():\n    pass\n';
    const edit = {
      before: starter,
      changes: [{ from: 17, to: 21, insert: 'return 42', source: 'typed' as const }],
    };
    const ops = operationsOf('', 'def solve():\n    return 42\n', edit, AT);
    expect(ops.map((op) => [op.source, op.from, op.to, op.insert])).toEqual([
      ['restored', 0, 0, starter],
      ['typed', 17, 21, 'return 42'],
    ]);
    expect(replay(ops)).toBe('def solve():\n    return 42\n');
  });

  it("applies an editor update's changes one after another, each with its own source", () => {
    const edit = {
      before: 'ab',
      changes: [
        { from: 0, to: 0, insert: 'x', source: 'typed' as const },
        { from: 2, to: 3, insert: 'YY', source: 'assistant' as const },
      ],
    };
    const ops = operationsOf('', 'xaYY', edit, AT);
    expect(replayWithSources(ops)).toEqual({
      text: 'xaYY',
      runs: [
        [1, 'typed'],
        [1, 'restored'],
        [2, 'assistant'],
      ],
    });
  });

  it('closes any gap to the saved answer with a restored operation (a change that does not fit, a dropped NUL)', () => {
    const edit = { before: 'abc', changes: [{ from: 5, to: 9, insert: 'zz', source: 'typed' as const }] };
    const ops = operationsOf('abc', 'abcdef', edit, AT);
    expect(ops).toEqual([{ at: AT, from: 3, to: 3, insert: 'def', source: 'restored' }]);
    // The editor inserted a NUL the outbox dropped from the saved answer.
    const nul = { before: 'ab', changes: [{ from: 2, to: 2, insert: '\u0000c', source: 'typed' as const }] };
    const dropped = operationsOf('ab', 'abc', nul, AT);
    expect(dropped.map((op) => op.source)).toEqual(['typed', 'restored']);
    expect(replay(dropped, 'ab')).toBe('abc');
  });

  it('keeps a surrogate pair whole when an emoji is typed next to another', () => {
    const ops = operationsOf('a😀', 'a😀😁', { source: 'typed' }, AT);
    expect(ops).toEqual([{ at: AT, from: 3, to: 3, insert: '😁', source: 'typed' }]);
  });
});

describe('sources', () => {
  it.each([
    ['insertText', 'typed'],
    ['insertLineBreak', 'typed'],
    ['deleteContentBackward', 'typed'],
    ['deleteWordBackward', 'typed'],
    ['historyUndo', 'typed'],
    ['historyRedo', 'typed'],
    ['insertFromPaste', 'pasted'],
    ['insertFromDrop', 'pasted'],
    ['insertCompositionText', 'autocomplete'],
    ['insertFromComposition', 'autocomplete'],
    ['deleteCompositionText', 'autocomplete'],
    ['insertReplacementText', 'autocomplete'],
    [undefined, 'typed'],
  ])('a textarea input of type %s is %s', (inputType, source) => {
    expect(sourceOfInputType(inputType)).toBe(source);
  });

  it.each([
    ['input.type', 'typed'],
    ['input', 'typed'],
    ['delete.backward', 'typed'],
    ['delete.selection', 'typed'],
    ['undo', 'typed'],
    ['redo', 'typed'],
    ['input.paste', 'pasted'],
    ['input.drop', 'pasted'],
    ['move.drop', 'pasted'],
    ['input.complete', 'autocomplete'],
    ['input.type.compose', 'autocomplete'],
    ['input.type.compose.start', 'autocomplete'],
    ['input.typed', 'typed'],
    [undefined, 'typed'],
  ])('a code editor transaction with user event %s is %s', (userEvent, source) => {
    expect(sourceOfUserEvent(userEvent)).toBe(source);
  });

  it("gives each change of a code editor update its transaction's source", () => {
    const edit = editOfCode({
      before: '',
      steps: [
        { changes: [{ from: 0, to: 0, insert: 'x' }], userEvent: 'input.type' },
        { changes: [{ from: 1, to: 1, insert: 'print()' }], userEvent: 'input.paste' },
      ],
    });
    expect(edit).toEqual({
      before: '',
      changes: [
        { from: 0, to: 0, insert: 'x', source: 'typed' },
        { from: 1, to: 1, insert: 'print()', source: 'pasted' },
      ],
    });
  });

  it('tells pastes apart by what the paste guard says, leaving other sources alone', () => {
    const fromAssistant = () => 'assistant' as const;
    expect(resolvePastes({ source: 'pasted' }, fromAssistant)).toEqual({ source: 'assistant' });
    expect(resolvePastes({ source: 'typed' }, fromAssistant)).toEqual({ source: 'typed' });
    const code = resolvePastes(
      {
        before: '',
        changes: [
          { from: 0, to: 0, insert: 'a', source: 'typed' },
          { from: 1, to: 1, insert: 'b', source: 'pasted' },
        ],
      },
      fromAssistant,
    );
    expect('changes' in code && code.changes.map((change) => change.source)).toEqual(['typed', 'assistant']);
  });
});
