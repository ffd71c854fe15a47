import { ApiException, KubeConfig } from '@kubernetes/client-node';

/**
 * Where the engine finds the cluster: a kubeconfig file when one is named (KUBECONFIG), else the pod's own
 * service account (the token, CA and API address every pod gets; infra/k8s/src/rbac.ts grants it rights).
 */
export function loadKubeConfig(opts: { kubeconfig?: string }): KubeConfig {
  const config = new KubeConfig();
  if (opts.kubeconfig) config.loadFromFile(opts.kubeconfig);
  else config.loadFromCluster();
  return config;
}

/**
 * A kubeconfig for one API server address with a bearer token (tests, and a proxy such as `kubectl proxy`).
 * client-node refuses plain http unless TLS verification is switched off, so an http:// address switches it off:
 * there is no TLS to verify.
 */
export function kubeConfigForServer(server: string, opts: { token?: string; skipTLSVerify?: boolean } = {}) {
  const config = new KubeConfig();
  config.loadFromClusterAndUser(
    { name: 'cluster', server, skipTLSVerify: opts.skipTLSVerify ?? server.startsWith('http://') },
    { name: 'user', ...(opts.token ? { token: opts.token } : {}) },
  );
  return config;
}

/** An API answer that is not 2xx, as the API server's `Status` object says it (reason AlreadyExists, NotFound…). */
export type ApiFailure = { code: number; reason: string; message: string };

/** The HTTP code and Status of a failed call; undefined when the call never got an answer. */
export function apiFailureOf(err: unknown): ApiFailure | undefined {
  if (!(err instanceof ApiException)) return undefined;
  const code = (err as ApiException<unknown>).code;
  let status: { reason?: string; message?: string } = {};
  const body = (err as ApiException<unknown>).body;
  try {
    status = typeof body === 'string' ? (JSON.parse(body) as typeof status) : ((body ?? {}) as typeof status);
  } catch {
    status = { message: typeof body === 'string' ? body : undefined };
  }
  return { code, reason: status.reason ?? '', message: status.message ?? `HTTP ${code}` };
}

export const isNotFound = (err: unknown) => apiFailureOf(err)?.code === 404;
export const isAlreadyExists = (err: unknown) => apiFailureOf(err)?.code === 409;

/** Runs a delete; an object already gone is what the caller wanted. */
export async function ignoreNotFound(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** A failed call in words for logs and unavailable reasons: the Status message, or the network error's code. */
export function describeFailure(err: unknown): string {
  const failure = apiFailureOf(err);
  if (failure) return `${failure.code} ${failure.reason || 'error'}: ${failure.message}`;
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
