import { mulberry32 } from '@exam/domain/arrangement';
import { describe, expect, it } from 'vitest';
import { applyPatch, makePatch } from './file-patches.ts';

/** A small seeded generator, so a failing script can be replayed from its seed. */
const random = mulberry32;

// Multi-byte text, astral emoji (surrogate pairs), combining marks, CRLF and a lone CR among plain lines.
const PIECES = [
  'def f(x):',
  '    return x',
  'é',
  'naïve',
  '日本語',
  '👩‍💻',
  '🎉',
  'e\u0301',
  '\r\n',
  '\n',
  '\r',
  ' ',
  '\t',
  '',
  'x',
];

function randomText(next: () => number, lines: number): string {
  let text = '';
  for (let i = 0; i < lines; i++) {
    const parts = 1 + Math.floor(next() * 4);
    for (let j = 0; j < parts; j++) text += PIECES[Math.floor(next() * PIECES.length)];
    if (next() < 0.9) text += next() < 0.1 ? '\r\n' : '\n';
  }
  return text;
}

/** One edit a candidate makes between two looks: lines typed, deleted, replaced, moved, or a paste. */
function edit(next: () => number, text: string): string {
  const lines = text.split(/(?<=\n)/);
  const at = Math.floor(next() * (lines.length + 1));
  const kind = Math.floor(next() * 5);
  if (kind === 0) lines.splice(at, 0, randomText(next, 1 + Math.floor(next() * 3)));
  else if (kind === 1) lines.splice(at, 1 + Math.floor(next() * 3));
  else if (kind === 2) lines.splice(at, 1, randomText(next, 1));
  else if (kind === 3) lines.splice(Math.floor(next() * (lines.length + 1)), 0, ...lines.splice(at, 2));
  else {
    // Inside a line, between any two code units: may split a surrogate pair, which the patch must still carry.
    const joined = lines.join('');
    const cut = Math.floor(next() * (joined.length + 1));
    return joined.slice(0, cut) + randomText(next, 0) + PIECES[Math.floor(next() * PIECES.length)] + joined.slice(cut);
  }
  return lines.join('');
}

describe('file patches', () => {
  it('rebuilds every version exactly over 2,000 random edit scripts with unicode, CRLF and missing final newlines', () => {
    let patched = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      let text = randomText(next, 5 + Math.floor(next() * 40));
      for (let step = 0; step < 5; step++) {
        const changed = edit(next, text);
        const patch = makePatch(text, changed);
        if (patch) {
          patched += 1;
          expect(applyPatch(text, patch), `seed ${seed}, step ${step}`).toBe(changed);
          // What is stored is JSON: the round trip through it must not alter a lone surrogate or a CR.
          expect(applyPatch(text, JSON.parse(JSON.stringify(patch))), `seed ${seed}, step ${step}`).toBe(changed);
        }
        text = changed;
      }
    }
    // Most small edits of a long file are stored as patches, not whole texts.
    expect(patched).toBeGreaterThan(5000);
  });

  it('stores a one-line change to a long file as a patch far smaller than the file', () => {
    const before = Array.from({ length: 200 }, (_, i) => `line ${i} of the candidate's solution`).join('\n') + '\n';
    const after = before.replace('line 120 of', 'line 120 (fixed) of');
    const patch = makePatch(before, after)!;
    expect(applyPatch(before, patch)).toBe(after);
    expect(JSON.stringify(patch).length).toBeLessThan(100);
    expect(patch).toEqual([
      before.indexOf('line 120 of'),
      -"line 120 of the candidate's solution\n".length,
      "line 120 (fixed) of the candidate's solution\n",
    ]);
  });

  it('answers no patch when the whole text is smaller, so the version is stored whole', () => {
    expect(makePatch('a\n', 'b\n')).toBeUndefined();
    expect(makePatch('', 'print(1)\n')).toBeUndefined();
  });

  it('refuses a patch that keeps or deletes more than the previous version holds', () => {
    expect(() => applyPatch('abc', [5])).toThrow(/keeps more/);
    expect(() => applyPatch('abc', [1, -5])).toThrow(/deletes more/);
  });
});
