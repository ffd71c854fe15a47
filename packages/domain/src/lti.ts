import { z } from 'zod';

/**
 * LTI 1.3 (1EdTech LTI Core 1.3, Deep Linking 2.0): the platform registrations a creator keeps, the tool's own
 * configuration they paste into their LMS, and the claims the tool reads. ARCHITECTURE.md "LTI" has the flows.
 */

export const LtiMessages = {
  httpsRequired: 'Must be an https:// URL (http:// only for localhost or 127.0.0.1)',
  badUrl: 'Must be a URL',
  deploymentRequired: 'Add at least one deployment ID',
  duplicate: 'A platform with this issuer and client ID is already registered',
} as const;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for an https URL, or an http URL on this machine (development and tests). */
export function isAllowedLtiUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
}

/** An endpoint of the platform: messages carry secrets and signed identities, so never plain http off this machine. */
export const LtiUrlSchema = z
  .string()
  .trim()
  .min(1, LtiMessages.badUrl)
  .max(2000)
  .refine((v) => URL.canParse(v), LtiMessages.badUrl)
  .refine((v) => !URL.canParse(v) || isAllowedLtiUrl(v), LtiMessages.httpsRequired);

/** POST /api/lti/platforms and PUT /api/lti/platforms/:id. */
export const LtiPlatformInputSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  /** The platform's issuer (`iss` of its id_tokens): an https URL (LTI Core 1.3 §5.1.2). */
  issuer: LtiUrlSchema,
  clientId: z.string().trim().min(1, 'Client ID is required').max(500),
  authLoginUrl: LtiUrlSchema,
  authTokenUrl: LtiUrlSchema,
  jwksUrl: LtiUrlSchema,
  deploymentIds: z
    .array(z.string().trim().min(1, 'A deployment ID cannot be empty').max(500))
    .min(1, LtiMessages.deploymentRequired)
    .max(100)
    .transform((ids) => [...new Set(ids)]),
});
export type LtiPlatformInput = z.input<typeof LtiPlatformInputSchema>;
export type LtiPlatformValues = z.output<typeof LtiPlatformInputSchema>;

export const LtiPlatformSchema = z.object({
  id: z.string(),
  name: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  authLoginUrl: z.string(),
  authTokenUrl: z.string(),
  jwksUrl: z.string(),
  deploymentIds: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type LtiPlatform = z.infer<typeof LtiPlatformSchema>;

export const LtiPlatformEnvelopeSchema = z.object({ platform: LtiPlatformSchema });
export const LtiPlatformListSchema = z.object({ platforms: z.array(LtiPlatformSchema) });
export const LtiPlatformParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** What an LMS administrator enters for this tool (GET /api/lti/tool-configuration). */
export const LtiToolConfigurationSchema = z.object({
  /** OIDC login initiation URL (LTI Core 1.3 §5.1.1). */
  loginUrl: z.string(),
  /** Redirect URI and target link URI of resource-link launches. */
  launchUrl: z.string(),
  /** Where deep-linking requests are sent (Deep Linking 2.0 §4.4). */
  deepLinkingUrl: z.string(),
  /** The tool's public keys (1EdTech Security Framework §6.3). */
  jwksUrl: z.string(),
});
export type LtiToolConfiguration = z.infer<typeof LtiToolConfigurationSchema>;

/** Claim names of LTI Core 1.3 §5.3–5.4, Deep Linking 2.0 §4.4, AGS 2.0 §3.1 and NRPS 2.0 §3.6.1. */
export const LtiClaim = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deploymentId: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  targetLinkUri: 'https://purl.imsglobal.org/spec/lti/claim/target_link_uri',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
  lis: 'https://purl.imsglobal.org/spec/lti/claim/lis',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  deepLinkingData: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
  agsEndpoint: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrpsService: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
} as const;

export const LtiMessageType = {
  resourceLink: 'LtiResourceLinkRequest',
  deepLinkingRequest: 'LtiDeepLinkingRequest',
  deepLinkingResponse: 'LtiDeepLinkingResponse',
} as const;

export const LTI_VERSION = '1.3.0';

/** Context roles of LTI Core 1.3 §A.2.3 that open the creator side (system and institution roles do not). */
export const LtiRole = {
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  administrator: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  contentDeveloper: 'http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper',
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
} as const;

const TEACHING_ROLES: ReadonlySet<string> = new Set([LtiRole.instructor, LtiRole.administrator]);

/**
 * Whether a launch's roles make the user an instructor: a full context role URI, or the short form
 * (`Instructor`) LTI Core 1.3 §A.2.3.1 still allows for context roles.
 */
export function isInstructorLaunch(roles: readonly string[]): boolean {
  return roles.some((role) => TEACHING_ROLES.has(role) || role === 'Instructor' || role === 'Administrator');
}

/** GET /lti/jwks: a JSON Web Key Set (RFC 7517 §5) of the tool's public RSA keys. */
export const LtiJwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
