// The summary table bench/run.ts writes at the top of bench/README.md, between two markers. Kept apart from the
// runner so a unit test (summary.test.ts) can check the writing without running any benchmark.

export const START_MARKER = '<!-- bench:summary:start -->';
export const END_MARKER = '<!-- bench:summary:end -->';

/** One line of the table. `bench` is the runner's name for the benchmark, shown first in "what". */
export type Row = {
  bench: string;
  what: string;
  goal: string;
  anchor: string;
  result: string;
  ratio: string;
  verdict: string;
  command: string;
  date: string;
  commit: string;
  machine: string;
};

const HEADER = [
  'what',
  'goal',
  'anchor (same run)',
  'result',
  'ratio',
  'verdict',
  'command',
  'date',
  'commit',
  'machine',
];

/** A cell never breaks the table: pipes are escaped and new lines become spaces. */
const cell = (text: string) => (text === '' ? '—' : text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' '));

export function renderRow(row: Row): string {
  const cells = [
    `\`${row.bench}\`: ${row.what}`,
    row.goal,
    row.anchor,
    row.result,
    row.ratio,
    row.verdict,
    row.command,
    row.date,
    row.commit,
    row.machine,
  ];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** The name of the benchmark a rendered row belongs to, or undefined for a line that is not a row. */
export function benchOfRow(line: string): string | undefined {
  return /^\|\s*`([^`]+)`:/.exec(line)?.[1];
}

/**
 * The README with its summary block replaced: rows of the benchmarks that ran now, then the rows the block
 * already held for benchmarks that did not run this time (a `--only` run keeps the others), then `notes`.
 * Without markers, the block goes right after the first heading and everything else is kept below it.
 */
export function writeSummary(readme: string, rows: Row[], notes: string[] = []): string {
  const ran = new Set(rows.map((r) => r.bench));
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  let before: string;
  let after: string;
  let kept: string[] = [];
  if (start >= 0 && end > start) {
    before = readme.slice(0, start);
    after = readme.slice(end + END_MARKER.length);
    kept = readme
      .slice(start, end)
      .split('\n')
      .filter((line) => {
        const bench = benchOfRow(line);
        return bench !== undefined && !ran.has(bench);
      });
  } else {
    const heading = /^# .*\n/m.exec(readme);
    const cut = heading ? heading.index + heading[0].length : 0;
    before = `${readme.slice(0, cut)}\n`;
    after = `\n\n${readme.slice(cut).replace(/^\n+/, '')}`;
  }
  const table = [
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map(() => '---').join(' | ')} |`,
    ...rows.map(renderRow),
    ...kept,
  ];
  const block = [START_MARKER, '', ...table, ...(notes.length ? ['', ...notes] : []), '', END_MARKER].join('\n');
  return `${before}${block}${after}`;
}
