// The summary table bench/run.ts writes into bench/README.md: only the block between the markers changes, the
// history stays, a failed benchmark is a row, and a partial run keeps the rows of the benchmarks it skipped.
// No benchmark runs here.
import { describe, expect, it } from 'vitest';
import { benchOfRow, END_MARKER, renderRow, START_MARKER, writeSummary, type Row } from '../bench/summary.ts';

const row = (bench: string, result: string, verdict = 'met'): Row => ({
  bench,
  what: 'something measured',
  goal: 'p95 ≤ 1 s',
  anchor: '—',
  result,
  ratio: '0.50×',
  verdict,
  command: '`node bench/x.ts`',
  date: '2026-11-25 14:10',
  commit: 'abc1234',
  machine: '2 cores, load 1.0 → 2.0, 30 s',
});

const readme = [
  '# Benchmarks',
  '',
  'Intro.',
  '',
  START_MARKER,
  '',
  '| what | goal |',
  '| --- | --- |',
  renderRow(row('old-bench', 'old result')),
  renderRow(row('psychometrics', 'stale result')),
  '',
  END_MARKER,
  '',
  '# History',
  '',
  '## a long entry | with a pipe',
  '',
].join('\n');

describe('writeSummary', () => {
  it('replaces the block between the markers and keeps everything around it', () => {
    const out = writeSummary(readme, [row('psychometrics', 'p95 12 ms')]);
    expect(out.startsWith('# Benchmarks\n\nIntro.\n\n' + START_MARKER)).toBe(true);
    expect(out.endsWith(`${END_MARKER}\n\n# History\n\n## a long entry | with a pipe\n`)).toBe(true);
    expect(out.split(START_MARKER)).toHaveLength(2);
    expect(out).toContain('p95 12 ms');
    expect(out).not.toContain('stale result');
  });

  it('keeps the rows of benchmarks that did not run this time', () => {
    const out = writeSummary(readme, [row('psychometrics', 'p95 12 ms')]);
    const rows = out.split('\n').filter((l) => benchOfRow(l));
    expect(rows.map(benchOfRow)).toEqual(['psychometrics', 'old-bench']);
  });

  it('writes a failed benchmark as a row with its reason, pipes escaped', () => {
    const out = writeSummary(
      readme,
      [row('workspace', 'exit 1: no image | engine down', '**failed or could not run**')],
      ['- Long form only: `scale`.'],
    );
    const failed = out.split('\n').find((l) => benchOfRow(l) === 'workspace')!;
    expect(failed).toContain('exit 1: no image \\| engine down');
    expect(failed).toContain('**failed or could not run**');
    expect(failed.split(' | ')).toHaveLength(10);
    expect(out).toContain('- Long form only: `scale`.');
  });

  it('adds the block after the first heading when the README has no markers yet', () => {
    const out = writeSummary('# Benchmarks\n\n# History\n\nold\n', [row('insights', 'p95 1 s')]);
    expect(out.indexOf(START_MARKER)).toBeGreaterThan(out.indexOf('# Benchmarks'));
    expect(out.indexOf(END_MARKER)).toBeLessThan(out.indexOf('# History'));
    expect(out).toContain('# History\n\nold\n');
  });
});
