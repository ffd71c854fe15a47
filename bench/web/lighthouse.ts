// Lighthouse on the candidate's start page and exam page (bench/README.md, "Page weight and Lighthouse"): the
// start page (/taker/start, a first visit) measured first, then the whole stack started
// the way the journeys start it (scripts/start.ts on ports shifted by E2E_PORT_OFFSET, a fresh data directory),
// an exam of one MCQ and one short answer published through the API, a candidate walked through start →
// credentials → briefing in system Chromium, then Lighthouse's mobile profile (simulated throttling: slow 4G,
// 4× CPU slowdown) on a reload of /exam/{id} with an empty HTTP cache. The attempt stays in IndexedDB, so the
// page opens on its first question as a returning candidate's would.
//   node bench/web/lighthouse.ts [--offset 700] [--runs 1] [--chromium /usr/bin/chromium] [--json out.json]
// Builds the web apps first (as `pnpm start` does). Needs nothing else running on the shifted ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';

const { values } = parseArgs({
  options: {
    offset: { type: 'string', default: '700' },
    runs: { type: 'string', default: '1' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    json: { type: 'string' },
  },
});

// The journeys' port layout (apps/e2e/tests/support/env.ts) read after the offset is set.
process.env.E2E_PORT_OFFSET = values.offset;
const { E2E } = await import('../../apps/e2e/tests/support/env.ts');
// The journeys' question factories, so the measured exam is built exactly as apps/e2e builds one.
const { question } = await import('../../apps/e2e/tests/support/api.ts');
const root = resolve(import.meta.dirname, '..', '..');

/** Goals of issue 19 (Lighthouse's own metric definitions). */
const GOALS = { lcpMs: 1500, tbtMs: 100, cls: 0.05 };

function startStack(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], {
    cwd: root,
    env: { ...process.env, ...E2E.stackEnv, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveStarted, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      seen += chunk.toString();
      if (/Exam platform is running/.test(seen)) resolveStarted(child);
    });
    child.once('exit', (code) => reject(new Error(`scripts/start.ts exited (${code}) before the stack was up`)));
  });
}

async function stopStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  // start.ts stops every process it started on SIGTERM.
  child.kill('SIGTERM');
  await exited;
}

async function api<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`${E2E.creatorOrigin}${path}`, {
    method: init.method ?? 'POST',
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: JSON.stringify(init.body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function publishExam(): Promise<string> {
  const { token } = await api<{ token: string }>('/api/auth/register', {
    body: { email: `lighthouse-${Date.now().toString(36)}@bench.test`, password: 'bench-secret-pw' },
  });
  const { exam } = await api<{ exam: { id: string } }>('/api/exams', {
    token,
    body: {
      title: 'Lighthouse bench',
      isDraft: false,
      questions: [
        question.mcq('Capital of France', ['Berlin', 'Paris', 'Rome'], 'Paris'),
        question.shortAnswer('Largest planet', ['Jupiter']),
      ],
    },
  });
  await api(`/api/exams/${exam.id}`, { method: 'PUT', token, body: { isLive: true } });
  return exam.id;
}

async function clickButton(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-aria([name="${name}"][role="button"])`).click();
}

/** start → credentials → briefing → the exam page, as apps/e2e's enterExam does. */
async function enterExam(page: Page, examId: string): Promise<string> {
  const examUrl = `${E2E.takerOrigin}/exam/${examId}`;
  await page.goto(`${E2E.takerOrigin}/taker/start?lang=en`);
  await page.locator('::-p-aria(Exam URL)').fill(examUrl);
  await clickButton(page, 'Continue');
  await page.waitForFunction(() => location.pathname.endsWith('/taker/credentials'));
  await page.locator('::-p-aria(Full Name)').fill('Bench Candidate');
  await page.locator('::-p-aria(Candidate ID)').fill('B-1');
  await clickButton(page, 'Continue');
  await clickButton(page, 'Start Exam');
  await page.waitForSelector('[data-testid="answered-count"]');
  return examUrl;
}

/** Where the main thread's time went (Lighthouse's own breakdown), and the scripts that took most of it. */
type Profile = {
  mainThreadMs: Record<string, number>;
  scripts: { url: string; scriptingMs: number; parseMs: number }[];
};
type Run = { lcpMs: number; tbtMs: number; cls: number; fcpMs: number; jsKb: number; score: number; profile: Profile };

async function measure(page: Page, url: string): Promise<Run> {
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const result = await lighthouse(
    url,
    // Keep IndexedDB (the attempt); the HTTP cache was emptied above, so every script is fetched again.
    { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true },
    undefined,
    page,
  );
  if (!result) throw new Error('Lighthouse returned no result');
  const { audits, categories } = result.lhr;
  const numeric = (id: string) => {
    const value = audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse has no ${id}: ${audits[id]?.errorMessage ?? ''}`);
    return value;
  };
  const scripts = (
    audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
  )?.items?.find((item) => item.resourceType === 'script');
  return {
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    fcpMs: numeric('first-contentful-paint'),
    jsKb: (scripts?.transferSize ?? 0) / 1000,
    score: Math.round((categories.performance?.score ?? 0) * 100),
    profile: profileOf(audits),
  };
}

