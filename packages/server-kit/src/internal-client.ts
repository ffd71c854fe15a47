import { AppError, ErrorCode } from '@exam/domain/errors';

/** Calls another service of the platform with the shared internal token. */
export function createInternalClient(baseUrl: string, internalToken: string, opts: { timeoutMs?: number } = {}) {
  return async function request<T>(
    path: string,
    init: { method?: string; body?: unknown } = {},
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(new URL(path, baseUrl), {
      method: init.method ?? 'GET',
      headers: {
        'x-internal-token': internalToken,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
    }).catch((err: unknown) => {
      throw new AppError(ErrorCode.UNAVAILABLE, `Service at ${baseUrl} is unreachable: ${(err as Error).message}`);
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
}
export type InternalClient = ReturnType<typeof createInternalClient>;
