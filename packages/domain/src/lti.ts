import { z } from 'zod';
import { UserSchema } from './auth.ts';
import { AttemptLtiLinkSchema } from './lti-ags.ts';

/**
 * LTI 1.3 (1EdTech LTI Core 1.3, Deep Linking 2.0): the platform registrations a creator keeps, the tool's own
 * configuration they paste into their LMS, and the claims the tool reads. ARCHITECTURE.md "LTI" has the flows.
 */

export const LtiMessages = {
  httpsRequired: 'Must be an https:// URL (http:// only for localhost or 127.0.0.1)',
  badUrl: 'Must be a URL',
  deploymentRequired: 'Add at least one deployment ID',
  duplicate: 'A platform with this issuer and client ID is already registered',
  ticketInvalid: 'This LMS launch has expired or was already used. Open the link in your LMS again.',
  notPlatformOwner: 'Only the creator who registered this LMS can link an account to it.',
  alreadyLinked: 'This LMS account is already linked to another creator account.',
  notInstructor: 'Only an instructor can choose the exam for an LMS link.',
  grantInvalid: 'This LMS launch has expired. Open the exam from your LMS again.',
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

/** POST /api/lti/launches/session, /api/lti/launches/link: the ticket an instructor's launch left in the URL. */
export const LtiTicketSchema = z.object({ ticket: z.string().min(1).max(200) });

/** Where an instructor goes once signed in: the exam of the link, or the deep-linking picker. */
export const LtiLaunchNextSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exam'), examId: z.string() }),
  z.object({ kind: z.literal('deep-link') }),
]);
export type LtiLaunchNext = z.infer<typeof LtiLaunchNextSchema>;

export const LtiLaunchSessionSchema = z.discriminatedUnion('status', [
  /** The LMS account is linked: a creator session was opened for the linked creator. */
  z.object({ status: z.literal('signed-in'), token: z.string(), user: UserSchema, next: LtiLaunchNextSchema }),
  /** Not linked yet: the creator signs in, then links (POST /api/lti/launches/link). */
  z.object({ status: z.literal('link-required'), platformName: z.string() }),
]);
export type LtiLaunchSession = z.infer<typeof LtiLaunchSessionSchema>;

export const LtiLinkAccountResponseSchema = z.object({ next: LtiLaunchNextSchema });

/** POST /api/lti/deep-links: the exam picked for a deep-linking request. */
export const LtiDeepLinkChoiceSchema = z.object({
  ticket: z.string().min(1).max(200),
  examId: z.string().min(1).max(64),
});
/** The signed LtiDeepLinkingResponse the creator app posts (as the form field JWT) to the LMS's return URL. */
export const LtiDeepLinkResponseSchema = z.object({ returnUrl: z.string(), jwt: z.string() });
export type LtiDeepLinkResponse = z.infer<typeof LtiDeepLinkResponseSchema>;

/**
 * The claims of a learner's launch grant: the identity an LMS launch fixed (name, candidate ID = the launch's `sub`)
 * for one exam, and the LMS link results-service stores on the attempt. exam-service signs it with the shared
 * secret after validating the launch; the taker app hands it to POST /api/attempts unchanged.
 */
export const LtiLaunchGrantClaimsSchema = z.object({
  kind: z.literal('lti-launch'),
  examId: z.string(),
  name: z.string(),
  studentId: z.string(),
  lti: AttemptLtiLinkSchema,
});
export type LtiLaunchGrantClaims = z.infer<typeof LtiLaunchGrantClaimsSchema>;

/** The name a launch gives the learner (LTI Core 1.3 §5.3.6.1: name, else given and family name, else the sub). */
export function launchDisplayName(claims: { name?: unknown; given_name?: unknown; family_name?: unknown }): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const full = text(claims.name);
  if (full) return full;
  return [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
}

/**
 * The points of the exam as one candidate sits it (every question outside a pool, and each pool's draw at the
 * pool's points): the maximum of the LMS gradebook column a deep link creates. At least 1, as AGS requires a
 * positive scoreMaximum.
 */
export function examMaxPoints(
  questions: ReadonlyArray<{ points: number; poolId: string | null }>,
  pools: ReadonlyArray<{ id: string; draw: number; points: number }>,
): number {
  const pooled = new Set(pools.map((p) => p.id));
  const fixed = questions.filter((q) => q.poolId === null || !pooled.has(q.poolId));
  const cents =
    fixed.reduce((sum, q) => sum + Math.round(q.points * 100), 0) +
    pools.reduce((sum, p) => sum + p.draw * Math.round(p.points * 100), 0);
  return Math.max(cents / 100, 1);
}
