// `pnpm bench`: every benchmark in a short form (about 10 minutes in all on a 2-core box), then the summary table at
// the top of bench/README.md (bench/summary.ts). `pnpm bench --full` runs the long forms the README's history uses;
// `pnpm bench --only psychometrics,insights` runs some (the table keeps the other rows as they were).
// Each script prints one `BENCH_RESULT {json}` line as its last word; this runner reads it and compares it with
// the goals of issues 13, 16, 19, 32, 33, 34 and 35. A benchmark that fails or cannot run here becomes a row saying so.
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeSummary, type Row } from './summary.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    only: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const full = args.full;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Cells = Omit<Row, 'bench' | 'command' | 'date' | 'commit' | 'machine'>;
type Bench = {
  name: string;
  /** Runs the benchmark (through `script`) and turns its results into rows. */
  run: (script: Script) => Promise<Cells[]>;
  /** Long form only: `pnpm bench` lists it under the table with its command instead of running it. */
  longOnly?: string;
};
type Script = (file: string, short: string[], long: string[], timeoutSeconds: number) => Promise<Json>;

const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ms`;
const x = (n: number) => `${n.toFixed(2)}×`;
const met = (ok: boolean) => (ok ? 'met' : '**not met**');
const SHORT = full ? '' : ' (short form)';

const benches: Bench[] = [
  {
    name: 'psychometrics',
    run: async (script) => {
      const r = await script('bench/psychometrics.ts', ['--candidates', '2000', '--runs', '3'], [], 240);
      const t = r.timings as Record<string, Json>;
      const report = t['whole insights report']!;
      return [
        {
          what: `whole insights report in memory, ${r.candidates} × ${r.items} (the insights anchor)`,
          goal: '— (anchor)',
          anchor: '—',
          result: `wall p95 ${ms(report.wallP95)}, CPU p95 ${ms(report.cpuP95)}; classical p95 ${ms(t['classical statistics']!.wallP95)}; Rasch (5% missing) p95 ${ms(t['Rasch fit (5% missing at random)']!.wallP95)}`,
          ratio: '—',
          verdict: '—',
        },
      ];
    },
  },
  {
    name: 'timeline-storage',
    run: async (script) => {
      const r = await script('bench/timeline/storage.ts', [], [], 120);
      const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
      const pg =
        r.jsonbBytesPerHour === undefined
          ? `PostgreSQL not measured (${r.postgres})`
          : `while the attempt runs, whole table ${kb(r.tableBytesPerHour)} (${r.rows} rows, one a save); after its record, ${kb(r.compactedTableBytesPerHour)} (one row, compressed)`;
      return [
        {
          what: `edit operations of one answer, ${r.minutes} min of continuous typing (${r.typist.typedPerMinute} chars/min, revision ratio ${r.typist.revisionRatio}), a save at each 400 ms pause`,
          goal: '≤ 100 KB per hour',
          anchor: `first compact form: ${kb(r.legacyJsonBytesPerHour)} JSON${r.legacyJsonbBytesPerHour ? `, ${kb(r.legacyJsonbBytesPerHour)} jsonb` : ''}`,
          result: `${kb(r.jsonBytesPerHour)} JSON text an hour (${r.operations} operations in ${r.saves} saves); ${pg}`,
          ratio: `${x(r.jsonBytesPerHour / r.goalBytesPerHour)} the goal`,
          // Three figures: the operations' own bytes, the table once the job compacts a recorded attempt's chunks,
          // and the table while the attempt runs (a row per save, its header and key).
          verdict:
            r.tableBytesPerHour === undefined
              ? met(r.met)
              : `${met(r.met)} for the operations' text; on disk ${
                  r.compactedTableBytesPerHour <= r.goalBytesPerHour ? 'met' : '**not met**'
                } once recorded (${kb(r.compactedTableBytesPerHour)}), ${
                  r.tableBytesPerHour <= r.goalBytesPerHour ? 'met' : '**not met**'
                } while the attempt runs (${kb(r.tableBytesPerHour)})`,
        },
      ];
    },
  },
  {
    name: 'insights',
    run: async (script) => {
      const r = await script(
        'bench/insights/run.ts',
        ['--candidates', '2000', '--runs', '2', '--warm', '2'],
        ['--runs', '5', '--warm', '5'],
        300,
      );
      const anchor = r.anchor ? `psychometrics in memory: wall p95 ${ms(r.anchor.wall)}, CPU ${ms(r.anchor.cpu)}` : '—';
      const row = (kind: 'warm' | 'cold', what: string): Cells => ({
        what: `${what}, ${r.candidates} attempts × ${r.items} items${SHORT}`,
        goal: 'p95 ≤ 2 s (10,000 × 50)',
        anchor,
        result: `p95 ${ms(r[kind].wallP95)} wall, ${ms(r[kind].cpuP95)} CPU`,
        ratio: r.anchor ? `${x(r[kind].wallP95 / r.anchor.wall)} the anchor's wall` : '—',
        verdict: `${met(r[kind].wallP95 <= 2000)}${r.candidates < 10000 ? ' at this size' : ''}`,
      });
      return [row('warm', '`GET /api/exams/{id}/insights`, warm (cached)'), row('cold', 'same, cold (after a change)')];
    },
  },
  {
    name: 'results-service',
    run: async (script) => {
      const r = await script(
        'bench/results-service/run.ts',
        [
          '--attempts',
          '1000',
          '--save-seconds',
          '5',
          '--ramp-rates',
          '500,1000,1500,2000:6000:250',
          '--ramp-seconds',
          '2',
        ],
        [],
        300,
      );
      const s = r.saves.service as Json;
      const a = r.saves.anchor as Json | undefined;
      const ramp = r.ramp as Json;
      const sub = r.submissions as Json | undefined;
      const rows: Cells[] = [
        {
          what: `durable answer saves at ${r.saveRate}/s for ${r.saveSeconds} s${SHORT}`,
          goal: '3,000/s, p99 ≤ 50 ms, 0 errors',
          anchor: a ? `bare Fastify + postgres.js upsert: ${a.rps}/s, p99 ${ms(a.p99)}, ${a.errors} errors` : '—',
          result: `${s.rps}/s, p99 ${ms(s.p99)}, ${s.errors} errors (${s.ok} of ${s.requests} applied)`,
          ratio: a ? `${x(s.rps / a.rps)} the anchor's throughput` : '—',
          verdict: met(s.rps >= 0.97 * r.saveRate && s.p99 <= 50 && s.errors === 0),
        },
        {
          what: `save ramp with the timeline's operations (${r.operationsModel ?? 'typing'} model), 250/s steps: highest rate holding p99 ≤ 50 ms, and CPU per save (Node + PostgreSQL)`,
          goal: '≥ 1.3× the anchor at p99 ≤ 50 ms',
          anchor: `bare Fastify + postgres.js, answer upsert + operations append in one statement: ${ramp.anchorSavesPerSecond ?? '—'}/s; ${ramp.anchorCpuMsPerSave ?? '—'} ms CPU per save`,
          result: `${ramp.serviceSavesPerSecond}/s; ${ramp.serviceCpuMsPerSave ?? '—'} ms CPU per save`,
          ratio:
            ramp.ratio === null || ramp.ratio === undefined
              ? `CPU: ${ramp.cpuCapacityRatio ?? '—'}× (anchor / service)`
              : `${x(ramp.ratio)} (CPU: ${ramp.cpuCapacityRatio}× anchor / service)`,
          verdict: ramp.anchorSavesPerSecond
            ? met(ramp.ratio >= 1.3)
            : '**not measured** (the anchor missed the lowest step)',
        },
      ];
      const w = r.saves.serviceWithOps as Json | undefined;
      const ops = r.operations as Json | undefined;
      if (w && ops) {
        // The fixed-rate phase: the same saves with and without the page's operations, back to back.
        const cpuRatio = ramp.serviceWithOpsCpuMsPerSave / ramp.serviceWithoutOpsCpuMsPerSave;
        rows.push({
          what: `durable answer saves carrying edit operations (${r.operationsModel === 'words' ? '5–20 coalesced typed words each' : "a fast typist's chunks, saved at every 400 ms pause"}), ${r.saveRate}/s for ${r.saveSeconds} s${SHORT}`,
          goal: 'within 10% of the saves without operations; every operation stored once',
          anchor: `same saves without operations: ${s.rps}/s, p99 ${ms(s.p99)}; ${ramp.serviceWithoutOpsCpuMsPerSave} ms CPU per save`,
          result: `${w.rps}/s, p99 ${ms(w.p99)}, ${w.errors} errors; ${ramp.serviceWithOpsCpuMsPerSave} ms CPU per save; ${ops.stored} of ${ops.sent} operations stored (${ops.questionsMismatched} questions off), ${ops.bytesPerOperation} bytes each`,
          ratio: `rps ${x(w.rps / s.rps)}, CPU per save ${x(cpuRatio)}`,
          verdict: `${met(
            w.rps >= 0.9 * s.rps && cpuRatio <= 1.1 && ops.stored === ops.sent && ops.questionsMismatched === 0,
          )}${w.p99 > s.p99 * 1.1 ? `; p99 at ${r.saveRate}/s ${ms(s.p99)} → ${ms(w.p99)}` : ''}`,
        });
      }
      if (sub)
        rows.push({
          what: `submissions: ${sub.count} at 1,000/s${SHORT}`,
          goal: '10,000 over 10 s, all acknowledged, p99 ≤ 1 s',
          anchor: '—',
          result: `${sub.ok} of ${sub.count} acknowledged in ${sub.wallSeconds} s, p99 ${ms(sub.p99)}, ${sub.resultRows} result rows${sub.processRecords ? `; every process record computed ${sub.processRecords.secondsAfterLastSubmit} s after the last (${sub.processRecords.computed} records, ${sub.processRecords.stillPending} pending)` : ''}`,
          ratio: '—',
          verdict: met(
            sub.ok === sub.count &&
              sub.resultRows === sub.count &&
              sub.p99 <= 1000 &&
              (!sub.processRecords || sub.processRecords.stillPending === 0),
          ),
        });
      return rows;
    },
  },
  {
    name: 'llm-gateway',
    run: async (script) => {
      // Issue 39: CPU per chat at 300 new chats/s (where the box saturates), added time to first token at 100/s.
      const short = ['--rate', '300', '--seconds', '3', '--streams', '500', '--stream-tokens', '50'];
      const long = ['--rate', '300', '--seconds', '5', '--streams', '2000', '--stream-tokens', '150'];
      const short100 = ['--rate', '100', '--seconds', '5', '--streams', '100', '--stream-tokens', '50'];
      const long100 = ['--rate', '100', '--seconds', '10', '--streams', '100', '--stream-tokens', '50'];
      const gw = await script('bench/llm-gateway/run.ts', short, long, 240);
      const relay = await script('bench/llm-gateway/run.ts', [...short, '--relay'], [...long, '--relay'], 240);
      const gw100 = await script('bench/llm-gateway/run.ts', short100, long100, 240);
      const relay100 = await script('bench/llm-gateway/run.ts', [...short100, '--relay'], [...long100, '--relay'], 240);
      const over = { p50: gw.added.p50 - relay.added.p50, p99: gw.added.p99 - relay.added.p99 };
      const over100 = { p50: gw100.added.p50 - relay100.added.p50, p99: gw100.added.p99 - relay100.added.p99 };
      return [
        {
          what: `added time to first token over a bare relay, ${gw100.rate} new chats/s for ${gw100.seconds} s${SHORT}`,
          goal: 'p99 ≤ the relay + 15 ms',
          anchor: `relay adds p50 ${ms(relay100.added.p50)}, p99 ${ms(relay100.added.p99)} over a direct call`,
          result: `gateway adds p50 ${ms(gw100.added.p50)}, p99 ${ms(gw100.added.p99)}: +${ms(over100.p50)} / +${ms(over100.p99)} over the relay`,
          ratio: `p99 ${x(gw100.added.p99 / Math.max(relay100.added.p99, 0.01))} the relay's`,
          verdict: met(over100.p99 <= 15),
        },
        {
          what: `CPU per chat, ${gw.rate} new chats/s for ${gw.seconds} s${SHORT}`,
          goal: '≤ 1.5× the relay',
          anchor: `relay ${ms(relay.cpuPerChatMs)} (adds TTFT p50 ${ms(relay.added.p50)}, p99 ${ms(relay.added.p99)})`,
          result: `${ms(gw.cpuPerChatMs)} (TTFT +${ms(over.p50)} / +${ms(over.p99)} over the relay: the box saturates)`,
          ratio: x(gw.cpuPerChatMs / relay.cpuPerChatMs),
          verdict: met(gw.cpuPerChatMs <= 1.5 * relay.cpuPerChatMs),
        },
        {
          what: `${gw.streams.count} concurrent ${gw.streams.tokens}-token streams${SHORT}`,
          goal: '2,000 concurrent streams, none dropped',
          anchor: `relay: ${relay.streams.failed} of ${relay.streams.n} failed`,
          result: `${gw.streams.failed} of ${gw.streams.n} failed or truncated`,
          ratio: '—',
          verdict: met(gw.streams.failed === 0),
        },
      ];
    },
  },
  {
    name: 'llm-gateway-grading',
    run: async (script) => {
      const r = await script(
        'bench/llm-gateway/grading.ts',
        ['--rate', '30', '--seconds', '8', '--rounds', '2'],
        ['--rate', '30', '--seconds', '20', '--rounds', '4'],
        240,
      );
      return [
        {
          what: `candidates' chat TTFT p99 while a grading batch runs (${r.workers} suggestion calls × ${r.samples} samples at once, back to back), ${r.rate} new chats/s, ${r.rounds} × ${r.seconds} s each way${SHORT}`,
          goal: 'p99 during ≤ 1.10× alone',
          anchor: `alone: p99 ${ms(r.alone.p99)} (direct to the fake ${ms(r.directAlone.p99)})`,
          result: `during: p99 ${ms(r.during.p99)} (direct ${ms(r.directDuring.p99)}); ${r.grading.calls} grading calls (${r.grading.failed} failed), ${r.grading.perSecond.toFixed(1)}/s; gateway CPU ${ms(r.cpuPerGradingCallMs)} a grading call, ${ms(r.cpuPerChatMs)} a chat`,
          ratio: x(r.ratio),
          verdict: met(r.ratio <= 1.1 && r.during.failed === 0 && r.grading.failed === 0),
        },
      ];
    },
  },
  {
    name: 'llm-gateway-planted',
    run: async (script) => {
      const r = await script(
        'bench/llm-gateway/planted.ts',
        ['--rate', '30', '--seconds', '4', '--rounds', '2'],
        ['--rate', '50', '--seconds', '8', '--rounds', '4'],
        240,
      );
      const off = r.off.cpuPerChatMs as Json;
      const on = r.on.cpuPerChatMs as Json;
      const p = r.planted as Json;
      return [
        {
          what: `gateway work per candidate message with planted errors on (share 0.3) vs off, ${r.rate} new chats/s, ${r.rounds} × ${r.seconds} s each way${SHORT}`,
          goal: 'CPU per chat (gateway + its PostgreSQL) on ≤ 1.10× off',
          anchor: `off: ${ms(off.total)} a chat (gateway ${ms(off.gateway)}, PostgreSQL ${ms(off.database)}); added TTFT p50 ${ms(r.off.added.p50)}`,
          result: `on: ${ms(on.total)} a chat (gateway ${ms(on.gateway)}, PostgreSQL ${ms(on.database)}); added TTFT p50 ${ms(r.on.added.p50)}; ${p.asked} of ${p.replies} replies planted, ${p.verified} verified`,
          ratio: `${x(r.ratio)} (gateway alone ${x(r.gatewayRatio)})`,
          verdict: met(r.ratio <= 1.1 && p.verified > 0 && p.offAsked === 0 && r.on.failed === 0 && r.off.failed === 0),
        },
      ];
    },
  },
  {
    name: 'llm-gateway-audit',
    run: async (script) => {
      const r = await script(
        'bench/llm-gateway/audit-latency.ts',
        ['--rate', '30', '--seconds', '8', '--rounds', '2'],
        ['--rate', '30', '--seconds', '20', '--rounds', '4'],
        240,
      );
      return [
        {
          what: `chat last-byte p99 while a ${r.items}-item assistant audit runs in the gateway (concurrency ${r.concurrency}), ${r.rate} new chats/s, ${r.rounds} × ${r.seconds} s each way${SHORT}`,
          goal: 'p99 during ≤ 1.10× alone',
          anchor: `alone: last byte p99 ${ms(r.alone.p99total)} (TTFT p99 ${ms(r.alone.p99)})`,
          result: `during: last byte p99 ${ms(r.during.p99total)} (TTFT p99 ${ms(r.during.p99)}); audit ${r.audit.attempts} attempts, ${r.audit.calls} calls (${r.audit.callsPerSecond.toFixed(1)}/s); gateway CPU ${ms(r.cpuPerAuditCallMs)} an audit call, ${ms(r.cpuPerChatMs)} a chat`,
          ratio: `${x(r.ratio)} (median of rounds ${x(r.medianRoundRatio)})`,
          verdict: met(r.ratio <= 1.1 && r.during.failed === 0 && r.alone.failed === 0),
        },
      ];
    },
  },
  {
    name: 'llm-gateway-agents',
    run: async (script) => {
      const r = await script(
        'bench/llm-gateway/agents.ts',
        ['--rate', '10', '--seconds', '10', '--sessions', '20', '--calls', '5'],
        ['--rate', '30', '--seconds', '20', '--sessions', '20', '--calls', '10'],
        300,
      );
      const s = r.sessions as Json;
      return [
        {
          what: `workspace agents' Chat Completions calls through the agent endpoint ("stop solutions" on): added time to first token over a bare relay, ${r.rate} new calls/s for ${r.seconds} s${SHORT}`,
          goal: "within the chat path's: p99 ≤ the relay + 15 ms",
          anchor: `relay adds p50 ${ms(r.relayAdded.p50)}, p99 ${ms(r.relayAdded.p99)} over a direct call`,
          result: `gateway adds p50 ${ms(r.added.p50)}, p99 ${ms(r.added.p99)}: +${ms(r.over.p50)} / +${ms(r.over.p99)} over the relay`,
          ratio: `p99 ${x(r.added.p99 / Math.max(r.relayAdded.p99, 0.01))} the relay's`,
          verdict: met(r.over.p99 <= 15 && r.gateway.failed === 0),
        },
        {
          what: `workspace agents' calls: CPU a call, same phase${SHORT}`,
          goal: "within the chat path's: ≤ 1.5× the relay",
          anchor: `relay ${ms(r.relayCpuPerCallMs)} a call`,
          result: `${ms(r.cpuPerCallMs)} a call`,
          ratio: x(r.cpuPerCallMs / r.relayCpuPerCallMs),
          verdict: met(r.cpuPerCallMs <= 1.5 * r.relayCpuPerCallMs),
        },
        {
          what: `${s.count} agent sessions at once, ${s.calls} streamed 150-token calls each${SHORT}`,
          goal: '20 concurrent agent sessions streaming, none dropped; every call stored',
          anchor: '—',
          result: `${s.failed} of ${s.n} failed or truncated; ${s.storedOk} stored ok; ${s.tokensCounted} tokens counted; TTFT p99 ${ms(s.ttftP99)}`,
          ratio: '—',
          verdict: met(s.failed === 0 && s.storedOk === s.n),
        },
      ];
    },
  },
  {
    name: 'runner-latency',
    run: async (script) => {
      const r = await script('bench/runner-latency.ts', ['--runs', '8', '--warmup', '2'], [], 240);
      return Object.entries(r).map(([language, t]: [string, Json]) => {
        const cpp = language === 'cpp';
        return {
          what: `one one-test ${language} run end to end${cpp ? ', compile included' : ''}, ${t.runs} runs`,
          goal: cpp ? 'p95 ≤ 3 s' : 'p50 ≤ 700 ms, p95 ≤ 1.5 s',
          anchor: '—',
          result: `p50 ${ms(t.p50)}, p95 ${ms(t.p95)}`,
          ratio: '—',
          verdict: met(cpp ? t.p95 <= 3000 : t.p50 <= 700 && t.p95 <= 1500),
        };
      });
    },
  },
  {
    name: 'runner-burst',
    run: async (script) => {
      const r = await script('bench/runner-burst.ts', ['--runs', '30'], [], 240);
      return [
        {
          what: `${r.runs} runs × ${r.tests} tests queued at once${SHORT}`,
          goal: '100 × 5 drained ≤ 2 min, ≤ RUNNER_CONCURRENCY containers, none lost',
          anchor: '—',
          result: `drained in ${r.drainedSeconds} s; ${r.done} of ${r.runs} done (${r.passed} all passed); at most ${r.maxContainers} containers (limit ${r.concurrency})`,
          ratio: '—',
          verdict: met(r.drainedSeconds <= 120 && r.done === r.runs && r.maxContainers <= r.concurrency),
        },
      ];
    },
  },
  {
    name: 'coding-deadline',
    run: async (script) => {
      const r = await script('bench/coding-deadline.ts', ['--submissions', '30'], [], 300);
      const b = r.burst as Json;
      return [
        {
          what: `deadline burst of ${b.submissions} coding submissions × 5 tests, saves alongside${SHORT}`,
          goal: '100 graded ≤ 2 min, none lost, ≤ RUNNER_CONCURRENCY containers, saves p99 ≤ 100 ms',
          anchor: `saves without the burst: p99 ${ms(r.savesAnchor.p99)}`,
          result: `${b.resultsGraded} of ${b.submissions} graded in ${b.drainedSeconds} s; at most ${b.maxRunnerContainers} containers (limit ${b.runnerConcurrency}); saves p99 ${ms(r.savesDuring.p99)}, ${r.savesDuring.errors} errors`,
          ratio: `saves p99 ${x(r.savesDuring.p99 / r.savesAnchor.p99)}`,
          verdict: met(
            b.resultsGraded === b.submissions &&
              b.drainedSeconds <= 120 &&
              b.maxRunnerContainers <= b.runnerConcurrency &&
              r.savesDuring.p99 <= 100,
          ),
        },
      ];
    },
  },
  {
    name: 'workspace',
    run: async (script) => {
      const r = await script(
        'bench/workspace/create-to-ready.ts',
        ['--sessions', '20', '--rounds', '1', '--single-rounds', '3', '--image', 'test'],
        ['--sessions', '20', '--rounds', '3', '--image', 'vscode'],
        300,
      );
      const image = r.image === 'vscode' ? 'code-server image' : 'small stand-in image, not code-server';
      const p95 = (m: Json) => ms(m.p95);
      return [
        {
          what: `create → ready editor, ${r.sessions} at once, warm pool / pre-started for a window (${image})`,
          goal: 'p95 ≤ 1 s',
          anchor: `cold, ${r.sessions} at once: p95 ${p95(r.cold)}`,
          result: `warm p95 ${p95(r.warm)}, pre-started p95 ${p95(r.prewarm)}`,
          ratio: `cold / warm ${r.ratio}×`,
          verdict: met(r.warm.p95 <= 1000 && r.prewarm.p95 <= 1000),
        },
        {
          what: `create → ready editor, one candidate, cold start (${image})`,
          goal: 'p95 ≤ 2 s (code-server image)',
          anchor: '—',
          result: `p95 ${p95(r.single)}`,
          ratio: '—',
          verdict: r.image === 'vscode' ? met(r.single.p95 <= 2000) : 'indicative only (not the real image)',
        },
      ];
    },
  },
  {
    name: 'workspace-types',
    run: async (script) => {
      const r = await script(
        'bench/workspace/create-to-ready.ts',
        ['--types', 'vscode,r-studio,oracle-sql,excel', '--single-rounds', '5', '--sessions', '5', '--rounds', '1'],
        ['--types', 'vscode,r-studio,oracle-sql,excel', '--single-rounds', '20', '--sessions', '10', '--rounds', '2'],
        600,
      );
      // One row per workspace type, each from its real image (the script fails when one is not built).
      return Object.entries(r.types as Record<string, Json>).map(([type, t]) => {
        const { cold, prestarted } = t;
        const allWarm = prestarted.warmHits === prestarted.n;
        return {
          what: `create → ready editor, \`${type}\` (${t.image}): cold, one candidate at a time with no pool (${cold.n} starts); pre-started, a pool of ${r.sessions} of that type and ${r.sessions} candidates at once (${prestarted.n} samples)${SHORT}`,
          goal: 'cold p95 ≤ 2 s, pre-started p95 ≤ 1 s',
          anchor: '—',
          result: `cold p50 ${ms(cold.p50)}, p95 ${ms(cold.p95)}; pre-started p50 ${ms(prestarted.p50)}, p95 ${ms(prestarted.p95)}, ${prestarted.warmHits} of ${prestarted.n} warm hits (load ${t.load[0]} → ${t.load[1]})`,
          ratio: `cold / pre-started p95 ${(cold.p95 / prestarted.p95).toFixed(1)}×`,
          verdict: `cold ${met(cold.p95 <= 2000)}, pre-started ${met(prestarted.p95 <= 1000 && allWarm)}${allWarm ? '' : ' (not every create was a pool hit)'}`,
        };
      });
    },
  },
  {
    name: 'page-weight',
    run: async () => {
      await command('pnpm', ['--filter', '@exam/taker-web', 'build'], 300);
      const out = await command('pnpm', ['exec', 'size-limit', '--json'], 120, `${root}apps/taker-web`);
      const checks = JSON.parse(out.slice(out.indexOf('['))) as { name: string; size: number; passed: boolean }[];
      const goals = [100_000, 100_000, 200_000];
      const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
      const rows: Cells[] = checks.slice(0, 3).map((c, i) => ({
        what: `taker-web: ${c.name.replace(/ \(goal .*\)$/, '')}, gzip`,
        goal: `≤ ${kb(goals[i]!)}`,
        anchor: '—',
        result: `${kb(c.size)} (${c.passed ? 'within' : 'over'} the budget in \`pnpm test\`)`,
        ratio: `${x(c.size / goals[i]!)} the goal`,
        verdict: met(c.size <= goals[i]!),
      }));
      // The start page shows its prerendered form with no script; what it needs before Continue works is shown too.
      const responds = checks[3];
      if (responds)
        rows.push({
          what: `taker-web: ${responds.name}, gzip`,
          goal: '— (the goal counts what the form needs to show)',
          anchor: '—',
          result: `${kb(responds.size)} (${responds.passed ? 'within' : 'over'} the budget in \`pnpm test\`)`,
          ratio: `${x(responds.size / 100_000)} the start page's goal`,
          verdict: '—',
        });
      return rows;
    },
  },
  {
    name: 'lighthouse',
    longOnly: 'node bench/web/lighthouse.ts --offset 700 --runs 3',
    run: async (script) => {
      const r = await script('bench/web/lighthouse.ts', [], ['--offset', '700', '--runs', '3'], 900);
      const s = r;
      return [
        {
          what: 'Lighthouse on the exam page (MCQ + short answer), mobile profile, median',
          goal: 'LCP ≤ 1.5 s, TBT ≤ 100 ms, CLS ≤ 0.05',
          anchor: '—',
          result: `LCP ${ms(s.lcpMs)}, TBT ${ms(s.tbtMs)}, CLS ${s.cls} (${s.runs} runs, load ${s.loadAverageAtStart})`,
          ratio: '—',
          verdict: met(s.met.lcp && s.met.tbt && s.met.cls),
        },
        {
          what: 'Lighthouse on /taker/start (first visit), mobile profile, median',
          goal: 'LCP ≤ 1.5 s, TBT ≤ 100 ms, CLS ≤ 0.05',
          anchor: '—',
          result: `LCP ${ms(s.start.lcpMs)}, TBT ${ms(s.start.tbtMs)}, CLS ${s.start.cls} (${s.runs} runs, load ${s.loadAverageAtStart})`,
          ratio: '—',
          verdict: met(s.start.met.lcp && s.start.met.tbt && s.start.met.cls),
        },
      ];
    },
  },
  {
    name: 'capacity',
    run: async (script) => {
      const r = await script(
        'bench/capacity/run.ts',
        [
          '--stack',
          'postgres',
          '--steps',
          '300,600',
          '--ramp',
          '10',
          '--hold',
          '20',
          '--idle',
          '10',
          '--submit-seconds',
          '10',
        ],
        [
          '--stack',
          'both',
          '--steps',
          '250,500,1000,2000,3000,5000,7000',
          '--embedded-steps',
          '50,100,250,500,1000,2000',
          '--ramp',
          '30',
          '--hold',
          '60',
        ],
        300,
      );
      const rows: Cells[] = [];
      for (const [stack, s] of Object.entries(r.stacks as Record<string, Json>)) {
        const what =
          stack === 'postgres'
            ? 'the scale stack on PostgreSQL (2 replicas each, haproxy)'
            : '`pnpm start` (embedded PGlite)';
        if (s.error) {
          rows.push({
            what: `concurrent candidates, ${what}`,
            goal: '—',
            anchor: '—',
            result: s.error,
            ratio: '—',
            verdict: '**failed or could not run**',
          });
          continue;
        }
        const held = (s.steps as Json[]).filter((step) => step.passed).at(-1);
        const missed = (s.steps as Json[]).find((step) => !step.passed);
        const m = s.model as Json;
        const mix = r.mix as Json;
        rows.push({
          what: `concurrent candidates held, ${what}: open loop, per candidate a save with its edit operations every ${mix.saveEverySeconds} s, the live poll every ${mix.liveEverySeconds} s, proctoring events every ${mix.eventsEverySeconds} s, a chat every ${mix.chatEverySeconds} s, a submission at the end; steps ${((stack === 'embedded' ? r.embeddedSteps : r.steps) as number[]).join(', ')}${SHORT}`,
          goal:
            stack === 'postgres' ? '≥ 5,000 at save p99 ≤ 100 ms, no errors' : 'stated (save p99 ≤ 100 ms, no errors)',
          anchor: `idle stack ${m?.idleCpuMsPerMinute?.stack ?? '—'} CPU-ms a minute; load generator on the same cores: ${m?.cpuMsPerCandidateMinute?.generator ?? '—'} CPU-ms per candidate-minute`,
          result: `${s.capacity} held${held ? ` (save p50 ${ms(held.save.p50)}, p99 ${ms(held.save.p99)}, load ${held.load.before[0]})` : ''}${missed ? `; ${missed.candidates} missed: ${missed.why.join('; ').slice(0, 200)}` : ''}; model ${m?.thisBox?.servicesOnly ?? '—'} on these 2 cores at 70% (services alone)`,
          ratio: stack === 'postgres' ? `${x(s.capacity / 5000)} the goal` : '—',
          verdict: stack === 'postgres' ? `${met(s.capacity >= 5000)} (a floor: shared box)` : 'stated',
        });
        if (m)
          rows.push({
            what: `CPU-ms per candidate-minute above idle, ${what}, at ${m.measuredAt} candidates`,
            goal: '— (the model: candidates ≈ (cores × 60,000 × 0.7 − idle) / Σ)',
            anchor: '—',
            result: `Σ ${m.cpuMsPerCandidateMinute.stack} (services ${m.cpuMsPerCandidateMinute.app}, database ${m.cpuMsPerCandidateMinute.database}); top: ${(m.top as Json[]).map((t) => `${t.name} ${t.ms}`).join(', ')}`,
            ratio: `per core: ${m.perAppCore} candidates of services, ${m.perDatabaseCore} of database`,
            verdict: `model: ${Object.entries(m.byCores as Record<string, number>)
              .map(([c, n]) => `${c} cores ${n}`)
              .join(', ')}`,
          });
      }
      return rows;
    },
  },
  {
    name: 'memory',
    longOnly: 'node bench/memory/run.ts',
    run: async (script) => {
      const r = await script('bench/memory/run.ts', [], [], 900);
      return [
        {
          what: '`pnpm start` on a fresh data directory, whole process tree',
          goal: 'PSS idle ≤ 600 MB, after a candidate journey ≤ 900 MB (issue 39)',
          anchor: '—',
          result: `idle PSS ${r.idle.pssMb} / RSS ${r.idle.rssMb} MB; after PSS ${r.after.pssMb} / RSS ${r.after.rssMb} MB`,
          ratio: `${x(r.idle.pssMb / 600)} the idle goal`,
          verdict: met(r.idle.pssMb <= 600 && r.after.pssMb <= 900),
        },
      ];
    },
  },
  {
    name: 'embedded',
    longOnly: 'node bench/embedded/compare.ts',
    run: async (script) => {
      const r = await script('bench/embedded/compare.ts', [], [], 900);
      const { pglite: a, postgres: b } = r.engines as Record<'pglite' | 'postgres', Json>;
      const both = (f: (e: Json) => string) => `PostgreSQL ${f(b)}; PGlite ${f(a)}`;
      return [
        {
          what: 'embedded database: idle memory of its process tree, 4 clients connected',
          goal: 'choose by the numbers (issue 39)',
          anchor: 'PGlite (the former default)',
          result: both((e) => `PSS ${e.idle.pssMb} MB (after load ${e.afterLoad.pssMb})`),
          ratio: `PGlite ${x(r.ratios.idlePss)}`,
          verdict: '—',
        },
        {
          what: 'embedded database: saves (the anchor upsert) from 4 clients × 10 in flight',
          goal: 'choose by the numbers',
          anchor: 'PGlite',
          result: both((e) => `${e.saves.perSecond}/s, p99 ${ms(e.saves.p99Ms)}`),
          ratio: `PostgreSQL ${x(r.ratios.saves)}`,
          verdict: '—',
        },
        {
          what: `embedded database: 4 services each holding a transaction ${b.transactions.holdMs} ms, at once`,
          goal: 'choose by the numbers',
          anchor: 'PGlite',
          result: both((e) => `round ${ms(e.transactions.roundMedianMs)}`),
          ratio: `PGlite ${x(r.ratios.transactionRound)} as long`,
          verdict: '—',
        },
        {
          what: `embedded database: insights request, ${b.insights.candidates} × ${b.insights.items}, recomputed`,
          goal: 'choose by the numbers',
          anchor: 'PGlite',
          result: both((e) => `median ${ms(e.insights.medianMs)}`),
          ratio: `PGlite ${x(r.ratios.insights)} as long`,
          verdict: '—',
        },
      ];
    },
  },
  {
    name: 'test-wall',
    longOnly: 'node bench/test-wall/run.ts',
    run: async (script) => {
      const r = await script('bench/test-wall/run.ts', [], [], 5400);
      const steps = (r.steps as Json[]).filter((s) => s.name !== 'install');
      const top = [...steps]
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, 4)
        .map((s) => `${s.name} ${s.seconds} s`)
        .join(', ');
      const minutes = r.chainSeconds / 60;
      return [
        {
          what: '`pnpm test` from a fresh clone (clone, offline install, then the chain step by step)',
          goal: '< 25 min on this box (issue 39 goal 6), every step green',
          anchor: '—',
          result: `${minutes.toFixed(1)} min; longest: ${top}; failed: ${r.failed.length ? r.failed.join(', ') : 'none'}`,
          ratio: `${x(minutes / 25)} the goal`,
          verdict: met(r.wholeChain && r.failed.length === 0 && minutes < 25),
        },
      ];
    },
  },
  {
    name: 'scale',
    longOnly: 'node bench/scale/run.ts',
    run: async () => {
      throw new Error('not yet machine-readable: read its report in the output (bench/README.md, History)');
    },
  },
];

