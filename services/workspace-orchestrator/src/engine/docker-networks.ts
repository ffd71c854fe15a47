import type Docker from 'dockerode';
import type { RegistryProxy } from './egress/registry-proxy.ts';
import { isConflict, isNotFound, onceUntilFailure } from './docker-client.ts';
import { LABELS } from './engine.ts';

/** Bridge names are fixed so infra/workspaces/host-firewall.sh can keep containers away from the host's own services. */
const BRIDGES = { internal: 'exam-ws0', egress: 'exam-ws1' } as const;

/** Loopback inside the container is the container's own: a candidate's local server never goes through the proxy. */
const NO_PROXY = 'localhost,127.0.0.1,::1';

/** What makes npm, pip, cargo, go, R (libcurl) and the JVM tools use the proxy. */
export function proxyEnvironment(host: string, port: number): string[] {
  const url = `http://${host}:${port}`;
  const java = `-Dhttp.proxyHost=${host} -Dhttp.proxyPort=${port} -Dhttps.proxyHost=${host} -Dhttps.proxyPort=${port} -Dhttp.nonProxyHosts=localhost|127.0.0.1`;
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

async function ensureNetwork(docker: Docker, name: string, bridge: string) {
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

/** Starts the registry proxy on the egress bridge's gateway; answers the containers' proxy variables. */
async function startEgressProxy(docker: Docker, egressNetwork: string, egress: EgressProxyOptions | undefined) {
  if (!egress) throw new Error('package registries are allowed for this exam, but no egress proxy is configured');
  const info = (await docker.getNetwork(egressNetwork).inspect()) as {
    IPAM?: { Config?: { Gateway?: string }[] };
  };
  const gateway = info.IPAM?.Config?.find((c) => c.Gateway)?.Gateway;
  if (!gateway) throw new Error(`the Docker network ${egressNetwork} has no gateway address for the egress proxy`);
  const port = await egress.proxy.listen(gateway, egress.ports, { reusePort: egress.reusePort });
  return proxyEnvironment(gateway, port);
}

/** The two internal bridges, made once, and the egress proxy on the second, started once. */
export function createNetworks(
  docker: Docker,
  opts: { network: string; egressNetwork: string; egressProxy?: EgressProxyOptions },
) {
  return {
    ensure: onceUntilFailure(async () => {
      await ensureNetwork(docker, opts.network, BRIDGES.internal);
      await ensureNetwork(docker, opts.egressNetwork, BRIDGES.egress);
    }),
    egressEnvironment: onceUntilFailure(() => startEgressProxy(docker, opts.egressNetwork, opts.egressProxy)),
  };
}
export type DockerNetworks = ReturnType<typeof createNetworks>;
