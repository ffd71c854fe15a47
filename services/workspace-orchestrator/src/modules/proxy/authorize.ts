import type { IncomingHttpHeaders } from 'node:http';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { EntryResolver } from '../../engine/catalogue.ts';
import { LAUNCH_PARAM, type AccessChecker } from './access.ts';
import type { ProxyTargets } from './targets.ts';

const PREFIX = /^\/workspace\/([A-Za-z0-9_-]{1,64})(\/.*)?$/;

/** Splits /workspace/{id}/rest?query into the session id, the editor's path, and a launch token (removed). */
function splitUrl(url: string) {
  const [pathname = '', query = ''] = url.split(/\?(.*)/s);
  const match = PREFIX.exec(pathname);
  if (!match) return undefined;
  const params = new URLSearchParams(query);
  const token = params.get(LAUNCH_PARAM) ?? undefined;
  params.delete(LAUNCH_PARAM);
  const rest = params.toString();
  return { sessionId: match[1]!, path: `${match[2] ?? '/'}${rest ? `?${rest}` : ''}`, token };
}

export function hostPort(target: string) {
  const i = target.lastIndexOf(':');
  return { host: target.slice(0, i), port: Number(target.slice(i + 1)) };
}

export type ProxyDeps = {
  targets: ProxyTargets;
  check: AccessChecker;
  resolveEntry: EntryResolver;
  clock: { now(): Date };
};

/** Who may reach the editor behind a /workspace URL, and where the request goes (HTTP and WebSocket alike). */
export function createAuthorizer(deps: ProxyDeps) {
  return async function authorize(url: string, headers: IncomingHttpHeaders, upgrade: boolean) {
    const parts = splitUrl(url);
    if (!parts) throw new AppError(ErrorCode.NOT_FOUND, 'Session not found');
    const row = await deps.targets.get(parts.sessionId);
    const access = await deps.check({
      sessionId: parts.sessionId,
      attemptId: row.attemptId!,
      headers,
      launchToken: parts.token,
      upgrade,
      now: deps.clock.now(),
    });
    const entry = deps.resolveEntry(row.workspaceType);
    const forward = {
      target: row.target!,
      editorCookieName: entry.sessionCookie,
      editorCookie: row.editorCookie!,
      upgrade,
    };
    return { parts, row, access, forward };
  };
}
export type Authorize = ReturnType<typeof createAuthorizer>;
