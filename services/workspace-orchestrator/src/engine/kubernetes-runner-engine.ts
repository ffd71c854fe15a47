import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { Attach, CoreV1Api, Log, NetworkingV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { Unavailable } from '@exam/domain/service-status';
import type { Config } from '../config.ts';
import type { RunJob } from '../db/schema.ts';
import { apiFailureOf, describeFailure, ignoreNotFound, loadKubeConfig } from './kubernetes-client.ts';
import { isLabelValue } from './kubernetes-objects.ts';
import { HOPELESS, waitForPod, type PodVerdict } from './kubernetes-pods.ts';
import {
  outputCapBytes,
  RUNNER_CONTAINER,
  RUNNER_DENY_POLICY,
  runnerPodOf,
  runnerSelector,
  type RunnerPodSettings,
} from './kubernetes-runner-pod.ts';
import { runDeadlineMs, type RunnerEngine, type RunnerExecution } from './runner-engine.ts';
import { makeBundle, parseHarnessOutput, type HarnessReport, type TestFrame } from './runner-protocol.ts';

export type KubernetesRunnerOptions = RunnerPodSettings & {
  kubeConfig: KubeConfig;
  /** How long a runner pod may take to start (scheduling, pulling the image) before the run fails on our side. */
  startTimeoutMs: number;
  /** The cap on a whole run (RUNNER_MAX_RUN_SECONDS); unset, only the run's own deadline. */
  maxRunMs?: number;
};

/** The runner engine's options as the configuration names them (WORKSPACE_ENGINE=kubernetes selects it). */
export function kubernetesRunnerOptions(config: Config): KubernetesRunnerOptions {
  return {
    kubeConfig: loadKubeConfig({ ...(config.KUBECONFIG ? { kubeconfig: config.KUBECONFIG } : {}) }),
    namespace: config.RUNNER_NAMESPACE,
    instance: config.WORKSPACE_INSTANCE,
    imagePullPolicy: config.WORKSPACE_IMAGE_PULL_POLICY,
    ...(config.RUNNER_RUNTIME_CLASS ? { runtimeClassName: config.RUNNER_RUNTIME_CLASS } : {}),
    startTimeoutMs: config.RUNNER_POD_START_TIMEOUT_SECONDS * 1000,
    maxRunMs: config.RUNNER_MAX_RUN_SECONDS * 1000,
  };
}

/** How long past the run's deadline the engine waits for the kubelet's DeadlineExceeded before deleting the pod. */
const DEADLINE_GRACE_MS = 5000;
/** A finished runner pod older than this is a leftover: its run has read its log long ago. */
const FINISHED_LEFTOVER_MS = 60_000;

const runnerStatusOf = (pod: V1Pod) => pod.status?.containerStatuses?.find((c) => c.name === RUNNER_CONTAINER);
const hasEnded = (pod: V1Pod) =>
  pod.status?.phase === 'Succeeded' ||
  pod.status?.phase === 'Failed' ||
  Boolean(runnerStatusOf(pod)?.state?.terminated);

/** The container runs (attach can reach it) or has already ended; a hopeless wait (a bad image) fails the run. */
function startedOrEnded(pod: V1Pod): PodVerdict<V1Pod> {
  const state = runnerStatusOf(pod)?.state;
  if (state?.running || hasEnded(pod)) return { value: pod };
  if (state?.waiting?.reason && HOPELESS.has(state.waiting.reason))
    return {
      error: `the runner pod ${pod.metadata?.name} cannot start: ${state.waiting.reason}: ${state.waiting.message ?? ''}`,
    };
  return undefined;
}

/** What the Docker engine's harness writes for a test the memory cgroup killed (runner-verdicts reads it as memory). */
const oomFrame = (index: number): TestFrame => ({
  index,
  status: 137,
  ms: 0,
  oomKills: 1,
  limitHits: undefined,
  truncated: false,
  stdout: '',
  stderr: '',
});

type PodRun = { report: HarnessReport; killed: boolean; oomKilled: boolean };

/**
 * Code runs in one fresh, locked-down pod per run in the runners' namespace (kubernetes-runner-pod.ts), through
 * the API server: the bundle goes to the harness's standard input through pods/attach (the WebSocket channel
 * protocol; v5 closes stdin with its CLOSE signal, older servers by closing the connection, and stdinOnce turns
 * either into EOF), and the harness's lines are read by following the container's log, with the Docker engine's
 * output cap. The pod is deleted whatever happened.
 *
 * Verdicts are the Docker engine's: DeadlineExceeded (activeDeadlineSeconds, or the engine's own timer a little
 * later) is the run's wall clock, killed. OOMKilled is the memory cgroup's OOM killer ending the whole container,
 * which Kubernetes 1.28+ on cgroup v2 does (memory.oom.group) where Docker kills only the process: the test in
 * progress is a memory verdict, and the tests after it run in a fresh pod within what is left of the deadline, so
 * they get the verdicts they would have had on Docker.
 */
export function createKubernetesRunnerEngine(opts: KubernetesRunnerOptions): RunnerEngine {
  if (!isLabelValue(opts.instance))
    throw new Error(
      `WORKSPACE_INSTANCE "${opts.instance}" cannot be a Kubernetes label value (63 characters at most, alphanumeric at both ends)`,
    );
  const core = opts.kubeConfig.makeApiClient(CoreV1Api);
  const networking = opts.kubeConfig.makeApiClient(NetworkingV1Api);
  const { namespace } = opts;
  let recentlyOk = 0;
  const remove = (name: string) =>
    ignoreNotFound(core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 })).catch(() => undefined);

  /** Follows the container's log (stdout and stderr as the kubelet keeps them) up to `max` bytes. */
  async function follow(name: string, max: number, onOverflow: () => void) {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (size <= max) {
          size += chunk.length;
          chunks.push(chunk);
          if (size > max) onOverflow();
        }
        done();
      },
    });
    const closed = new Promise<void>((resolve) => {
      sink.on('finish', resolve);
      sink.on('close', resolve);
    }).then(() => void (ended = true));
    const controller = await new Log(opts.kubeConfig)
      .log(namespace, name, RUNNER_CONTAINER, sink, { follow: true, limitBytes: max + 1 })
      .catch(() => undefined);
    if (!controller) sink.end();
    return {
      closed,
      isEnded: () => ended,
      stop: () => controller?.abort(),
      text: () => Buffer.concat(chunks).toString('utf8'),
    };
  }

  /** Writes the bundle to the harness's stdin and closes it; the returned socket stays open until the run ends. */
  async function sendBundle(name: string, bundle: Buffer) {
    const stdin = new PassThrough();
    const socket = await new Attach(opts.kubeConfig).attach(
      namespace,
      name,
      RUNNER_CONTAINER,
      null,
      null,
      stdin,
      false,
    );
    stdin.end(bundle);
    return socket;
  }

  async function runPod(job: RunJob, deadlineMs: number): Promise<PodRun> {
    const nonce = randomBytes(12).toString('hex');
    const bundle = await makeBundle(job, nonce);
    const name = `exam-run-${randomBytes(8).toString('hex')}`;
    const body = runnerPodOf(job, name, Math.max(1, Math.ceil(deadlineMs / 1000)), opts);
    const created = await core.createNamespacedPod({ namespace, body });
    let killed = false;
    const kill = () => {
      killed = true;
      void remove(name);
    };
    let socket: { close(): void } | undefined;
    try {
      const running = await waitForPod(opts.kubeConfig, core, created, {
        timeoutMs: opts.startTimeoutMs,
        decide: startedOrEnded,
        deleted: `the runner pod ${name} was deleted while starting`,
        timedOut: (problem) =>
          `the runner pod ${name} did not start within ${Math.round(opts.startTimeoutMs / 1000)} s (${problem})`,
      });
      const max = outputCapBytes(job);
      const output = await follow(name, max, kill);
      if (!hasEnded(running)) socket = await sendBundle(name, bundle);
      let ended: V1Pod | undefined;
      try {
        ended = await waitForPod(opts.kubeConfig, core, running, {
          timeoutMs: deadlineMs + DEADLINE_GRACE_MS,
          decide: (pod) => (hasEnded(pod) ? { value: pod } : undefined),
          deleted: `the runner pod ${name} was deleted while running`,
          timedOut: () => `the runner pod ${name} outlived its deadline`,
        });
      } catch (err) {
        // The engine's own kill (the output cap) deletes the pod; past the deadline the engine deletes it too.
        if (!killed && !/outlived its deadline/.test((err as Error).message)) throw err;
        kill();
      }
      await Promise.race([output.closed, new Promise((r) => setTimeout(r, 2000))]);
      output.stop();
      let text = output.text();
      // A follow the server closed early, or one still open: the log as the kubelet holds it, read once.
      if (ended && !killed && !output.isEnded())
        text = await core.readNamespacedPodLog({ name, namespace, container: RUNNER_CONTAINER, limitBytes: max + 1 });
      const terminated = ended ? runnerStatusOf(ended)?.state?.terminated : undefined;
      return {
        report: parseHarnessOutput(text, nonce),
        killed: killed || ended?.status?.reason === 'DeadlineExceeded',
        oomKilled: terminated?.reason === 'OOMKilled',
      };
    } finally {
      socket?.close();
      await remove(name);
    }
  }

  return {
    async unavailableReason(_language): Promise<Unavailable | undefined> {
      if (Date.now() - recentlyOk < 2000) return undefined;
      try {
        await core.listNamespacedPod({ namespace, limit: 1, labelSelector: runnerSelector(opts.instance) });
      } catch (err) {
        const failure = apiFailureOf(err);
        if (failure?.code === 401 || failure?.code === 403)
          return {
            kind: 'engine-refused',
            detail: `the Kubernetes API refused the orchestrator in the runners' namespace ${namespace} (${failure.code}: ${failure.message}); see infra/k8s/src/rbac.ts`,
          };
        if (failure?.code === 404)
          return {
            kind: 'engine-refused',
            detail: `the namespace ${namespace} does not exist on the Kubernetes cluster`,
          };
        return { kind: 'engine-unreachable', detail: `the Kubernetes API is not reachable (${describeFailure(err)})` };
      }
      // No run without the policy that takes the pods' network away: a missing one would leave them the cluster's.
      try {
        await networking.readNamespacedNetworkPolicy({ name: RUNNER_DENY_POLICY, namespace });
      } catch (err) {
        const failure = apiFailureOf(err);
        return {
          kind: 'engine-refused',
          detail:
            failure?.code === 404
              ? `the NetworkPolicy ${RUNNER_DENY_POLICY} is missing in ${namespace}: runner pods would have the cluster's network (infra/k8s/src/network.ts makes it)`
              : `the NetworkPolicy ${RUNNER_DENY_POLICY} in ${namespace} could not be read (${describeFailure(err)})`,
        };
      }
      recentlyOk = Date.now();
      return undefined;
    },

    async execute(job): Promise<RunnerExecution> {
      const startedAt = Date.now();
      const budget = runDeadlineMs(job, opts.maxRunMs);
      const merged: HarnessReport = { tests: new Map(), done: false };
      let offset = 0;
      for (;;) {
        const part = await runPod({ ...job, tests: job.tests.slice(offset) }, budget - (Date.now() - startedAt));
        if (offset === 0 && part.report.compile) merged.compile = part.report.compile;
        for (const [i, frame] of part.report.tests) merged.tests.set(offset + i, { ...frame, index: offset + i });
        if (part.killed || !part.oomKilled || part.report.done) {
          merged.done = part.report.done;
          return { ...merged, killed: part.killed };
        }
        const compiled = job.language === 'cpp' || job.language === 'java';
        if (offset === 0 && compiled && !merged.compile) {
          // The compiler itself met the memory limit: a compile error, as the Docker engine's harness reports it.
          merged.compile = { status: 137, output: 'The compiler ran out of memory.' };
          return { ...merged, done: true, killed: false };
        }
        let reached = offset;
        while (merged.tests.has(reached)) reached++;
        if (reached >= job.tests.length) return { ...merged, done: true, killed: false };
        merged.tests.set(reached, oomFrame(reached));
        offset = reached + 1;
        if (offset >= job.tests.length) return { ...merged, done: true, killed: false };
        // Too little time left for another pod: the tests not reached are timeouts, as on Docker at the deadline.
        if (budget - (Date.now() - startedAt) < 1000) return { ...merged, killed: true };
      }
    },

    async countContainers() {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: runnerSelector(opts.instance) });
      return pods.items.length;
    },

    /**
     * Removes this instance's runner pods a replica that died mid-run left behind, found by label (the pruning job
     * runs it at start and hourly). A live run's pod is never older than its own deadline and start-up, so pods
     * past that, or finished a minute ago, are leftovers even when other replicas are running theirs.
     */
    async removeStale(olderThanMs) {
      const pods = await core.listNamespacedPod({ namespace, labelSelector: runnerSelector(opts.instance) });
      const now = Date.now();
      const stale = pods.items.filter((pod) => {
        const age = now - new Date(pod.metadata?.creationTimestamp ?? 0).getTime();
        const lifetime = (pod.spec?.activeDeadlineSeconds ?? 0) * 1000 + opts.startTimeoutMs + FINISHED_LEFTOVER_MS;
        const finishedAt = runnerStatusOf(pod)?.state?.terminated?.finishedAt;
        const finishedLongAgo = finishedAt !== undefined && now - new Date(finishedAt).getTime() > FINISHED_LEFTOVER_MS;
        return age > olderThanMs || age > lifetime || finishedLongAgo;
      });
      for (const pod of stale) await remove(pod.metadata?.name ?? '');
      return stale.length;
    },
  };
}
