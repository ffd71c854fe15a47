import { LtiLaunchError } from './id-token.ts';
import { randomToken, SUSPENDED, type LaunchContext } from './launch-context.ts';

export type LoginParams = {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
};

/**
 * OIDC third-party initiated login (LTI Core 1.3 §5.1.1.1): stores the login's state and nonce and answers where
 * to send the browser (the registration's authorization endpoint), and the state.
 */
export async function startLogin(
  ctx: LaunchContext,
  params: LoginParams,
): Promise<{ redirect: string; state: string }> {
  const { repos, opts } = ctx;
  const { iss, login_hint: loginHint, target_link_uri: target } = params;
  if (!iss || !loginHint || !target) throw new LtiLaunchError('A login needs iss, login_hint and target_link_uri');
  if (!target.startsWith(`${opts.toolOrigin}/lti/`))
    throw new LtiLaunchError('target_link_uri is not a launch URL of this tool');
  const platform = await repos.platforms.byIssuerAndClient(iss, params.client_id || undefined);
  if (!platform)
    throw new LtiLaunchError(
      `No platform is registered with issuer ${iss}${params.client_id ? ` and client ID ${params.client_id}` : ''}`,
    );
  if (platform.tokenOrigin === null) throw new LtiLaunchError(SUSPENDED);
  // The browser goes to the registered authorization endpoint and nowhere else, over https outside loopback mode
  // (a registration stored before or while http was allowed is not followed off this machine's setting).
  const url = new URL(platform.authLoginUrl);
  if (url.protocol !== 'https:' && !(opts.allowLoopbackHttp && url.protocol === 'http:'))
    throw new LtiLaunchError("This LMS registration's authorization endpoint is not an https:// URL");
  if (params.lti_deployment_id && !platform.deploymentIds.includes(params.lti_deployment_id))
    throw new LtiLaunchError(`Deployment ${params.lti_deployment_id} is not registered for this platform`);
  const state = randomToken();
  const nonce = randomToken();
  await repos.launches.insertState({
    state,
    nonce,
    platformId: platform.id,
    targetLinkUri: target,
    expiresAt: ctx.later(opts.stateTtlSeconds),
  });
  // The authentication request (LTI Core 1.3 §5.1.1.2, OpenID Connect Core §3.1.2.1).
  const query: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: ctx.launchUrl,
    login_hint: loginHint,
    state,
    nonce,
    ...(params.lti_message_hint ? { lti_message_hint: params.lti_message_hint } : {}),
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return { redirect: url.toString(), state };
}
