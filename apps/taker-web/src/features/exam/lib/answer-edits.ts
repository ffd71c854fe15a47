import {
  applyOperation,
  diffOperation,
  type AnswerOperation,
  type AnswerSource,
} from '@exam/domain/answer-operation-rules';

/**
 * How an answer input describes a change, so the outbox can record it as edit operations
 * (@exam/domain/answer-operations, docs/product.md#proctoring-and-integrity):
 * - `source` alone: the new value replaces the old by their smallest difference (a textarea, whose events only
 *   give the new value; whatever the browser did, the difference replays exactly);
 * - `source` with `whole`: the new value replaces the whole answer (an MCQ pick);
 * - `before` with `changes`: the editor's own changes, applied one after another to `before` (the code editor).
 * A `pasted` source means "a paste or a drop"; the exam room tells which (inside the exam, or an assistant reply)
 * before it reaches the outbox.
 */
export type AnswerChange = { from: number; to: number; insert: string; source: AnswerSource };
export type AnswerEdit = { source: AnswerSource; whole?: boolean } | { before: string; changes: AnswerChange[] };

/**
 * The operations that turn `previous` (what the answer's recorded operations replay to) into `answer`. Text the
 * page set itself (the starter code an editor opened on, a value restored after a reload) is a `restored`
 * operation first, and anything the description does not account for (a change that does not fit, a character
 * the outbox dropped) a `restored` one last, so the operations always replay to the saved answer.
 */
export function operationsOf(previous: string, answer: string, edit: AnswerEdit, at: string): AnswerOperation[] {
  const ops: AnswerOperation[] = [];
  let text = previous;
  const push = (change: { from: number; to: number; insert: string } | null, source: AnswerSource) => {
    if (!change || (change.from === change.to && change.insert === '')) return;
    ops.push({ at, from: change.from, to: change.to, insert: change.insert, source });
    text = applyOperation(text, change);
  };
  if ('changes' in edit) {
    push(diffOperation(text, edit.before), 'restored');
    for (const change of edit.changes) {
      if (change.from > change.to || change.to > text.length) break;
      push(change, change.source);
    }
  } else if (edit.whole) {
    if (previous !== answer) push({ from: 0, to: previous.length, insert: answer }, edit.source);
  } else {
    push(diffOperation(text, answer), edit.source);
  }
  push(diffOperation(text, answer), 'restored');
  return ops;
}

/**
 * The source of a textarea change from its InputEvent's inputType (https://w3c.github.io/input-events/#interface-InputEvent-Attributes):
 * pastes and drops are `pasted` (told apart later), composition and spelling replacements `autocomplete`, and
 * everything else (keys, deletions, undo and redo) `typed`.
 */
export function sourceOfInputType(inputType: string | undefined): AnswerSource {
  if (inputType === 'insertFromPaste' || inputType === 'insertFromDrop' || inputType === 'insertFromPasteAsQuotation')
    return 'pasted';
  if (
    inputType === 'insertCompositionText' ||
    inputType === 'insertFromComposition' ||
    inputType === 'deleteCompositionText' ||
    inputType === 'insertReplacementText'
  )
    return 'autocomplete';
  return 'typed';
}

/**
 * The source of a code editor transaction from its user event (https://codemirror.net/docs/ref/#state.Transaction^userEvent):
 * `input.paste`, `input.drop` and `move.drop` are pastes, `input.complete` and `input.type.compose` (IME) are
 * `autocomplete`, and typing, deleting, undo and redo are `typed`.
 */
export function sourceOfUserEvent(userEvent: string | undefined): AnswerSource {
  const is = (event: string) => userEvent === event || userEvent?.startsWith(`${event}.`) === true;
  if (is('input.paste') || is('input.drop') || is('move.drop')) return 'pasted';
  if (is('input.complete') || is('input.type.compose')) return 'autocomplete';
  return 'typed';
}

/** The code editor's update as an AnswerEdit: each transaction's changes with the source of its user event. */
export function editOfCode(edit: {
  before: string;
  steps: Array<{ changes: Array<{ from: number; to: number; insert: string }>; userEvent: string | undefined }>;
}): AnswerEdit {
  return {
    before: edit.before,
    changes: edit.steps.flatMap((step) => {
      const source = sourceOfUserEvent(step.userEvent);
      return step.changes.map((change) => ({ ...change, source }));
    }),
  };
}

/** The edit with its pastes told apart: `pasted` becomes what `pasteSource` says the last paste or drop was. */
export function resolvePastes(edit: AnswerEdit, pasteSource: () => AnswerSource): AnswerEdit {
  if ('changes' in edit) {
    if (!edit.changes.some((change) => change.source === 'pasted')) return edit;
    const source = pasteSource();
    return {
      ...edit,
      changes: edit.changes.map((change) => (change.source === 'pasted' ? { ...change, source } : change)),
    };
  }
  return edit.source === 'pasted' ? { ...edit, source: pasteSource() } : edit;
}
