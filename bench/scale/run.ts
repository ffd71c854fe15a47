// The long scale run: 200 simulated candidates through two replicas of every service behind haproxy, one
// results-service and one llm-gateway replica SIGKILLed and restarted in the middle (bench/README.md, "Scale").
//   node bench/scale/run.ts [--candidates 200] [--before 20] [--down 5] [--after 20] [--base-port 7300]
import { parseArgs } from 'node:util';
import { runScenario } from '../../scripts/scale/scenario.ts';
import { formatReport } from '../../scripts/scale/summary.ts';

const { values } = parseArgs({
  options: {
    candidates: { type: 'string', default: '200' },
    before: { type: 'string', default: '20' },
    down: { type: 'string', default: '5' },
    after: { type: 'string', default: '20' },
    'save-every': { type: 'string', default: '1500' },
    'chat-every': { type: 'string', default: '8000' },
    'reply-delay': { type: 'string', default: '150' },
    'base-port': { type: 'string', default: '7300' },
  },
});

const report = await runScenario({
  adminDatabaseUrl:
    process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test',
  ...((process.env.REDIS_URL ?? process.env.TEST_REDIS_URL)
    ? { redisUrl: (process.env.REDIS_URL ?? process.env.TEST_REDIS_URL)! }
    : {}),
  basePort: Number(values['base-port']),
  candidates: Number(values.candidates),
  beforeFaultMs: Number(values.before) * 1000,
  downMs: Number(values.down) * 1000,
  afterMs: Number(values.after) * 1000,
  saveEveryMs: Number(values['save-every']),
  chatEveryMs: Number(values['chat-every']),
  replyDelayMs: Number(values['reply-delay']),
});
console.log(formatReport(report));
process.exit(report.violations.length ? 1 : 0);
