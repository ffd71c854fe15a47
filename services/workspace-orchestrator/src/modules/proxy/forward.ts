import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { PROXY_COOKIE, parseCookies } from './access.ts';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Headers sent to the editor: the candidate's token and proxy cookie are removed, the editor's own
 * session cookie (from the orchestrator's login) is added, and Origin is dropped because the proxy
 * has already checked it and the editor compares it against its own host.
 */
export function upstreamHeaders(
  headers: IncomingHttpHeaders,
  opts: { target: string; editorCookieName: string; editorCookie: string; upgrade: boolean },
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name === 'authorization' || name === 'origin' || name === 'cookie' || name === 'host')
      continue;
    if (HOP_BY_HOP.has(name) && !(opts.upgrade && (name === 'upgrade' || name === 'connection'))) continue;
    out[name] = value;
  }
  const kept = parseCookies(headers.cookie).filter(([name]) => name !== PROXY_COOKIE && name !== opts.editorCookieName);
  out.cookie = [...kept.map(([n, v]) => `${n}=${v}`), `${opts.editorCookieName}=${opts.editorCookie}`].join('; ');
  out.host = opts.target;
  return out;
}

/** Headers sent back to the browser: hop-by-hop removed, and the editor's session cookie never leaves. */
export function downstreamHeaders(
  headers: IncomingHttpHeaders,
  opts: { editorCookieName: string; setCookie?: string },
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'set-cookie') continue;
    out[name] = value;
  }
  const cookies = ([] as string[])
    .concat(headers['set-cookie'] ?? [])
    .filter((c) => c.split('=')[0]!.trim() !== opts.editorCookieName)
    .concat(opts.setCookie ? [opts.setCookie] : []);
  if (cookies.length) out['set-cookie'] = cookies;
  return out;
}

/** The request line and headers of a WebSocket upgrade, as raw bytes for the editor's socket. */
export function rawRequestHead(method: string, path: string, headers: OutgoingHttpHeaders): string {
  const lines = [`${method} ${path} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of ([] as Array<string | number>).concat(value as string | number | string[]))
      lines.push(`${name}: ${v}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
