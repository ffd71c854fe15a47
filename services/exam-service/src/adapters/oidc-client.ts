import { bareHost, hostVerdict, type Resolve } from '@exam/server-kit/internal-address';
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/**
 * The relying-party half of OpenID Connect (Core 1.0 §3.1, authorization code flow; RFC 7636 PKCE) for an
 * organization's identity provider: discovery (Discovery 1.0 §4), the token request and the ID token checks
 * (Core §3.1.3.7). Implemented on `jose` and fetch rather than a client library so every check is visible here.
 *
 * Discovery documents and key sets are cached in this process only, as a cache: any replica fetches its own, and
 * nothing another replica needs is kept here (the sign-in's state lives in the database).
 *
 * The issuer is an organization admin's input, so without `allowLocal` (SSO_ALLOW_LOOPBACK_HTTP: development, tests)
 * only https to hosts whose every address is public is called, and redirects are not followed.
 */

export class OidcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OidcError';
  }
}

export type OidcDiscovery = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  userinfoEndpoint?: string;
  codeChallengeMethods: string[];
  tokenEndpointAuthMethods: string[];
};

export type OidcClientOptions = {
  allowLocal: boolean;
  fetch?: typeof fetch;
  resolve?: Resolve;
  now?: () => Date;
  /** How long a discovery document is reused before it is fetched again. */
  discoveryTtlMs?: number;
};

