import { describe, expect, it } from 'vitest';
import { tokenize } from './code-tokens.ts';
import {
  codeBlocksOf,
  compareFingerprints,
  fingerprint,
  kgramHashes,
  starterFingerprints,
  winnow,
} from './similarity.ts';

const original = `
def mean_of_positive(values):
    total = 0
    count = 0
    for v in values:
        if v > 0:
            total += v
            count += 1
    if count == 0:
        return None
    return total / count
`;

/** The same program with every name changed, comments added and the layout redone. */
const disguised = `
# average of the positive numbers
def avg_pos( xs ) :
    s = 0 ; n = 0   # running sums
    for x in xs :
        if x > 0 :
            s += x
            n += 1
    # nothing positive
    if n == 0 : return None
    return s / n
`;

const unrelated = `
def is_palindrome(text):
    cleaned = [c.lower() for c in text if c.isalnum()]
    left, right = 0, len(cleaned) - 1
    while left < right:
        if cleaned[left] != cleaned[right]:
            return False
        left, right = left + 1, right - 1
    return True
`;

describe('tokenize', () => {
  it('drops comments and layout and maps names, numbers and strings to classes', () => {
    expect(tokenize('total = count + 1.5  # add\nprint("hi")', 'python')).toEqual([
      'I',
      '=',
      'I',
      '+',
      'N',
      'I',
      '(',
      'S',
      ')',
    ]);
  });

  it('keeps keywords and multi-character operators per language', () => {
    expect(tokenize('if (a === b) { return x >>= 2; } /* c */ // d', 'javascript')).toEqual([
      'if',
      '(',
      'I',
      '===',
      'I',
      ')',
      '{',
      'return',
      'I',
      '>>=',
      'N',
      '}',
    ]);
    expect(tokenize('SELECT name FROM "users" -- all\nWHERE id = 3', 'sql')).toEqual([
      'select',
      'I',
      'from',
      'I',
      'where',
      'I',
      '=',
      'N',
    ]);
    expect(tokenize('x <- my.data %in% c(1, 2)', 'r')).toEqual(['I', '<-', 'I', '%in%', 'I', '(', 'N', ',', 'N', ')']);
  });

  it('reads Python string prefixes and triple quotes as one string', () => {
    expect(tokenize('x = f"{a}" + """doc\nmore"""', 'python')).toEqual(['I', '=', 'S', '+', 'S']);
  });
});

describe('winnow', () => {
  it('keeps the rightmost minimum of every window once', () => {
    // Windows of 4 over [5 3 3 7 8 1 4]: [5 3 3 7]→3 at 2, [3 3 7 8]→3 at 2, [3 7 8 1]→1, [7 8 1 4]→1.
    expect([...winnow([5, 3, 3, 7, 8, 1, 4], 4)]).toEqual([3, 1]);
  });

  it('makes one window of fewer hashes than a window', () => {
    expect([...winnow([9, 2, 6], 4)]).toEqual([2]);
    expect(winnow([], 4).size).toBe(0);
  });

  it('catches any shared run of at least w + k − 1 tokens', () => {
    const shared = 'for I in I ( I ) :'.split(' ');
    const a = kgramHashes(['x', 'y', ...shared, 'z']);
    const b = kgramHashes(['p', 'q', 'r', ...shared]);
    const common = [...winnow(a)].filter((h) => winnow(b).has(h));
    expect(common.length).toBeGreaterThan(0);
  });
});

describe('compareFingerprints', () => {
  it('finds a renamed, reformatted and commented copy highly similar', () => {
    const result = compareFingerprints(fingerprint(original, 'python'), fingerprint(disguised, 'python'));
    expect(result.similarity).toBeGreaterThanOrEqual(0.9);
    expect(result.aMatched).toBeGreaterThanOrEqual(0.8);
    expect(result.bMatched).toBeGreaterThanOrEqual(0.8);
  });

  it('finds unrelated solutions to be far apart', () => {
    const result = compareFingerprints(fingerprint(original, 'python'), fingerprint(unrelated, 'python'));
    expect(result.similarity).toBeLessThan(0.3);
  });

  it('does not flag two answers that are only the starter code', () => {
    const starterCode = 'def mean_of_positive(values):\n    # your code here\n    return 0\n';
    const starter = starterFingerprints(starterCode, 'python');
    const a = fingerprint(starterCode, 'python', starter);
    const b = fingerprint(starterCode.replace('values', 'xs'), 'python', starter);
    expect(a.isComparable).toBe(false);
    expect(compareFingerprints(a, b).similarity).toBe(0);
  });

  it('ignores what answers share with the starter code and compares the rest', () => {
    const starterCode = 'import sys\n\ndef main():\n    data = sys.stdin.read().split()\n    print(solve(data))\n';
    const starter = starterFingerprints(starterCode, 'python');
    const withStarter = (body: string) => fingerprint(`${starterCode}\n${body}`, 'python', starter);
    const starterKept = (body: string) => fingerprint(`${starterCode}\n${body}`, 'python');
    const bothWithStarter = compareFingerprints(withStarter(original), withStarter(unrelated));
    expect(bothWithStarter.similarity).toBeLessThan(0.3);
    expect(compareFingerprints(starterKept(original), starterKept(unrelated)).similarity).toBeGreaterThan(
      bothWithStarter.similarity,
    );
    expect(compareFingerprints(withStarter(original), withStarter(disguised)).similarity).toBeGreaterThanOrEqual(0.9);
  });

  it('leaves answers shorter than ten tokens out', () => {
    const a = fingerprint('return a + b', 'python');
    expect(a.isComparable).toBe(false);
    expect(compareFingerprints(a, fingerprint('return a + b', 'python')).similarity).toBe(0);
  });

  it('gives the same fingerprints and figures on every run', () => {
    const first = fingerprint(original, 'python');
    const second = fingerprint(original, 'python');
    expect([...first.hashes]).toEqual([...second.hashes]);
    expect(compareFingerprints(first, fingerprint(disguised, 'python'))).toEqual(
      compareFingerprints(second, fingerprint(disguised, 'python')),
    );
  });

  it('works the same way for a C-family language', () => {
    const java = `int sum(int[] xs) { int s = 0; for (int i = 0; i < xs.length; i++) { s += xs[i]; } return s; }`;
    const renamed = `// sums\nint total(int[] values) {\n  int acc = 0;\n  for (int k = 0; k < values.length; k++) {\n    acc += values[k]; /* add */\n  }\n  return acc;\n}`;
    expect(compareFingerprints(fingerprint(java, 'java'), fingerprint(renamed, 'java')).similarity).toBe(1);
  });
});

describe('codeBlocksOf', () => {
  it('takes the fenced blocks of a reply, or the whole reply without any', () => {
    expect(codeBlocksOf('Try this:\n```python\nprint(1)\n```\nand\n```\nx = 2\n```')).toEqual([
      'print(1)\n',
      'x = 2\n',
    ]);
    expect(codeBlocksOf('print(1)')).toEqual(['print(1)']);
  });
});
