import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { E2E } from './env.ts';

/**
 * An organization's identity provider for the single sign-on journey: the real `oidc-provider` package on a local
 * port, with one public client (PKCE) whose redirect URI is exam-service's callback under the creator app's origin,
 * and its development login and consent pages, which the browser fills in.
 */
export type IdentityProvider = {
  issuer: string;
  clientId: string;
  /** Accounts by login name: what the dev login page accepts, and the claims the provider vouches for. */
  accounts: Map<string, { email: string; email_verified: boolean }>;
  close(): Promise<void>;
};

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const accounts: IdentityProvider['accounts'] = new Map();
  const clientId = 'exam-platform-e2e';
  const started: { provider?: Provider } = {};
  const server: Server = createServer((req, res) => started.provider!.callback()(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // `localhost`, as the apps' origins are, so the browser keeps the provider's cookies as it would a real one's.
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  started.provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${E2E.creatorOrigin}/api/auth/sso/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['e2e-identity-provider-cookie-key'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
  });
  return {
    issuer,
    clientId,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
