import { diffLines } from 'diff';

/**
 * A change from one version of a workspace file to the next, as an edit script over the previous text: a
 * positive number keeps that many UTF-16 code units, a negative one deletes that many, a string is inserted.
 * Applying it is a walk over the previous text, so it reproduces the next version exactly or fails loudly.
 */
export type FilePatch = Array<number | string>;

/**
 * jsdiff's line diff (Myers' O(ND) algorithm) gives up past this many edited lines: two texts that different are
 * cheaper stored whole, and the search stays bounded on a large file rewritten at once.
 */
const MAX_EDIT_LINES = 2000;

/**
 * The patch from `previous` to `next`, or undefined when storing `next` whole is no larger (or the diff gave
 * up). Lines are the unit of comparison, code units the unit of the script, so a line ending changed from
 * `\n` to `\r\n` or a line without one at the end of the file needs no special case.
 */
export function makePatch(previous: string, next: string): FilePatch | undefined {
  const changes = diffLines(previous, next, { maxEditLength: MAX_EDIT_LINES });
  if (!changes) return undefined;
  const patch: FilePatch = [];
  const push = (op: number | string) => {
    const last = patch[patch.length - 1];
    if (typeof op === 'string' && typeof last === 'string') patch[patch.length - 1] = last + op;
    else if (typeof op === 'number' && typeof last === 'number' && Math.sign(op) === Math.sign(last))
      patch[patch.length - 1] = last + op;
    else patch.push(op);
  };
  for (const change of changes) {
    if (!change.value) continue;
    if (change.added) push(change.value);
    else push(change.removed ? -change.value.length : change.value.length);
  }
  // A trailing keep says nothing applyPatch cannot infer from the previous text's length.
  if (typeof patch[patch.length - 1] === 'number' && (patch[patch.length - 1] as number) > 0) patch.pop();
  if (JSON.stringify(patch).length >= next.length) return undefined;
  // The script is checked against the text it must produce; a mismatch (a bug, never expected) stores it whole.
  return applyPatch(previous, patch) === next ? patch : undefined;
}

/** The next version of a file from its previous one and the patch made between them; throws on a patch that does not fit. */
export function applyPatch(previous: string, patch: FilePatch): string {
  let out = '';
  let at = 0;
  for (const op of patch) {
    if (typeof op === 'string') {
      out += op;
    } else if (op > 0) {
      if (at + op > previous.length) throw new Error('the patch keeps more text than the previous version has');
      out += previous.slice(at, at + op);
      at += op;
    } else {
      if (at - op > previous.length) throw new Error('the patch deletes more text than the previous version has');
      at -= op;
    }
  }
  return out + previous.slice(at);
}