/** Runs a command; resolves with its standard output, rejects with the end of its error output. */
function command(file: string, argv: string[], timeoutSeconds: number, cwd = root): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk;
      process.stderr.write(chunk);
    });
    // On time-out the whole process group goes (the benchmarks start services of their own): SIGINT first so they
    // clean up, SIGKILL 10 s later; the next benchmark starts only once this one has closed.
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      signal('SIGINT');
      setTimeout(() => signal('SIGKILL'), 10_000).unref();
    }, timeoutSeconds * 1000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new Error(`timed out after ${timeoutSeconds} s (the limit of this form)`));
      else if (code === 0) resolve(out);
      else {
        const last = (err || out).trim().split('\n').filter(Boolean).slice(-3).join(' / ');
        reject(new Error(`exit ${code}: ${last.slice(0, 300)}`));
      }
    });
  });
}

const script: Script = async (file, short, long, timeoutSeconds) => {
  const argv = [file, ...(full ? long : short)];
  commands.push(`node ${argv.join(' ')}`);
  const out = await command(process.execPath, argv, full ? timeoutSeconds * 6 : timeoutSeconds);
  const line = out
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`${file} printed no BENCH_RESULT line`);
  return JSON.parse(line.slice('BENCH_RESULT '.length)) as Json;
};
let commands: string[] = [];

