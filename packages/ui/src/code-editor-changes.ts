import { Transaction, type ViewUpdate } from '@uiw/react-codemirror';

/** One replacement: [from, to) of the text it applies to becomes `insert`. */
export type CodeChange = { from: number; to: number; insert: string };

/** One transaction's changes, applied one after another, and its user event ('input.type', 'input.paste', …). */
export type CodeEditStep = { changes: CodeChange[]; userEvent: string | undefined };

/**
 * What one editor update did to the document: the text before it and its transactions in order. Replaying the
 * steps' changes over `before` gives the document after the update, so a page can record each edit with where
 * it came from (the user events CodeMirror names: https://codemirror.net/docs/ref/#state.Transaction^userEvent).
 */
export type CodeEdit = { before: string; steps: CodeEditStep[] };

/**
 * A transaction's changes as replacements applied left to right. CodeMirror gives each change's range in the
 * document before the transaction (fromA, toA) and after it (fromB); once the changes to its left are applied,
 * a change starts at fromB and still spans toA - fromA characters.
 */
export function sequentialChanges(transaction: Transaction): CodeChange[] {
  const changes: CodeChange[] = [];
  transaction.changes.iterChanges((fromA, toA, fromB, _toB, inserted) => {
    changes.push({ from: fromB, to: fromB + (toA - fromA), insert: inserted.toString() });
  });
  return changes;
}

export function codeEditOf(update: ViewUpdate): CodeEdit {
  return {
    before: update.startState.doc.toString(),
    steps: update.transactions
      .filter((transaction) => transaction.docChanged)
      .map((transaction) => ({
        changes: sequentialChanges(transaction),
        userEvent: transaction.annotation(Transaction.userEvent),
      })),
  };
}