/** The main-thread breakdown (script evaluation, parse and compile, style and layout, …) and the costliest scripts. */
function profileOf(audits: Record<string, { details?: unknown }>): Profile {
  type Items<T> = { items?: T[] } | undefined;
  const groups = (audits['mainthread-work-breakdown']?.details as Items<{ groupLabel: string; duration: number }>)
    ?.items;
  const bootup = (
    audits['bootup-time']?.details as Items<{ url: string; scripting: number; scriptParseCompile: number }>
  )?.items;
  return {
    mainThreadMs: Object.fromEntries((groups ?? []).map((g) => [g.groupLabel, Math.round(g.duration)])),
    scripts: (bootup ?? [])
      .map((b) => ({
        url: b.url.replace(/^https?:\/\/[^/]+/, ''),
        scriptingMs: Math.round(b.scripting),
        parseMs: Math.round(b.scriptParseCompile),
      }))
      .sort((a, b) => b.scriptingMs - a.scriptingMs)
      .slice(0, 5),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'lighthouse-bench-'));
const load = loadavg()[0]!;
const stack = await startStack(dataDir);
const runs: Run[] = [];
const startRuns: Run[] = [];
try {
  const examId = await publishExam();
  const browser = await puppeteer.launch({
    executablePath: values.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    // The start page as a candidate first opens it: nothing of the app in the HTTP cache.
    for (let i = 0; i < Number(values.runs); i += 1)
      startRuns.push(await measure(page, `${E2E.takerOrigin}/taker/start?lang=en`));
    const url = await enterExam(page, examId);
    for (let i = 0; i < Number(values.runs); i += 1) runs.push(await measure(page, url));
  } finally {
    await browser.close();
  }
} finally {
  await stopStack(stack);
  rmSync(dataDir, { recursive: true, force: true });
}

const median = (pick: (run: Run) => number, of: Run[] = runs) => {
  const sorted = of.map(pick).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const start = {
  lcpMs: median((r) => r.lcpMs, startRuns),
  tbtMs: median((r) => r.tbtMs, startRuns),
  cls: median((r) => r.cls, startRuns),
  fcpMs: median((r) => r.fcpMs, startRuns),
  scriptTransferKb: median((r) => r.jsKb, startRuns),
  performanceScore: median((r) => r.score, startRuns),
};
// The exam page's figures at the top level (as before), the start page's under `start`.
const summary = {
  runs: runs.length,
  lcpMs: median((r) => r.lcpMs),
  tbtMs: median((r) => r.tbtMs),
  cls: median((r) => r.cls),
  fcpMs: median((r) => r.fcpMs),
  scriptTransferKb: median((r) => r.jsKb),
  performanceScore: median((r) => r.score),
  loadAverageAtStart: load,
  met: {
    lcp: median((r) => r.lcpMs) <= GOALS.lcpMs,
    tbt: median((r) => r.tbtMs) <= GOALS.tbtMs,
    cls: median((r) => r.cls) <= GOALS.cls,
  },
  start: {
    ...start,
    met: { lcp: start.lcpMs <= GOALS.lcpMs, tbt: start.tbtMs <= GOALS.tbtMs, cls: start.cls <= GOALS.cls },
  },
};
console.log(JSON.stringify({ goals: GOALS, summary, runs, startRuns }, null, 2));
// The profile of the median run (by LCP) of each page: what a page not meeting its goals spends its time on.
for (const [page, of] of [
  ['start page', startRuns],
  ['exam page', runs],
] as const) {
  const run = [...of].sort((a, b) => a.lcpMs - b.lcpMs)[Math.floor(of.length / 2)];
  if (!run) continue;
  console.log(`\n${page}, median run (LCP ${run.lcpMs.toFixed(0)} ms): main thread`);
  for (const [group, ms] of Object.entries(run.profile.mainThreadMs)) console.log(`  ${group.padEnd(28)} ${ms} ms`);
  console.log('  scripts by evaluation time:');
  for (const s of run.profile.scripts)
    console.log(`    ${s.url.padEnd(48)} ${s.scriptingMs} ms (+${s.parseMs} ms parse)`);
}
if (values.json) writeFileSync(values.json, JSON.stringify({ goals: GOALS, summary, runs, startRuns }, null, 2));
// One machine-readable line for bench/run.ts.
console.log(`BENCH_RESULT ${JSON.stringify(summary)}`);