const load = () => loadavg()[0]!.toFixed(1);
const commit = (() => {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    });
    return dirty.trim() ? `${sha} + changes` : sha;
  } catch {
    return 'unknown';
  }
})();

const only = args.only?.split(',').map((s) => s.trim());
if (only) {
  const unknown = only.filter((name) => !benches.some((b) => b.name === name));
  if (unknown.length)
    throw new Error(`unknown bench ${unknown.join(', ')}; known: ${benches.map((b) => b.name).join(', ')}`);
}
const selected = benches.filter((b) => (only ? only.includes(b.name) : full || !b.longOnly));
const rows: Row[] = [];
const startedAll = Date.now();
for (const bench of selected) {
  commands = [];
  const loadBefore = load();
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
  console.log(`\n=== ${bench.name} (${full ? 'long' : 'short'} form), load average ${loadBefore}`);
  const started = Date.now();
  let cells: Cells[];
  try {
    cells = await bench.run(script);
  } catch (error) {
    cells = [
      {
        what: 'did not run to the end here',
        goal: '—',
        anchor: '—',
        result: (error as Error).message,
        ratio: '—',
        verdict: '**failed or could not run**',
      },
    ];
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const machine = `${availableParallelism()} cores, load ${loadBefore} → ${load()}, ${seconds} s`;
  const cmd = (commands.length ? commands : [bench.longOnly ?? `pnpm bench --only ${bench.name}`])
    .map((c) => `\`${c}\``)
    .join(' and ');
  for (const c of cells) rows.push({ bench: bench.name, ...c, command: cmd, date, commit, machine });
}

// Every long-form benchmark that did not run keeps its note (a `--full --only …` run too).
const notes = benches
  .filter((b) => b.longOnly && !selected.includes(b))
  .map(
    (b) =>
      `- Long form only (\`pnpm bench --full\` or \`${b.longOnly}\`): \`${b.name}\`; its last result is in the table below.`,
  );
console.log(`\nall done in ${((Date.now() - startedAll) / 1000).toFixed(0)} s`);
for (const r of rows) console.log(`${r.bench}: ${r.what} → ${r.result} (${r.verdict})`);
if (!args['no-write']) {
  const readmePath = `${root}bench/README.md`;
  writeFileSync(readmePath, writeSummary(readFileSync(readmePath, 'utf8'), rows, notes));
  execFileSync(process.execPath, [`${root}node_modules/prettier/bin/prettier.cjs`, '--write', readmePath], {
    stdio: 'inherit',
  });
  console.log(`wrote the summary to ${readmePath}`);
}
