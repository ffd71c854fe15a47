import { createOidcClient, type OidcClient } from '../../adapters/oidc-client.ts';
import type { AppModule } from '../../module-context.ts';
import { createAccountCreator, type CreateAccount } from './create-account.ts';
import { createOrganizationsRepository, type OrganizationsRepository } from './organizations.repository.ts';
import { organizationsRoutes } from './organizations.routes.ts';
import { createOrganizationsService, type OrganizationsService } from './organizations.service.ts';

declare module '../../module-context.ts' {
  interface Provided {
    /** The one way an account is made (sign-up, single sign-on): its organization and its pending exam invitations. */
    createAccount: CreateAccount;
    organizations: OrganizationsService;
    organizationsRepository: OrganizationsRepository;
    /** The OpenID Connect relying party (discovery, token exchange, ID token checks) auth's single sign-on uses. */
    oidcClient: OidcClient;
  }
}

/** Where the identity provider sends the browser back: exam-service's callback under the creator app's origin. */
export const ssoRedirectUri = (creatorOrigin: string) => `${new URL(creatorOrigin).origin}/api/auth/sso/callback`;

/** Organizations: members, invitations, whether passwords may be used, and the organization's identity provider. */
export const organizationsModule: AppModule = async (app, { config, deps, mailQueue, provide }) => {
  const repo = createOrganizationsRepository(deps.database);
  const oidcClient = createOidcClient({
    allowLocal: config.SSO_ALLOW_LOOPBACK_HTTP,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    now: () => deps.clock.now(),
  });
  const service = createOrganizationsService(
    deps.database,
    repo,
    oidcClient,
    { ...deps, mail: mailQueue },
    {
      encryptionKey: config.encryptionKey,
      redirectUri: ssoRedirectUri(config.CREATOR_ORIGIN),
      creatorOrigin: config.CREATOR_ORIGIN,
    },
  );
  provide('createAccount', createAccountCreator(repo, deps));
  provide('organizations', service);
  provide('organizationsRepository', repo);
  provide('oidcClient', oidcClient);
  await app.register(organizationsRoutes(service));
};
