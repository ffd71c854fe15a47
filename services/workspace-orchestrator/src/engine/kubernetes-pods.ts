import { basename, dirname } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { WORKSPACE_FOLDER } from '@exam/domain/workspace';
import { Exec, Watch, type CoreV1Api, type KubeConfig, type V1Pod, type V1Status } from '@kubernetes/client-node';
import { EDITOR_CONTAINER } from './kubernetes-objects.ts';

/** Container states that will not get better by waiting: the pod cannot start. */
export const HOPELESS = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

export const isReady = (pod: V1Pod) =>
  Boolean(pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));

/** Why a pod will never become Ready; undefined while it still may. */
export function failureOf(pod: V1Pod): string | undefined {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded')
    return `the pod ended (${phase}: ${pod.status?.reason ?? 'no reason'})`;
  for (const container of pod.status?.containerStatuses ?? []) {
    const waiting = container.state?.waiting;
    if (waiting?.reason && HOPELESS.has(waiting.reason))
      return `${waiting.reason}: ${waiting.message ?? container.image ?? ''}`.trim();
    const terminated = container.state?.terminated;
    if (terminated) return `the container exited (${terminated.reason ?? terminated.exitCode})`;
  }
  return undefined;
}

/** Where a pod that is not Ready yet stands, for the timeout's message. */
function problemOf(pod: V1Pod): string {
  const waiting = pod.status?.containerStatuses?.find((c) => c.state?.waiting)?.state?.waiting;
  return `it was still ${waiting?.reason ?? pod.status?.phase ?? 'unscheduled'}`;
}

/** What `waitForPod` makes of a pod's state: done with a value, failed, or still waiting (undefined). */
export type PodVerdict<T> = { value: T } | { error: string } | undefined;

/**
 * Waits until the pod is Ready, watching it from the resourceVersion it was created at (so no change between the
 * create and the watch is missed). A watch the server closes early is opened again from the last version seen.
 * Rejects when the pod fails, is deleted, or is not Ready within `timeoutMs`.
 */
export async function waitForReady(
  kubeConfig: KubeConfig,
  core: CoreV1Api,
  created: V1Pod,
  timeoutMs: number,
): Promise<V1Pod> {
  const name = created.metadata?.name ?? '';
  return waitForPod<V1Pod>(kubeConfig, core, created, {
    timeoutMs,
    decide(pod) {
      if (isReady(pod)) return { value: pod };
      const failure = failureOf(pod);
      return failure ? { error: `the pod ${name} cannot start: ${failure}` } : undefined;
    },
    deleted: `the pod ${name} was deleted while starting`,
    timedOut: (problem) => `the pod ${name} was not Ready within ${Math.round(timeoutMs / 1000)} s (${problem})`,
  });
}

/**
 * Watches one pod until `decide` settles on it, from the resourceVersion it was created at; a watch the server
 * closes early (its timeout, a dropped connection, 410 Gone after compaction) is opened again from the last
 * version seen, or from a fresh read. Rejects with `deleted` when the pod goes, and `timedOut` after `timeoutMs`.
 */
