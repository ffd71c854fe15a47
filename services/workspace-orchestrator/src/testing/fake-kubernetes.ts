import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  endedPodStatus,
  fieldMatches,
  invalidObject,
  now,
  pullErrorStatus,
  readyPodStatus,
  RESOURCES,
  selectorMatches,
  sendExecResult,
  status,
  type ExecResult,
  type Obj,
  type PodBehaviour,
  type RecordedRequest,
  type Resource,
  type RunnerOutcome,
} from './fake-kubernetes-wire.ts';

export type { ExecResult, PodBehaviour, RunnerOutcome } from './fake-kubernetes-wire.ts';

/**
 * A Kubernetes API server in one process, for the calls the Kubernetes engine makes, speaking the wire format of
 * the real one (Kubernetes API reference, "API Concepts"):
 * - objects are JSON with apiVersion, kind and metadata; the server sets metadata.uid, .resourceVersion (one
 *   counter for everything, as etcd's revision) and .creationTimestamp (RFC 3339, whole seconds);
 * - create answers 201 with the stored object; list answers `<Kind>List` whose items carry no kind/apiVersion;
 * - failures are `Status` objects: {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
 *   "message":"pods \"x\" already exists","reason":"AlreadyExists","details":{"name":"x","kind":"pods"},"code":409},
 *   and the same with NotFound/404, Forbidden/403 and Invalid/422 (details.causes naming the field);
 * - `labelSelector` (k=v, k==v, k!=v, k, !k) and `fieldSelector=metadata.name=x` filter lists and watches;
 * - `?watch=true` answers 200 and streams one JSON event a line, {"type":"ADDED"|"MODIFIED"|"DELETED","object":{…}},
 *   from after `resourceVersion` when given (replayed from the log), else an ADDED for every current object first;
 * - pods/exec is a WebSocket upgrade with the channel subprotocols (v5.channel.k8s.io … channel.k8s.io): every
 *   binary message starts with its channel, 1 stdout, 2 stderr, 3 the command's Status ({"metadata":{},
 *   "status":"Success"}, or Failure with reason NonZeroExitCode and details.causes [{"reason":"ExitCode",
 *   "message":"2"}]).
 * A created pod is Pending (ContainerCreating) and, unless a test says otherwise, turns Running and Ready after
 * `readyAfterMs`, through a MODIFIED event, as the kubelet's status updates arrive.
 *
 * A pod whose container keeps stdin open (`stdin: true`, as the code runner's) plays a container reading it:
 * - pods/attach is a WebSocket like exec; channel 0 carries stdin, and stdin ends with v5's CLOSE signal
 *   ([255, 0]) or with the connection's close (stdinOnce);
 * - then `state.runner` says what the container wrote and how it ended; the pod turns Succeeded or Failed with
 *   the container's terminated state (exitCode, reason Completed/Error/OOMKilled);
 * - `activeDeadlineSeconds` counts from the container's start: past it the pod is Failed, reason DeadlineExceeded;
 * - pods/log answers the container's output as text/plain (400 while it is waiting to start), `limitBytes` and
 *   `follow=true` (streamed until the container ends) as the kubelet's log endpoint does.
 */

type WatchEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; resource: Resource; namespace: string; object: Obj };
type Watcher = { resource: Resource; namespace: string; matches: (o: Obj) => boolean; res: ServerResponse };

export type FakeKubernetes = Awaited<ReturnType<typeof startFakeKubernetes>>;

