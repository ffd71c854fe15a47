import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package, a certified implementation) on a local port, for the
 * single sign-on tests: clients registered up front, accounts from a map the test edits, and its development login
 * and consent pages (devInteractions), which `signInAt` fills in over plain HTTP as a browser would.
 */

export type ProviderAccount = { email: string; email_verified: boolean };

export type TestProvider = {
  issuer: string;
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
};

export async function startTestProvider(opts: {
  clients: { clientId: string; clientSecret?: string; redirectUris: string[] }[];
  port?: number;
}): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  // The issuer names the port, so the server listens before the provider exists; requests wait for neither.
  const started: { provider?: Provider } = {};
  const server: Server = createServer((req, res) => started.provider!.callback()(req, res));
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  started.provider = new Provider(issuer, {
    clients: opts.clients.map((client) => ({
      client_id: client.clientId,
      ...(client.clientSecret
        ? { client_secret: client.clientSecret, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
  });
  return {
    issuer,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small cookie jar: name=value pairs from Set-Cookie, sent back on every request (one host, no paths). */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1);
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/**
 * Goes through the provider from its authorization URL as the browser would, signing in as `login` on the
 * development login page and granting consent, until the provider redirects to `redirectPrefix`; answers that URL.
 */
export async function signInAt(authorizationUrl: string, login: string, redirectPrefix: string): Promise<URL> {
  const jar = cookieJar();
  let next: { url: string; method: 'GET' | 'POST'; form?: URLSearchParams } = { url: authorizationUrl, method: 'GET' };
  for (let step = 0; step < 12; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(next.form ? { body: next.form } : {}),
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const target = new URL(location, next.url);
      if (target.href.startsWith(redirectPrefix)) return target;
      next = { url: target.href, method: 'GET' };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form on the provider's page: ${html.slice(0, 300)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any');
    }
    next = { url: new URL(action.replace(/&amp;/g, '&'), next.url).href, method: 'POST', form };
  }
  throw new Error('the provider never redirected back');
}
