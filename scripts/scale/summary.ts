import { rate, type ScenarioReport, type WindowName, type WindowStats } from './scenario.ts';

const pct = (part: number, whole: number) => `${(rate(part, whole) * 100).toFixed(2)}%`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function row(cells: string[], widths: number[]) {
  return `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [
    row(header, widths),
    row(
      widths.map((w) => '-'.repeat(w)),
      widths,
    ),
    ...rows.map((r) => row(r, widths)),
  ].join('\n');
}

const statCells = (s: WindowStats) => [
  String(s.operations),
  `${s.firstTryFailures} (${pct(s.firstTryFailures, s.operations)})`,
  String(s.inFlightAtKill),
  `${s.clientFailures} (${pct(s.clientFailures, s.operations)})`,
];

/** The run as Markdown tables: the timeline, requests per window and kind, the database checks, the verdict. */
export function formatReport(report: ScenarioReport): string {
  const t = report.timeline;
  const windows: WindowName[] = ['before', 'fault', 'after'];
  const windowLength: Record<WindowName, number> = {
    before: t.killedAt - t.startedAt,
    fault: t.backAt - t.killedAt,
    after: t.endedAt - t.backAt,
  };
  const header = [
    'window',
    'kind',
    'requests',
    'failed first try',
    'of them in flight at the kill',
    'failed after retries',
  ];
  const rows: string[][] = [];
  for (const w of windows) {
    rows.push([`${w} (${seconds(windowLength[w])})`, 'all', ...statCells(report.windows[w])]);
    for (const [kind, byWindow] of Object.entries(report.byKind))
      if (byWindow[w].operations) rows.push(['', kind, ...statCells(byWindow[w])]);
  }
  const db = report.database;
  const checks = [
    ['acknowledged saves', String(db.acknowledgedSaves), `${db.lostAnswers.length} lost`],
    ['submissions', String(db.submissions), `${db.submissionProblems.length + db.unsubmitted.length} problems`],
    ['chats', String(db.chats), `${db.chatProblems.length} not completed or not stored whole`],
    [
      'chat messages stored once',
      String(db.chats - db.duplicatedChats.length),
      `${db.duplicatedChats.length} duplicated`,
    ],
  ];
  const proxy = Object.entries(report.proxy)
    .filter(([, c]) => c.retries || c.redispatches)
    .map(([backend, c]) => `${backend} ${c.retries} retries / ${c.redispatches} redispatched`)
    .join('; ');
  const lines = [
    `${report.options.candidates} candidates; SIGKILL at ${seconds(t.killedAt - t.startedAt)}, restart at ${seconds(
      t.restartedAt - t.startedAt,
    )}, back in the rotation at ${seconds(t.backAt - t.startedAt)}, end at ${seconds(t.endedAt - t.startedAt)}`,
    '',
    table(header, rows),
    '',
    table(['check (PostgreSQL)', 'count', 'result'], checks),
    '',
    `haproxy: ${proxy || 'no retries'}`,
  ];
  if (report.failures.length) {
    lines.push('', 'failed tries:');
    for (const f of report.failures.slice(0, 12)) lines.push(`  ${f.count} × [${f.window}] ${f.kind}: ${f.outcome}`);
  }
  lines.push('', report.violations.length ? `FAIL\n  ${report.violations.join('\n  ')}` : 'PASS: every condition met');
  return lines.join('\n');
}