export async function startFakeKubernetes(opts: { namespaces?: string[]; readyAfterMs?: number } = {}) {
  let revision = 100;
  const namespaces = new Set(opts.namespaces ?? ['exam-workspaces']);
  const store = new Map<string, Obj>();
  const log: WatchEvent[] = [];
  const watchers = new Set<Watcher>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: RecordedRequest[] = [];
  const state = {
    readyAfterMs: opts.readyAfterMs ?? 50,
    podBehaviour: (_pod: Obj): PodBehaviour => 'ready',
    /** Answers every call with 403 Forbidden, as the API server does for a service account without the Role. */
    forbidden: false,
    /**
     * The next watch from a resourceVersion finds it compacted away: 200, then one ERROR event carrying a 410
     * Expired Status ("too old resource version"), and the stream ends, as etcd's compaction makes the API do.
     */
    expireNextWatch: false,
    exec: (_pod: Obj, _command: string[]): ExecResult => ({ stdout: Buffer.alloc(0), exitCode: 0 }),
    /** The channel subprotocols the server speaks, best first: v5 (1.30 on) can close stdin alone, v4 cannot. */
    channelProtocols: ['v5.channel.k8s.io', 'v4.channel.k8s.io'],
    /** What a stdin-reading container does with what came on its stdin (the runner's harness). */
    runner: (_pod: Obj, _stdin: Buffer): RunnerOutcome | Promise<RunnerOutcome> => ({
      log: '',
      exitCode: 0,
      reason: 'Completed',
    }),
  };
  type Runtime = {
    log: Buffer[];
    followers: Set<{ res: ServerResponse; remaining: number }>;
    sockets: Set<WebSocket>;
    ended: boolean;
    stdinClosed: boolean;
    deadline?: NodeJS.Timeout;
  };
  /** The running containers of stdin-reading pods, by key. */
  const runtimes = new Map<string, Runtime>();
  /** What every attach sent on stdin, by pod name, for tests to look at. */
  const stdinOf = new Map<string, Buffer>();
  const key = (resource: Resource, namespace: string, name: string) => `${resource}/${namespace}/${name}`;

  function emit(type: WatchEvent['type'], resource: Resource, namespace: string, object: Obj) {
    const event = { type, resource, namespace, object: structuredClone(object) };
    log.push(event);
    for (const w of watchers)
      if (w.resource === resource && w.namespace === namespace && w.matches(object))
        w.res.write(`${JSON.stringify({ type, object: event.object })}\n`);
  }

  function put(resource: Resource, namespace: string, object: Obj, type: 'ADDED' | 'MODIFIED') {
    object.metadata.resourceVersion = String(++revision);
    store.set(key(resource, namespace, object.metadata.name), object);
    emit(type, resource, namespace, object);
  }

  /** The kubelet's side: the pod's status as its container starts (or does not). */
  function schedulePod(namespace: string, name: string) {
    const pod = store.get(key('pods', namespace, name));
    if (!pod) return;
    const behaviour = state.podBehaviour(pod);
    if (behaviour === 'never-ready') return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const current = store.get(key('pods', namespace, name));
      if (!current || current.metadata.uid !== pod.metadata.uid) return;
      const container = ((current.spec?.containers as { name: string; image: string }[]) ?? [])[0]!;
      const next = structuredClone(current);
      if (behaviour === 'image-pull-error') {
        next.status = { ...next.status, containerStatuses: [pullErrorStatus(container)] };
      } else {
        next.status = readyPodStatus(container);
      }
      put('pods', namespace, next, 'MODIFIED');
      if (behaviour === 'ready' && (current.spec?.containers as Array<{ stdin?: boolean }>)[0]?.stdin)
        startRuntime(namespace, name, current.spec?.activeDeadlineSeconds as number | undefined);
    }, state.readyAfterMs);
    timers.add(timer);
  }

  function startRuntime(namespace: string, name: string, deadlineSeconds: number | undefined) {
    const runtime: Runtime = { log: [], followers: new Set(), sockets: new Set(), ended: false, stdinClosed: false };
    runtimes.set(key('pods', namespace, name), runtime);
    if (deadlineSeconds)
      runtime.deadline = setTimeout(
        () =>
          endRuntime(namespace, name, {
            exitCode: 137,
            reason: 'Error',
            podReason: 'DeadlineExceeded',
            podMessage: 'Pod was active on the node longer than the specified deadline',
          }),
        deadlineSeconds * 1000,
      );
  }

  function writeLog(runtime: Runtime, data: Buffer) {
    runtime.log.push(data);
    for (const follower of runtime.followers) {
      const part = data.subarray(0, follower.remaining);
      follower.remaining -= part.length;
      if (part.length) follower.res.write(part);
      if (follower.remaining <= 0) {
        follower.res.end();
        runtime.followers.delete(follower);
      }
    }
  }

  /** The container ends: its pod's status says how, followers of its log get the end, attach connections close. */
  function endRuntime(
    namespace: string,
    name: string,
    ending: { exitCode: number; reason: string; podReason?: string; podMessage?: string },
  ) {
    const runtime = runtimes.get(key('pods', namespace, name));
    const pod = store.get(key('pods', namespace, name));
    if (!runtime || runtime.ended || !pod) return;
    runtime.ended = true;
    clearTimeout(runtime.deadline);
    const container = (pod.spec?.containers as { name: string; image: string }[])[0]!;
    const next = structuredClone(pod);
    next.status = endedPodStatus(pod.status, container, ending);
    put('pods', namespace, next, 'MODIFIED');
    for (const follower of runtime.followers) follower.res.end();
    runtime.followers.clear();
    for (const ws of runtime.sockets) ws.close(1000);
  }

  /** Stdin reached EOF: the container does what `state.runner` says with it. */
  function runContainer(namespace: string, name: string, stdin: Buffer) {
    const runtime = runtimes.get(key('pods', namespace, name));
    const pod = store.get(key('pods', namespace, name));
    if (!runtime || !pod || runtime.stdinClosed || runtime.ended) return;
    runtime.stdinClosed = true;
    stdinOf.set(name, stdin);
    void Promise.resolve(state.runner(pod, stdin)).then((outcome) => {
      if (outcome === 'hang' || runtime.ended) return;
      writeLog(runtime, Buffer.from(outcome.log));
      endRuntime(namespace, name, {
        exitCode: outcome.exitCode,
        reason: outcome.reason ?? (outcome.exitCode === 0 ? 'Completed' : 'Error'),
      });
    });
  }

  function serveLog(res: ServerResponse, namespace: string, name: string, query: URLSearchParams) {
    const runtime = runtimes.get(key('pods', namespace, name));
    const pod = store.get(key('pods', namespace, name))!;
    const container = query.get('container') ?? '';
    if (!runtime)
      return send(
        res,
        400,
        status(400, 'BadRequest', `container "${container}" in pod "${name}" is waiting to start: ContainerCreating`),
      );
    if (!(pod.spec?.containers as { name: string }[]).some((c) => c.name === container))
      return send(res, 400, status(400, 'BadRequest', `container ${container} is not valid for pod ${name}`));
    const limit = Number(query.get('limitBytes') ?? Infinity) || Infinity;
    const written = Buffer.concat(runtime.log).subarray(0, limit);
    res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' });
    res.write(written);
    if (query.get('follow') !== 'true' || runtime.ended || written.length >= limit) return void res.end();
    const follower = { res, remaining: limit - written.length };
    runtime.followers.add(follower);
    res.on('close', () => runtime.followers.delete(follower));
  }

  /** What the API server adds on create beyond metadata: a pod's first status, a Service's cluster IP. */
  function defaults(resource: Resource, object: Obj) {
    if (resource === 'pods') {
      const containers = (object.spec?.containers as { name: string; image: string }[]) ?? [];
      object.status = {
        phase: 'Pending',
        qosClass: 'Burstable',
        conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now() }],
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image,
          ready: false,
          restartCount: 0,
          state: { waiting: { reason: 'ContainerCreating' } },
        })),
      };
    }
    if (resource === 'services') {
      const ip = `10.96.${(revision >> 8) & 255}.${revision & 255}`;
      object.spec = { ...object.spec, clusterIP: ip, clusterIPs: [ip], sessionAffinity: 'None' };
      object.status = { loadBalancer: {} };
    }
    if (resource === 'persistentvolumeclaims') object.status = { phase: 'Pending' };
  }

  function send(res: ServerResponse, code: number, body: unknown) {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  async function readBody(req: IncomingMessage): Promise<Obj | undefined> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj) : undefined;
  }

  function route(url: URL) {
    const match =
      url.pathname.match(/^\/api\/v1\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?$/) ??
      url.pathname.match(/^\/apis\/networking\.k8s\.io\/v1\/namespaces\/([^/]+)\/(networkpolicies)(?:\/([^/]+))?$/);
    if (!match || !(match[2]! in RESOURCES)) return undefined;
    if (match[2] === 'networkpolicies' && !url.pathname.startsWith('/apis/')) return undefined;
    return { namespace: match[1]!, resource: match[2] as Resource, name: match[3], sub: match[4] };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, token });
    const target = route(url);
    if (!target) return send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    const { namespace, resource, name } = target;
    const { kind, apiVersion } = RESOURCES[resource];
    if (state.forbidden) {
      const verb = req.method === 'POST' ? 'create' : req.method === 'DELETE' ? 'delete' : name ? 'get' : 'list';
      return send(
        res,
        403,
        status(
          403,
          'Forbidden',
          `${resource}${name ? ` "${name}"` : ''} is forbidden: User "system:serviceaccount:exam:workspace-orchestrator" cannot ${verb} resource "${resource}" in API group "${apiVersion.includes('/') ? apiVersion.split('/')[0] : ''}" in the namespace "${namespace}"`,
          { ...(name ? { name } : {}), kind: resource },
        ),
      );
    }
    const item = name ? store.get(key(resource, namespace, name)) : undefined;
    const notFound = () =>
      send(res, 404, status(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource }));

    if (req.method === 'GET' && !name && url.searchParams.get('watch') === 'true')
      return watch(res, resource, namespace, url.searchParams);
    if (req.method === 'GET' && !name) {
      const items = [...store.values()]
        .filter((o) => o.kind === kind && o.metadata.namespace === namespace)
        .filter((o) => selectorMatches(url.searchParams.get('labelSelector'), o.metadata.labels))
        .filter((o) => fieldMatches(url.searchParams.get('fieldSelector'), o))
        .slice(0, Number(url.searchParams.get('limit') ?? Infinity) || Infinity)
        .map(({ kind: _kind, apiVersion: _apiVersion, ...rest }) => rest);
      return send(res, 200, {
        kind: `${kind}List`,
        apiVersion,
        metadata: { resourceVersion: String(revision) },
        items,
      });
    }
    if (req.method === 'GET' && resource === 'pods' && target.sub === 'log')
      return item ? serveLog(res, namespace, name!, url.searchParams) : notFound();
    if (req.method === 'GET') return item ? send(res, 200, item) : notFound();
    if (req.method === 'DELETE') {
      if (!item) return notFound();
      store.delete(key(resource, namespace, name!));
      const runtime = runtimes.get(key(resource, namespace, name!));
      if (runtime) {
        // The container is killed with its pod: its log's followers and attach connections end.
        runtime.ended = true;
        clearTimeout(runtime.deadline);
        for (const follower of runtime.followers) follower.res.end();
        for (const ws of runtime.sockets) ws.terminate();
        runtimes.delete(key(resource, namespace, name!));
      }
      // Deleted at once: the engine deletes pods with gracePeriodSeconds=0; claims and Services have no
      // finalizers here (a real claim keeps kubernetes.io/pvc-protection until no pod uses it).
      const deleted = { ...item, metadata: { ...item.metadata, resourceVersion: String(++revision) } };
      emit('DELETED', resource, namespace, deleted);
      if (resource === 'networkpolicies')
        return send(res, 200, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name, group: 'networking.k8s.io', kind: resource, uid: item.metadata.uid },
        });
      return send(res, 200, deleted);
    }
    if (req.method === 'POST' && !name && body) {
      if (!namespaces.has(namespace))
        return send(
          res,
          404,
          status(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' }),
        );
      const problem = invalidObject(resource, body);
      if (problem)
        return send(
          res,
          422,
          status(422, 'Invalid', `${kind} "${body.metadata?.name}" is invalid: ${problem}`, {
            name: body.metadata?.name,
            kind,
            causes: [{ reason: 'FieldValueInvalid', message: problem, field: problem.split(':')[0] }],
          }),
        );
      const existing = store.get(key(resource, namespace, body.metadata.name));
      if (existing)
        return send(
          res,
          409,
          status(409, 'AlreadyExists', `${resource} "${body.metadata.name}" already exists`, {
            name: body.metadata.name,
            kind: resource,
          }),
        );
      const object: Obj = {
        ...body,
        kind,
        apiVersion,
        metadata: { ...body.metadata, namespace, uid: randomUUID(), creationTimestamp: now() },
      };
      defaults(resource, object);
      put(resource, namespace, object, 'ADDED');
      if (resource === 'pods') schedulePod(namespace, object.metadata.name);
      return send(res, 201, object);
    }
    send(res, 405, status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource'));
  }

  function watch(res: ServerResponse, resource: Resource, namespace: string, query: URLSearchParams) {
    const matches = (o: Obj) =>
      selectorMatches(query.get('labelSelector'), o.metadata.labels) && fieldMatches(query.get('fieldSelector'), o);
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const from = query.get('resourceVersion');
    const line = (type: string, object: Obj) => res.write(`${JSON.stringify({ type, object })}\n`);
    if (from && from !== '0' && state.expireNextWatch) {
      state.expireNextWatch = false;
      line('ERROR', {
        ...status(410, 'Expired', `too old resource version: ${from} (${revision})`),
        metadata: {},
      } as unknown as Obj);
      return void res.end();
    }
    if (from && from !== '0') {
      for (const e of log)
        if (
          e.resource === resource &&
          e.namespace === namespace &&
          Number(e.object.metadata.resourceVersion) > Number(from) &&
          matches(e.object)
        )
          line(e.type, e.object);
    } else {
      for (const o of store.values())
        if (o.kind === RESOURCES[resource].kind && o.metadata.namespace === namespace && matches(o)) line('ADDED', o);
    }
    const watcher = { resource, namespace, matches, res };
    watchers.add(watcher);
    res.on('close', () => watchers.delete(watcher));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, status(500, 'InternalError', String(err))));
  });

  const sockets = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => state.channelProtocols.find((p) => offered.has(p)) ?? false,
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const target = route(url);
    requests.push({ method: 'GET', path: url.pathname, query: url.searchParams });
    const pod = target && target.name ? store.get(key('pods', target.namespace, target.name)) : undefined;
    if (!target || (target.sub !== 'exec' && target.sub !== 'attach') || !pod || state.forbidden) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (target.sub === 'attach') {
      const runtime = runtimes.get(key('pods', target.namespace, pod.metadata.name));
      if (!runtime || runtime.ended) {
        socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      return sockets.handleUpgrade(req, socket, head, (ws) => {
        runtime.sockets.add(ws);
        const stdin: Buffer[] = [];
        const eof = () => runContainer(target.namespace, pod.metadata.name, Buffer.concat(stdin));
        ws.on('message', (data: Buffer) => {
          if (data[0] === 0) stdin.push(Buffer.from(data.subarray(1)));
          // v5.channel.k8s.io's CLOSE signal for channel 0: stdin is done, the connection stays.
          else if (data[0] === 255 && data[1] === 0 && ws.protocol === 'v5.channel.k8s.io') eof();
        });
        // stdinOnce: the attach session's end closes the container's stdin.
        ws.on('close', () => {
          runtime.sockets.delete(ws);
          eof();
        });
      });
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      const command = url.searchParams.getAll('command');
      sendExecResult(ws, command, state.exec(pod, command));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Every namespace gets the kube-root-ca.crt ConfigMap, as the root CA publisher controller puts it there. */
  for (const namespace of namespaces)
    put(
      'configmaps',
      namespace,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-root-ca.crt', namespace, uid: randomUUID(), creationTimestamp: now() },
        data: { 'ca.crt': '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n' },
      },
      'ADDED',
    );

  return {
    url,
    state,
    requests,
    /** The stored object, as a GET would answer it. */
    get: (resource: Resource, name: string, namespace = 'exam-workspaces') => store.get(key(resource, namespace, name)),
    names: (resource: Resource, namespace = 'exam-workspaces') =>
      [...store.values()]
        .filter((o) => o.kind === RESOURCES[resource].kind && o.metadata.namespace === namespace)
        .map((o) => o.metadata.name)
        .sort(),
    /** Bodies the engine posted for a resource, in order. */
    created: (resource: Resource) =>
      requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${resource}`)).map((r) => r.body!),
    /** Ends every open watch, as the API server does when a watch's timeout runs out or it restarts. */
    dropWatches() {
      for (const w of watchers) w.res.end();
      watchers.clear();
    },
    watchCount: () => watchers.size,
    /** Changes a stored object as a controller would (a MODIFIED event follows). */
    modify(resource: Resource, name: string, change: (o: Obj) => void, namespace = 'exam-workspaces') {
      const object = structuredClone(store.get(key(resource, namespace, name))!);
      change(object);
      put(resource, namespace, object, 'MODIFIED');
    },
    /** What the container of a stdin-reading pod received on its stdin (the bundle), by pod name. */
    stdinOf: (name: string) => stdinOf.get(name),
    /** Puts an object in place as an administrator's `kubectl apply` would (the runners' NetworkPolicy). */
    seed(resource: Resource, object: Obj, namespace = 'exam-workspaces') {
      put(
        resource,
        namespace,
        { ...object, metadata: { ...object.metadata, namespace, uid: randomUUID(), creationTimestamp: now() } },
        'ADDED',
      );
    },
    async close() {
      for (const runtime of runtimes.values()) clearTimeout(runtime.deadline);
      for (const timer of timers) clearTimeout(timer);
      for (const w of watchers) w.res.end();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
