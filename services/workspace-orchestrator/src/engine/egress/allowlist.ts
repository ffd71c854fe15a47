// In engine/: the egress proxy's rules, read by config.ts and applied by the proxy the Docker engine starts.
import { isIP } from 'node:net';

/**
 * Which hosts a workspace with package registries allowed may reach through the egress proxy: workspaces
 * have no network by default, and an exam's creator may allow the package registries of its language.
 * `ports` undefined: the entry named no port, so 443 and 80 only.
 */
export type AllowedHost = { host: string; ports?: number[]; isAddress: boolean };

/** Registries of the coding languages an exam may use (python, javascript, sql, r, java, cpp): PyPI, npm, Maven Central, CRAN. */
export const DEFAULT_ALLOWED_HOSTS = [
  'registry.npmjs.org',
  'pypi.org',
  'files.pythonhosted.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'cloud.r-project.org',
  'cran.r-project.org',
].join(',');

const DEFAULT_PORTS = [443, 80];
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const validHost = (host: string) => isIP(host) !== 0 || HOSTNAME.test(host);

/** Lower-cases, drops a trailing dot and IPv6 brackets, so `Registry.NPMJS.org.` and `registry.npmjs.org` are one host. */
export const normalizeHost = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** `host`, `host:port`, `1.2.3.4:port` or `[::1]:port` as host and port (undefined when absent); undefined when malformed. */
export function splitHostPort(value: string): { host: string; port?: number } | undefined {
  const text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(text);
  const colon = text.lastIndexOf(':');
  const [rawHost, rawPort] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : isIP(text) === 6 || colon === -1
      ? [text, undefined]
      : [text.slice(0, colon), text.slice(colon + 1)];
  const host = normalizeHost(rawHost);
  if (!validHost(host)) return undefined;
  if (rawPort === undefined) return { host };
  if (!/^\d{1,5}$/.test(rawPort)) return undefined;
  const port = Number(rawPort);
  return port >= 1 && port <= 65535 ? { host, port } : undefined;
}

/** Parses EGRESS_ALLOWED_HOSTS; answers the entries and the ones that could not be read. */
export function parseAllowlist(value: string): { hosts: AllowedHost[]; invalid: string[] } {
  const hosts: AllowedHost[] = [];
  const invalid: string[] = [];
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parsed = splitHostPort(item);
    if (!parsed) {
      invalid.push(item);
      continue;
    }
    const same = hosts.find((h) => h.host === parsed.host);
    const ports = parsed.port === undefined ? undefined : [parsed.port];
    if (!same) hosts.push({ host: parsed.host, ...(ports ? { ports } : {}), isAddress: isIP(parsed.host) !== 0 });
    // `host` and `host:8443` together: the default ports and 8443.
    else same.ports = [...new Set([...(same.ports ?? DEFAULT_PORTS), ...(ports ?? DEFAULT_PORTS)])];
  }
  return { hosts, invalid };
}

/** The entry that lets a workspace reach host:port, or undefined. Exact host names only: no wildcards, no subdomains. */
export function findAllowed(hosts: readonly AllowedHost[], host: string, port: number): AllowedHost | undefined {
  const wanted = normalizeHost(host);
  return hosts.find((h) => h.host === wanted && (h.ports ?? DEFAULT_PORTS).includes(port));
}
