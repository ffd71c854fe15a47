import { RunRepositorySchema, SOURCE_FILES } from '@exam/domain/coding';
import { pack } from 'tar-stream';
import type { RunJob } from '../db/schema.ts';

/**
 * The wire format between the orchestrator and the harness inside a runner container
 * (infra/runners/harness/harness.sh): the bundle goes in as a tar on the container's standard input, and
 * the harness answers with one line per step on its standard output.
 */

/** Bytes the harness keeps of each output (stdout, stderr, compiler output); more marks it truncated. */
export const OUTPUT_MAX = 64 * 1024;

/** Where an agentic task's repository goes in the bundle: the harness copies it into the build folder first. */
export const REPOSITORY_DIR = 'repo';

/**
 * The tar the harness extracts: the source file, each test's stdin and NUL-separated arguments, the SQL setup,
 * and an agentic task's repository under `repo/`. The repository's paths are checked once more here (a job
 * stored by another version, or a row changed by hand, must not write outside `repo/`).
 */
export async function makeBundle(job: RunJob, nonce: string): Promise<Buffer> {
  const files = job.files?.length ? RunRepositorySchema.parse(job.files) : [];
  const tar = pack();
  const chunks: Buffer[] = [];
  tar.on('data', (chunk) => void chunks.push(chunk as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    tar.on('end', resolve);
    tar.on('error', reject);
  });
  const add = (name: string, content: string) => tar.entry({ name, mode: 0o644 }, Buffer.from(content, 'utf8'));
  add('nonce', nonce);
  for (const file of files) add(`${REPOSITORY_DIR}/${file.path}`, file.content);
  add(SOURCE_FILES[job.language], job.code);
  if (job.language === 'sql')
    add('setup.sql', job.setupScript.endsWith('\n') ? job.setupScript : `${job.setupScript}\n`);
  job.tests.forEach((test, i) => {
    const stdin = job.language === 'sql' && test.stdin && !test.stdin.endsWith('\n') ? `${test.stdin}\n` : test.stdin;
    add(`tests/${i}/stdin`, stdin);
    if (test.args.length) add(`tests/${i}/args`, test.args.map((a) => `${a}\0`).join(''));
  });
  tar.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * What the harness reported of one test. `oomKills` and `limitHits` (how often the memory cgroup reached its
 * limit) are undefined when the container cannot see its memory cgroup.
 */
export type TestFrame = {
  index: number;
  status: number;
  ms: number;
  oomKills: number | undefined;
  limitHits: number | undefined;
  truncated: boolean;
  stdout: string;
  stderr: string;
};

export type HarnessReport = {
  compile?: { status: number; output: string };
  tests: Map<number, TestFrame>;
  done: boolean;
};

const decode = (field: string | undefined) =>
  !field || field === '-' ? '' : Buffer.from(field, 'base64').toString('utf8');

/**
 * Parses the harness's lines. Only lines carrying this run's nonce count (it is deleted from the container
 * before the candidate's code starts), and the first report of a test wins.
 */
export function parseHarnessOutput(text: string, nonce: string): HarnessReport {
  const report: HarnessReport = { tests: new Map(), done: false };
  for (const line of text.split('\n')) {
    const parts = line.trim().split(' ');
    if (parts[1] !== nonce) continue;
    if (parts[0] === 'COMPILE' && !report.compile) {
      report.compile = { status: Number(parts[2]), output: decode(parts[3]) };
    } else if (parts[0] === 'TEST' && parts.length >= 9) {
      const index = Number(parts[2]);
      if (!Number.isInteger(index) || report.tests.has(index)) continue;
      report.tests.set(index, {
        index,
        status: Number(parts[3]),
        ms: Number(parts[4]),
        oomKills: parts[5] === '-' ? undefined : Number(parts[5]),
        truncated: parts[6] === '1',
        stdout: decode(parts[7]),
        stderr: decode(parts[8]),
        limitHits: parts[9] === undefined || parts[9] === '-' ? undefined : Number(parts[9]),
      });
    } else if (parts[0] === 'DONE') {
      report.done = true;
    }
  }
  return report;
}
