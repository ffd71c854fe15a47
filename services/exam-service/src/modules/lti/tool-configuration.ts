import type { LtiToolConfiguration } from '@exam/domain/lti';

/** The URLs of this tool as an LMS sees them: every one under the tool's public origin (LTI_TOOL_ORIGIN). */
export function toolConfiguration(origin: string): LtiToolConfiguration {
  return {
    loginUrl: `${origin}/lti/login`,
    launchUrl: `${origin}/lti/launch`,
    // One redirect URI for both message types: the id_token's message_type tells them apart.
    deepLinkingUrl: `${origin}/lti/launch`,
    jwksUrl: `${origin}/lti/jwks`,
  };
}
