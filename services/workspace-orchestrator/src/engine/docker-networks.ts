import { createHash } from 'node:crypto';
import { AGENT_RELAY_HOST } from '@exam/domain/workspace-agents';
import type Docker from 'dockerode';
import type { AgentRelay } from './egress/agent-relay.ts';
import type { RegistryProxy } from './egress/registry-proxy.ts';
import { isConflict, isNotFound, onceUntilFailure } from './docker-client.ts';
import { LABELS } from './engine.ts';

/**
 * The Linux bridge of a workspace network: `exam-ws0-` (no way out) or `exam-ws1-` (egress proxy) and six hex
 * digits of the engine's ID and the network's name, 15 characters (the kernel's limit). A bridge name is one
 * per host, not per engine: with fixed names a second engine on the machine (a test suite's, a benchmark's)
 * took the platform's bridges over and every workspace start failed. The prefixes stay fixed so
 * infra/workspaces/host-firewall.sh matches every engine's bridges by wildcard (`exam-ws+`, `exam-ws1+`).
 */
export function bridgeName(kind: 'internal' | 'egress', engineId: string, network: string): string {
  const digest = createHash('sha256').update(`${engineId}\n${network}`).digest('hex').slice(0, 6);
  return `exam-ws${kind === 'internal' ? 0 : 1}-${digest}`;
}

/**
 * Loopback inside the container is the container's own: a candidate's local server never goes through the proxy.
 * Nor does the AI relay (exam-ai), which sits on the bridge beside the proxy and which the proxy would refuse.
 */
const NO_PROXY = `localhost,127.0.0.1,::1,${AGENT_RELAY_HOST}`;

/** What makes npm, pip, cargo, go, R (libcurl) and the JVM tools use the proxy. */
export function proxyEnvironment(host: string, port: number): string[] {
  const url = `http://${host}:${port}`;
  const java = `-Dhttp.proxyHost=${host} -Dhttp.proxyPort=${port} -Dhttps.proxyHost=${host} -Dhttps.proxyPort=${port} -Dhttp.nonProxyHosts=localhost|127.0.0.1|${AGENT_RELAY_HOST}`;
  return [
    `HTTP_PROXY=${url}`,
    `HTTPS_PROXY=${url}`,
    `http_proxy=${url}`,
    `https_proxy=${url}`,
    `NO_PROXY=${NO_PROXY}`,
    `no_proxy=${NO_PROXY}`,
    `MAVEN_OPTS=${java}`,
    `GRADLE_OPTS=${java}`,
  ];
}

/** The egress proxy the Docker engine starts, and where it may listen. */
export type EgressProxyOptions = { proxy: RegistryProxy; ports: readonly number[]; reusePort: boolean };
/** The AI relay the Docker engine starts on both bridges' gateways (engine/egress/agent-relay.ts). */
export type AgentRelayOptions = { relay: AgentRelay; ports: readonly number[]; reusePort: boolean };

async function ensureNetwork(docker: Docker, name: string, bridge: string) {
  // An existing network keeps the bridge it was made with (an older orchestrator's fixed name included).
  try {
    const existing = (await docker.getNetwork(name).inspect()) as {
      Internal?: boolean;
      Containers?: Record<string, unknown>;
    };
    if (existing.Internal) return;
    // An egress network made before the proxy existed routes straight out: it is replaced, and
    // refused while containers still use it.
    if (Object.keys(existing.Containers ?? {}).length)
      throw new Error(
        `the Docker network ${name} has a route out and containers on it; remove them so it can be recreated as internal`,
      );
    await docker.getNetwork(name).remove();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await docker.createNetwork({
      Name: name,
      Driver: 'bridge',
      // Internal: no route out, on both bridges; the egress bridge's only way out is the registry
      // proxy on its gateway. enable_icc=false: containers on the bridge cannot reach each other,
      // only the host (the proxies) can reach them.
      Internal: true,
      Options: { 'com.docker.network.bridge.enable_icc': 'false', 'com.docker.network.bridge.name': bridge },
      Labels: { [LABELS.managed]: 'true' },
    });
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
}

/** The host's address on a bridge (read from the network's IPAM config; the host holds it even on an internal bridge). */
async function gatewayOf(docker: Docker, network: string): Promise<string> {
  const info = (await docker.getNetwork(network).inspect()) as {
    IPAM?: { Config?: { Gateway?: string }[] };
  };
  const gateway = info.IPAM?.Config?.find((c) => c.Gateway)?.Gateway;
  if (!gateway) throw new Error(`the Docker network ${network} has no gateway address`);
  return gateway;
}

/** Starts the registry proxy on the egress bridge's gateway; answers the containers' proxy variables. */
async function startEgressProxy(docker: Docker, egressNetwork: string, egress: EgressProxyOptions | undefined) {
  if (!egress) throw new Error('package registries are allowed for this exam, but no egress proxy is configured');
  const gateway = await gatewayOf(docker, egressNetwork);
  const port = await egress.proxy.listen(gateway, egress.ports, { reusePort: egress.reusePort });
  return proxyEnvironment(gateway, port);
}

/**
 * The two internal bridges, made once; the egress proxy on the second, started once; the AI relay on both, started
 * with the bridges (a workspace re-adopted after a restart finds it listening) and again on the next call after a
 * failure.
 */
export function createNetworks(
  docker: Docker,
  opts: { network: string; egressNetwork: string; egressProxy?: EgressProxyOptions; agentRelay?: AgentRelayOptions },
) {
  const gateways = onceUntilFailure(async () => ({
    [opts.network]: await gatewayOf(docker, opts.network),
    [opts.egressNetwork]: await gatewayOf(docker, opts.egressNetwork),
  }));
  const relayPort = onceUntilFailure(async () => {
    const relay = opts.agentRelay;
    if (!relay) return undefined;
    const hosts = Object.values(await gateways());
    return relay.relay.listen(hosts, relay.ports, { reusePort: relay.reusePort });
  });
  const ensure = onceUntilFailure(async () => {
    const { ID } = (await docker.info()) as { ID?: string };
    if (!ID) throw new Error('the Docker engine reported no ID');
    await ensureNetwork(docker, opts.network, bridgeName('internal', ID, opts.network));
    await ensureNetwork(docker, opts.egressNetwork, bridgeName('egress', ID, opts.egressNetwork));
    // Not a reason to refuse a workspace: only an exam with an agent needs it, and agentBaseUrl says why it failed.
    await relayPort().catch(() => undefined);
  });
  return {
    ensure,
    egressEnvironment: onceUntilFailure(() => startEgressProxy(docker, opts.egressNetwork, opts.egressProxy)),
    /** The bridge's gateway address, which the AI relay's host name (exam-ai) stands for inside a container. */
    gateway: async (network: string) => (await gateways())[network],
    /** The relay's port, undefined when no relay is configured; throws when it cannot listen. */
    relayPort: async () => {
      await ensure();
      return relayPort();
    },
  };
}
export type DockerNetworks = ReturnType<typeof createNetworks>;
