import { EditorSelection, EditorState, Transaction } from '@uiw/react-codemirror';
import { describe, expect, it } from 'vitest';
import { sequentialChanges } from './code-editor-changes.ts';

const applyInOrder = (text: string, changes: ReturnType<typeof sequentialChanges>) =>
  changes.reduce((doc, c) => doc.slice(0, c.from) + c.insert + doc.slice(c.to), text);

describe('sequentialChanges', () => {
  it('turns a transaction of several changes into replacements that replay one after another', () => {
    const state = EditorState.create({ doc: 'def f(a, b):\n    return a + b\n' });
    const transaction = state.update({
      changes: [
        { from: 4, to: 5, insert: 'add' },
        { from: 6, to: 7, insert: 'left' },
        { from: 9, to: 10, insert: 'right' },
        { from: 25, to: 30, insert: 'left + right' },
      ],
      annotations: Transaction.userEvent.of('input.type'),
    });
    const changes = sequentialChanges(transaction);
    expect(changes).toEqual([
      { from: 4, to: 5, insert: 'add' },
      { from: 8, to: 9, insert: 'left' },
      { from: 14, to: 15, insert: 'right' },
      { from: 34, to: 39, insert: 'left + right' },
    ]);
    expect(applyInOrder(state.doc.toString(), changes)).toBe(transaction.state.doc.toString());
  });

  it('keeps insertions at several cursors (one key typed at each) in document order', () => {
    const state = EditorState.create({
      doc: 'a\nb\nc',
      selection: EditorSelection.create([1, 3, 5].map((at) => EditorSelection.cursor(at))),
      extensions: EditorState.allowMultipleSelections.of(true),
    });
    const transaction = state.update(state.replaceSelection(';'));
    const changes = sequentialChanges(transaction);
    expect(changes).toEqual([
      { from: 1, to: 1, insert: ';' },
      { from: 4, to: 4, insert: ';' },
      { from: 7, to: 7, insert: ';' },
    ]);
    expect(applyInOrder('a\nb\nc', changes)).toBe('a;\nb;\nc;');
  });

  it('gives a deletion spanning lines and an emoji its UTF-16 length', () => {
    const state = EditorState.create({ doc: 'x = "🙂"\ny = 1\n' });
    const transaction = state.update({
      changes: [
        { from: 5, to: 7 },
        { from: 9, to: 15, insert: 'z' },
      ],
    });
    const changes = sequentialChanges(transaction);
    expect(changes).toEqual([
      { from: 5, to: 7, insert: '' },
      { from: 7, to: 13, insert: 'z' },
    ]);
    expect(applyInOrder(state.doc.toString(), changes)).toBe(transaction.state.doc.toString());
  });
});
