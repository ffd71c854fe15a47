import { lookup } from 'node:dns/promises';
import { isInternalAddress } from '@exam/server-kit/internal-address';
import { findAllowed, type AllowedHost } from './allowlist.ts';

export type Decision = { ok: true; address: string } | { ok: false; status: 403 | 502; reason: string };

/**
 * Whether a workspace may reach host:port, and at which address. The allowlist comes first (no DNS for
 * a refused name), then the resolved address, which is the one the proxy connects to.
 */
export async function decide(allowed: readonly AllowedHost[], host: string, port: number): Promise<Decision> {
  const entry = findAllowed(allowed, host, port);
  if (!entry)
    return {
      ok: false,
      status: 403,
      reason: `${host}:${port} is not one of the package registries this exam allows`,
    };
  // An address named in the allowlist is taken as it is, even an internal one (a registry mirror on the LAN).
  if (entry.isAddress) return { ok: true, address: entry.host };
  let addresses: string[];
  try {
    addresses = (await lookup(entry.host, { all: true })).map((a) => a.address);
  } catch (err) {
    return {
      ok: false,
      status: 502,
      reason: `${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  // Any internal answer refuses the name: it would let the proxy reach this host's own services.
  const inside = addresses.find(isInternalAddress);
  if (inside || !addresses[0])
    return {
      ok: false,
      status: 403,
      reason: `${host} resolves to an internal address (${inside ?? 'none'}), which workspaces may not reach`,
    };
  return { ok: true, address: addresses[0] };
}
