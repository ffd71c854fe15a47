// One code run end to end, one at a time: POST /internal/runs (a one-test run) → the worker's container →
// GET /internal/runs/:id?waitMs answering `done`. Goals (bench/README.md): p50 ≤ 700 ms, p95 ≤ 1.5 s;
// C++ with its compile p95 ≤ 3 s.
//   [BENCH_DATABASE_URL=postgres://…] node bench/runner-latency.ts [--runs 30] [--warmup 3] [--languages python,javascript,cpp] (also java, r, sql)
// Starts (or reuses) the private engine of scripts/docker-test-engine.ts, builds the runner images it
// lacks (scripts/build-runner-images.sh), and runs a real orchestrator process against it.
import { parseArgs } from 'node:util';
import { engineWithImages, enqueue, finished, percentile, startOrchestrator } from './runner-common.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    languages: { type: 'string', default: 'python,javascript,cpp' },
  },
});

/** The same program in each language: the sum of two numbers on standard input. */
const PROGRAMS: Record<string, string> = {
  python: 'a, b = map(int, input().split())\nprint(a + b)\n',
  javascript:
    'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);\nconsole.log(a + b);\n',
  cpp: '#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n',
  java: 'import java.util.Scanner;\npublic class Main {\n  public static void main(String[] args) {\n    Scanner s = new Scanner(System.in);\n    System.out.println(s.nextLong() + s.nextLong());\n  }\n}\n',
  sql: 'select a + b from t;\n',
  r: 'x <- scan(file("stdin"), quiet = TRUE)\ncat(x[1] + x[2], "\\n")\n',
};

const languages = values.languages.split(',');
const engine = await engineWithImages(languages);
const orchestrator = await startOrchestrator({ socketPath: engine.socketPath, concurrency: 2, port: 4940 });
const rows: string[] = [];
const results: Record<string, { runs: number; p50: number; p95: number }> = {};
try {
  for (const language of languages) {
    const times: number[] = [];
    for (let i = 0; i < Number(values.warmup) + Number(values.runs); i++) {
      const started = performance.now();
      const queued = await enqueue(orchestrator.base, {
        purpose: 'check',
        language,
        code: PROGRAMS[language],
        // SQL reads its numbers as the test's own rows on top of the setup script's table.
        tests: [
          {
            id: 't',
            stdin: language === 'sql' ? `insert into t values (${i}, 2);` : `${i} 2`,
            expected: String(i + 2),
          },
        ],
        setupScript: language === 'sql' ? 'create table t (a integer, b integer);' : '',
        limits: { cpuSeconds: 2, memoryMb: 256 },
      });
      const report = await finished(orchestrator.base, queued.runId);
      const ms = performance.now() - started;
      if (report.state !== 'done' || report.verdicts[0]?.outcome !== 'passed')
        throw new Error(`${language} run ${i}: ${JSON.stringify(report)}`);
      if (i >= Number(values.warmup)) times.push(ms);
    }
    rows.push(
      `${language.padEnd(11)} n=${times.length}  p50 ${percentile(times, 50).toFixed(0)} ms  p95 ${percentile(times, 95).toFixed(0)} ms  max ${Math.max(...times).toFixed(0)} ms`,
    );
    console.log(rows.at(-1));
    results[language] = {
      runs: times.length,
      p50: Math.round(percentile(times, 50)),
      p95: Math.round(percentile(times, 95)),
    };
  }
  // One machine-readable line for bench/run.ts.
  console.log(`BENCH_RESULT ${JSON.stringify(results)}`);
} finally {
  await orchestrator.stop();
}
