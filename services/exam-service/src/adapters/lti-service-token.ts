import { randomUUID } from 'node:crypto';
import { SignJWT, type CryptoKey } from 'jose';

/** A registration's current signing key (modules/lti/tool-keys.ts gives it). */
export type SigningKey = { kid: string; privateKey: CryptoKey };

/** OAuth 2 scopes of the LTI Advantage services this tool calls. */
export const LtiScopes = {
  /** Assignment and Grade Services 2.0 §3.6.3: post scores to a line item. */
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  /** Names and Role Provisioning Services 2.0 §3.6.1: read a context's memberships. */
  memberships: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

/** What a call to an LMS service needs to know about the registration. */
export type LtiPlatformAuth = { id: string; clientId: string; authTokenUrl: string };

/**
 * A failure talking to the LMS. `retryable`: trying again later may help (the network, a timeout, 5xx, 429);
 * otherwise the LMS refused something that will not change by itself (credentials, the request).
 */
export class LtiServiceError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  constructor(code: string, message: string, retryable: boolean) {
    super(message);
    this.name = 'LtiServiceError';
    this.code = code;
    this.retryable = retryable;
  }
}

/** Statuses after which the same request may succeed later. */
export const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** A short, single-line extract of an error body for the creator's status message (never a token). */
export async function bodyExtract(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  const compact = text.replace(/\s+/g, ' ').trim();
  return compact ? `: ${compact.slice(0, 200)}` : '';
}

/** Lifetime of the client assertion: the token endpoint reads it at once, so minutes are plenty. */
const ASSERTION_TTL_SECONDS = 300;
/** A cached token is not used in its last minute, so it never expires between the check and the LMS's. */
const EXPIRY_MARGIN_MS = 60_000;

export type ServiceTokensOptions = {
  /** The registration's own signing key: each registration's assertions are signed by its key alone. */
  signingKey: (platformId: string) => Promise<SigningKey>;
  clock: { now(): Date };
  fetch?: typeof fetch;
  timeoutMs?: number;
};

/**
 * Access tokens for the LMS's services by the OAuth 2 client-credentials grant, the client authenticating with
 * a JWT signed by the registration's key (RFC 7523 §2.2; 1EdTech Security Framework 1.0 §4.1). Tokens are cached per
 * platform and scope set until shortly before they expire. The cache is this replica's own: another replica
 * without the token simply asks for one.
 */
export function createServiceTokens(opts: ServiceTokensOptions) {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  const keyOf = (platform: LtiPlatformAuth, scopes: readonly string[]) =>
    `${platform.id}\n${platform.clientId}\n${platform.authTokenUrl}\n${[...scopes].sort().join(' ')}`;

  /**
   * Security Framework 1.0 §4.1.1: iss and sub are the client id, aud the token endpoint, with a fresh jti
   * (the platform refuses a jti it saw before), iat and a short exp; the header names the key (kid).
   */
  async function clientAssertion(platform: LtiPlatformAuth): Promise<string> {
    const { kid, privateKey } = await opts.signingKey(platform.id);
    const now = Math.floor(opts.clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(platform.clientId)
      .setSubject(platform.clientId)
      .setAudience(platform.authTokenUrl)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + ASSERTION_TTL_SECONDS)
      .sign(privateKey);
  }

  async function requestToken(platform: LtiPlatformAuth, scopes: readonly string[]) {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await clientAssertion(platform),
      scope: scopes.join(' '),
    });
    let response: Response;
    try {
      response = await doFetch(platform.authTokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (err instanceof LtiServiceError) throw err;
      throw new LtiServiceError(
        'LMS_UNREACHABLE',
        `The LMS token endpoint could not be reached (${(err as Error).message})`,
        true,
      );
    }
    if (!response.ok) {
      // RFC 6749 §5.2: 400/401 with invalid_client, invalid_scope…: the registration or the keys are wrong.
      const retryable = isRetryableStatus(response.status);
      throw new LtiServiceError(
        retryable ? 'LMS_UNAVAILABLE' : 'LMS_TOKEN_REFUSED',
        `The LMS refused an access token (${response.status})${await bodyExtract(response)}`,
        retryable,
      );
    }
    const json = (await response.json().catch(() => undefined)) as
      { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!json || typeof json.access_token !== 'string' || !json.access_token)
      throw new LtiServiceError('LMS_TOKEN_REFUSED', 'The LMS token endpoint answered without an access_token', false);
    // RFC 6749 §5.1: expires_in is recommended, not required; an hour is the usual default.
    const lifetimeSeconds = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
    return { token: json.access_token, expiresAt: opts.clock.now().getTime() + lifetimeSeconds * 1000 };
  }

  return {
    clientAssertion,

    /** A bearer token for these scopes: the cached one while it has more than a minute left, else a new one. */
    async token(platform: LtiPlatformAuth, scopes: readonly string[]): Promise<string> {
      const key = keyOf(platform, scopes);
      const cached = cache.get(key);
      if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > opts.clock.now().getTime()) return cached.token;
      const fresh = await requestToken(platform, scopes);
      cache.set(key, fresh);
      return fresh.token;
    },

    /** Forgets a token the LMS no longer accepts (a 401), so the next call asks for a new one. */
    forget(platform: LtiPlatformAuth, scopes: readonly string[], token: string) {
      const key = keyOf(platform, scopes);
      if (cache.get(key)?.token === token) cache.delete(key);
    },
  };
}
export type ServiceTokens = ReturnType<typeof createServiceTokens>;