export async function waitForPod<T>(
  kubeConfig: KubeConfig,
  core: CoreV1Api,
  created: V1Pod,
  opts: {
    timeoutMs: number;
    decide: (pod: V1Pod) => PodVerdict<T>;
    deleted: string;
    timedOut: (lastProblem: string) => string;
  },
): Promise<T> {
  const pod = { namespace: created.metadata?.namespace ?? '', name: created.metadata?.name ?? '' };
  const first = opts.decide(created);
  if (first && 'value' in first) return first.value;
  if (first) throw new Error(first.error);
  const watch = new Watch(kubeConfig);
  const deadline = Date.now() + opts.timeoutMs;
  let resourceVersion = created.metadata?.resourceVersion;
  let lastProblem = problemOf(created);
  while (Date.now() < deadline) {
    const outcome = await new Promise<{ done?: { value: T }; error?: Error }>((resolve) => {
      let controller: AbortController | undefined;
      let settled = false;
      const settle = (result: { done?: { value: T }; error?: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        controller?.abort();
        resolve(result);
      };
      const timer = setTimeout(() => settle({}), deadline - Date.now());
      void watch
        .watch(
          `/api/v1/namespaces/${pod.namespace}/pods`,
          { fieldSelector: `metadata.name=${pod.name}`, resourceVersion, allowWatchBookmarks: true },
          (type: string, object: V1Pod) => {
            if (object?.metadata?.resourceVersion) resourceVersion = object.metadata.resourceVersion;
            if (type === 'ERROR') {
              // 410 Gone: the version is too old to watch from; read the pod and watch from now.
              resourceVersion = undefined;
              return settle({});
            }
            if (type === 'BOOKMARK') return;
            if (type === 'DELETED') return settle({ error: new Error(opts.deleted) });
            const verdict = opts.decide(object);
            if (verdict && 'value' in verdict) return settle({ done: verdict });
            if (verdict) return settle({ error: new Error(verdict.error) });
            lastProblem = problemOf(object);
          },
          (err: unknown) => {
            const code = (err as { statusCode?: number } | null)?.statusCode;
            if (code === 401 || code === 403)
              return settle({ error: new Error(`watching the pod ${pod.name} was refused (${code})`) });
            if (code === 410) resourceVersion = undefined;
            // Closed by the server (its watch timeout) or the connection dropped: watched again below.
            settle({});
          },
        )
        .then(
          (c) => {
            controller = c;
            if (settled) c.abort();
          },
          (err: unknown) => settle({ error: err instanceof Error ? err : new Error(String(err)) }),
        );
    });
    if (outcome.done) return outcome.done.value;
    if (outcome.error) throw outcome.error;
    if (Date.now() >= deadline) break;
    if (!resourceVersion) {
      const current = await core.readNamespacedPod({ name: pod.name, namespace: pod.namespace });
      const verdict = opts.decide(current);
      if (verdict && 'value' in verdict) return verdict.value;
      if (verdict) throw new Error(verdict.error);
      lastProblem = problemOf(current);
      resourceVersion = current.metadata?.resourceVersion;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(opts.timedOut(lastProblem));
}

/** GNU tar's "some files differ" (a file changed while it was read): the archive is still whole. */
const TAR_SOME_FILES_DIFFER = '1';

function exitCodeOf(status: V1Status): string | undefined {
  return status.details?.causes?.find((c) => c.reason === 'ExitCode')?.message;
}

/**
 * The workspace folder of a pod's container as a tar (entries under 'workspace/', as the Docker archive API gives
 * them), by `tar` run through the exec subresource (a WebSocket in the channel protocol: stdout on channel 1,
 * stderr on 2, the command's Status on 3). tar stores symlinks as links and never follows them (no -h).
 */
export async function execTar(
  kubeConfig: KubeConfig,
  pod: { namespace: string; name: string },
): Promise<NodeJS.ReadableStream> {
  const tar = new PassThrough();
  let stderr = '';
  let finished = false;
  const finish = (err?: Error) => {
    if (finished) return;
    finished = true;
    if (!err) return tar.end();
    if (tar.listenerCount('error') > 0) return tar.destroy(err);
    // The whole exchange can be over before the caller has the stream: the failure waits for its reader.
    const onListener = (event: string | symbol) => {
      if (event !== 'error') return;
      tar.off('newListener', onListener);
      process.nextTick(() => tar.destroy(err));
    };
    tar.on('newListener', onListener);
  };
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!finished) tar.write(chunk);
      done();
    },
  });
  const errors = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
      done();
    },
  });
  const command = ['tar', '-cf', '-', '-C', dirname(WORKSPACE_FOLDER), basename(WORKSPACE_FOLDER)];
  const socket = await new Exec(kubeConfig).exec(
    pod.namespace,
    pod.name,
    EDITOR_CONTAINER,
    command,
    stdout,
    errors,
    null,
    false,
    (status) => {
      if (status.status === 'Success' || exitCodeOf(status) === TAR_SOME_FILES_DIFFER) finish();
      else finish(new Error(`tar in the pod ${pod.name} failed: ${status.message ?? ''} ${stderr.trim()}`.trim()));
    },
  );
  socket.on('close', () => finish(new Error(`the exec connection to ${pod.name} closed before tar finished`)));
  socket.on('error', (err: Error) => finish(err));
  return tar;
}

/** Extracts a tar (tarOf in engine.ts) into `dir` of the pod's editor container, fed to `tar -x` on exec's stdin. */
export async function execUntar(
  kubeConfig: KubeConfig,
  pod: { namespace: string; name: string },
  dir: string,
  archive: Buffer,
): Promise<void> {
  let stderr = '';
  const errors = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
      done();
    },
  });
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  await new Promise<void>((resolve, reject) => {
    void new Exec(kubeConfig)
      .exec(
        pod.namespace,
        pod.name,
        EDITOR_CONTAINER,
        ['sh', '-c', 'mkdir -p "$1" && tar -x -m -C "$1" -f -', 'write-files', dir],
        discard,
        errors,
        Readable.from([archive]),
        false,
        (status) => {
          if (status.status === 'Success') resolve();
          else
            reject(new Error(`writing files into ${pod.name} failed: ${status.message ?? ''} ${stderr.trim()}`.trim()));
        },
      )
      .then((socket) => socket.on('error', reject), reject);
  });
}
