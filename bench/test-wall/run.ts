// Wall time of `pnpm test` from a fresh clone (issue 39 goal 6: under 25 minutes on this box).
// Clones the checkout's HEAD into a temporary directory, installs from the local store (`--offline`, as a machine
// that has run `pnpm install` once), then runs the root package.json's "test" chain one step at a time, timing each.
// Unlike the chain, a failed step does not stop the next: the report says which failed, and the total is only
// called a pass when every step passed.
//
//   node bench/test-wall/run.ts [--keep] [--steps-from <n>]
// --keep leaves the clone (its path is printed) for reading the step logs; --steps-from skips the first n-1 steps
// (when re-timing the later ones). Steps' output goes to <clone>/.test-wall/<n>-<name>.log.
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: args } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    'steps-from': { type: 'string', default: '1' },
  },
});

type Step = { name: string; command: string; seconds: number; exitCode: number; loadBefore: number; loadAfter: number };

/** The "test" script split at its `&&`s: the steps a user's `pnpm test` runs, in order. */
function chainSteps(testScript: string): { name: string; command: string }[] {
  return testScript
    .split('&&')
    .map((command) => command.trim())
    .filter(Boolean)
    .map((command) => ({ name: stepName(command), command }));
}

function stepName(command: string): string {
  const words = command.split(/\s+/);
  if (words[0] === 'pnpm' && words[1] === '--filter') return `${words[2]} ${words.slice(3).join(' ')}`;
  if (words[0] === 'pnpm') return words.slice(1).join(' ');
  if (words[0] === 'node') return words[1]!.replace(/^scripts\//, '');
  return words.slice(0, 3).join(' ');
}

function run(command: string, cwd: string, logFile: string): Promise<number> {
  return new Promise((resolveExit) => {
    const log = createWriteStream(logFile);
    // node_modules/.bin first, as pnpm puts it for a script.
    const env = { ...process.env, PATH: `${join(cwd, 'node_modules', '.bin')}:${process.env.PATH}` };
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('close', (code) => {
      log.end();
      resolveExit(code ?? 1);
    });
  });
}

const clone = mkdtempSync(join(tmpdir(), 'exam-test-wall-'));
const logs = join(clone, '.test-wall');
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`cloning ${commit} into ${clone}`);
execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
mkdirSync(logs);

const testScript = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: { test: string } })
  .scripts.test;
const steps = [{ name: 'install', command: 'pnpm install --offline --frozen-lockfile' }, ...chainSteps(testScript)];
const from = Number(args['steps-from']);
const done: Step[] = [];
const startedAll = Date.now();
for (const [index, step] of steps.entries()) {
  if (index + 1 < from && step.name !== 'install') continue;
  const loadBefore = loadavg()[0]!;
  const started = Date.now();
  const logFile = join(logs, `${index + 1}-${step.name.replace(/[^a-z0-9]+/gi, '-')}.log`);
  process.stdout.write(`${String(index + 1).padStart(2)}. ${step.name} … `);
  const exitCode = await run(step.command, clone, logFile);
  const seconds = Math.round((Date.now() - started) / 1000);
  done.push({ ...step, seconds, exitCode, loadBefore, loadAfter: loadavg()[0]! });
  console.log(`${exitCode === 0 ? 'passed' : `FAILED (exit ${exitCode}, ${logFile})`} in ${seconds} s`);
}
const totalSeconds = Math.round((Date.now() - startedAll) / 1000);
// The install is the machine's preparation (CI's .ci/run does it before `pnpm test`), not part of the chain.
const chainSeconds = done.filter((s) => s.name !== 'install').reduce((sum, s) => sum + s.seconds, 0);
const failed = done.filter((s) => s.exitCode !== 0).map((s) => s.name);
console.log(
  `\n\`pnpm test\`'s steps: ${chainSeconds} s (${(chainSeconds / 60).toFixed(1)} min); failed: ${failed.join(', ') || 'none'}`,
);
// A failed step's log is worth reading: the clone stays then, as with --keep.
if (args.keep || failed.length) console.log(`logs kept in ${logs}`);
else rmSync(clone, { recursive: true, force: true });
console.log(
  `BENCH_RESULT ${JSON.stringify({ commit, chainSeconds, totalSeconds, failed, wholeChain: from === 1, steps: done })}`,
);
