import { calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** Context roles of LTI Core 1.3 §A.2.3. */
export const Roles = {
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  administrator: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
} as const;

export type SimUser = {
  /** The LMS's stable id of the user (the id_token's `sub`). */
  sub: string;
  name?: string;
  givenName?: string;
  familyName?: string;
  email?: string;
  /** `lis.person_sourcedid`: the institution's id of the person (SIS), when the LMS knows one. */
  personSourcedId?: string;
};

/** A placement of the tool in a course, as the LMS keeps it after a deep-linking response. */
export type Placement = {
  resourceLinkId: string;
  title: string;
  /** Where launches of this link go (the content item's url, else the tool's launch URL). */
  url: string;
  custom: Record<string, string>;
  /** The content item's lineItem, when it asked for a gradebook column. */
  lineItem?: { scoreMaximum: number; label?: string; resourceId?: string; tag?: string };
};

/** One launch the simulator will answer when the tool's authentication request comes back. */
export type LaunchSpec = {
  user: SimUser;
  roles: string[];
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  /** The resource link of a resource-link launch (a placement, or made up). */
  resourceLink?: { id: string; title?: string };
  context?: { id: string; title?: string; label?: string };
  custom?: Record<string, string>;
  targetLinkUri?: string;
  deploymentId?: string;
  /** Deep linking: the opaque `data` the tool must echo, and where the response goes (default: the simulator). */
  deepLinking?: { data?: string; returnUrl?: string; acceptTypes?: string[] };
  /**
   * Faults for negative tests: claims merged over the id_token's (undefined removes one), another audience,
   * a signature by a key the simulator does not publish, an id_token already expired.
   */
  faults?: {
    claims?: Record<string, unknown>;
    signWithUnpublishedKey?: boolean;
    expired?: boolean;
    /** Answers with this nonce instead of the one the tool sent. */
    nonce?: string;
    /** Issues the id_token this many seconds from now (a clock ahead, or a token minted for later); exp follows. */
    issuedInSeconds?: number;
  };
};

export type DeepLinkResponse =
  | { ok: true; claims: Record<string, unknown>; contentItems: Array<Record<string, unknown>>; placement?: Placement }
  | { ok: false; error: string };

export type SigningPair = { kid: string; privateKey: CryptoKey; publicJwk: JWK };

export async function makeSigningPair(): Promise<SigningPair> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { modulusLength: 2048 });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } };
}

/**
 * What the simulator's routes share: the registration, its keys, the tool it talks to, and what it recorded.
 * advantage.ts (Assignment and Grade Services, Names and Role Provisioning) reads and extends the same object.
 */
export type SimulatorState = {
  origin: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  tool: ToolEndpoints;
  key: SigningPair;
  /** A key the simulator never publishes, for the bad-signature test. */
  strayKey: SigningPair;
  launches: Map<string, LaunchSpec>;
  deepLinkResponses: DeepLinkResponse[];
  /** Resource links created from deep-linking responses, by resource link id. */
  placements: Map<string, Placement>;
  /** Authentication requests refused, with the reason (a test can assert the tool sent a good one). */
  authErrors: string[];
};

export type ToolEndpoints = {
  /** OIDC login initiation URL (LTI Core 1.3 §5.1.1). */
  loginUrl: string;
  /** The redirect URI the id_token is posted to; also the default target link URI. */
  launchUrl: string;
  /** Redirect URI of deep-linking requests (defaults to launchUrl). */
  deepLinkingUrl?: string;
  jwksUrl: string;
};