const MAX_CACHED = 200;
const TIMEOUT_MS = 5000;
/** Asymmetric algorithms only: an HS256 ID token would be keyed on the client secret, which public clients lack. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

export function createOidcClient(opts: OidcClientOptions) {
  const inner = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? (() => new Date());
  const ttlMs = opts.discoveryTtlMs ?? 10 * 60 * 1000;
  const discoveries = new Map<string, { at: number; value: OidcDiscovery }>();
  const keySets = new Map<string, JWTVerifyGetKey>();

  async function checkUrl(target: string): Promise<URL> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new OidcError(`${target} is not a URL`);
    }
    if (url.protocol !== 'https:' && !(opts.allowLocal && url.protocol === 'http:'))
      throw new OidcError(`${url.origin} is not https`);
    if (opts.allowLocal) return url;
    const verdict = await hostVerdict(bareHost(url.hostname), opts.resolve);
    if (verdict === 'unresolvable') throw new OidcError(`The host ${url.hostname} could not be resolved`);
    if (verdict === 'internal')
      throw new OidcError(`The host ${url.hostname} resolves to a loopback, private or link-local address`);
    return url;
  }

  const guardedFetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    await checkUrl(url);
    return inner(input, { ...init, redirect: 'manual', signal: init?.signal ?? AbortSignal.timeout(TIMEOUT_MS) });
  };

  const stringField = (doc: Record<string, unknown>, name: string): string => {
    const value = doc[name];
    if (typeof value !== 'string' || !value) throw new OidcError(`The discovery document has no ${name}`);
    return value;
  };
  const listField = (doc: Record<string, unknown>, name: string): string[] => {
    const value = doc[name];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };

  async function fetchDiscovery(issuer: string): Promise<OidcDiscovery> {
    const response = await guardedFetch(`${withoutTrailingSlash(issuer)}/.well-known/openid-configuration`, {
      headers: { accept: 'application/json' },
    }).catch((err: unknown) => {
      throw err instanceof OidcError ? err : new OidcError(`The issuer could not be reached (${String(err)})`);
    });
    if (!response.ok) throw new OidcError(`The discovery document answered ${response.status}`);
    const doc = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!doc || typeof doc !== 'object') throw new OidcError('The discovery document is not JSON');
    const documented = stringField(doc, 'issuer');
    // Discovery 1.0 §4.3: the document's issuer must be the one it was fetched for.
    if (withoutTrailingSlash(documented) !== withoutTrailingSlash(issuer))
      throw new OidcError(`The discovery document names another issuer (${documented})`);
    const discovery: OidcDiscovery = {
      issuer: documented,
      authorizationEndpoint: stringField(doc, 'authorization_endpoint'),
      tokenEndpoint: stringField(doc, 'token_endpoint'),
      jwksUri: stringField(doc, 'jwks_uri'),
      ...(typeof doc.userinfo_endpoint === 'string' ? { userinfoEndpoint: doc.userinfo_endpoint } : {}),
      codeChallengeMethods: listField(doc, 'code_challenge_methods_supported'),
      tokenEndpointAuthMethods: listField(doc, 'token_endpoint_auth_methods_supported'),
    };
    for (const endpoint of [discovery.authorizationEndpoint, discovery.tokenEndpoint, discovery.jwksUri])
      await checkUrl(endpoint);
    return discovery;
  }

  function keysOf(jwksUri: string): JWTVerifyGetKey {
    let set = keySets.get(jwksUri);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: TIMEOUT_MS, [customFetch]: guardedFetch });
      keySets.set(jwksUri, set);
      if (keySets.size > MAX_CACHED) keySets.delete(keySets.keys().next().value!);
    }
    return set;
  }

  return {
    /**
     * The claims the ID token left to the UserInfo endpoint (Core §5.3; a provider may put `email` only there, as
     * oidc-provider does by default). Its `sub` must be the ID token's (Core §5.3.2), else nothing is taken from it.
     */
    async userinfo(discovery: OidcDiscovery, accessToken: string, sub: string): Promise<Record<string, unknown>> {
      if (!discovery.userinfoEndpoint) return {};
      const response = await guardedFetch(discovery.userinfoEndpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      }).catch(() => {
        throw new OidcError('The UserInfo endpoint could not be reached');
      });
      if (!response.ok) throw new OidcError(`The UserInfo endpoint answered ${response.status}`);
      const claims = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (claims.sub !== sub) throw new OidcError('The UserInfo answer is about another subject');
      return claims;
    },

    /** The issuer's discovery document; `fresh` skips the cache (an admin's "Test", a configuration being saved). */
    async discover(issuer: string, { fresh = false } = {}): Promise<OidcDiscovery> {
      const key = withoutTrailingSlash(issuer);
      const cached = discoveries.get(key);
      if (!fresh && cached && now().getTime() - cached.at < ttlMs) return cached.value;
      const value = await fetchDiscovery(issuer);
      discoveries.delete(key);
      discoveries.set(key, { at: now().getTime(), value });
      if (discoveries.size > MAX_CACHED) discoveries.delete(discoveries.keys().next().value!);
      return value;
    },

    /**
     * Exchanges the authorization code (Core §3.1.3.1) with the PKCE verifier. With a secret the client
     * authenticates with HTTP Basic (client_secret_basic); without, it is a public client and sends its id.
     */
    async exchangeCode(input: {
      discovery: OidcDiscovery;
      clientId: string;
      clientSecret?: string;
      code: string;
      redirectUri: string;
      codeVerifier: string;
    }): Promise<{ idToken: string; accessToken?: string }> {
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (input.clientSecret) {
        // RFC 6749 §2.3.1: both parts form-encoded before Basic.
        const form = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
        headers.authorization = `Basic ${Buffer.from(`${form(input.clientId)}:${form(input.clientSecret)}`).toString('base64')}`;
      } else {
        body.set('client_id', input.clientId);
      }
      const response = await guardedFetch(input.discovery.tokenEndpoint, { method: 'POST', headers, body }).catch(
        (err: unknown) => {
          throw err instanceof OidcError ? err : new OidcError(`The token endpoint could not be reached`);
        },
      );
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (!response.ok) {
        const reason = typeof answer.error === 'string' ? answer.error : String(response.status);
        throw new OidcError(`The token endpoint refused the code (${reason})`);
      }
      if (typeof answer.id_token !== 'string') throw new OidcError('The token endpoint answered no ID token');
      return {
        idToken: answer.id_token,
        ...(typeof answer.access_token === 'string' ? { accessToken: answer.access_token } : {}),
      };
    },

    /**
     * Core §3.1.3.7: signature by the issuer's published keys, `iss`, `aud` (and `azp` when there are several
     * audiences), `exp`, and the nonce this sign-in sent.
     */
    async verifyIdToken(
      idToken: string,
      expected: { discovery: OidcDiscovery; clientId: string; nonce: string },
    ): Promise<JWTPayload & { sub: string }> {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, keysOf(expected.discovery.jwksUri), {
          issuer: expected.discovery.issuer,
          audience: expected.clientId,
          algorithms: ALGORITHMS,
          requiredClaims: ['sub', 'exp', 'iat'],
          currentDate: now(),
        }));
      } catch (err) {
        throw new OidcError(`The ID token is not valid (${err instanceof Error ? err.message : String(err)})`);
      }
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId)
        throw new OidcError('The ID token was issued to another client (azp)');
      if (payload.nonce !== expected.nonce) throw new OidcError('The ID token does not carry this sign-in’s nonce');
      return payload as JWTPayload & { sub: string };
    },
  };
}
export type OidcClient = ReturnType<typeof createOidcClient>;
