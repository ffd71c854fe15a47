import { LtiLaunchGrantClaimsSchema } from '@exam/domain/lti';

/**
 * The name and candidate ID an LMS launch's grant names, for showing them: the page reads the grant without
 * checking it, results-service checks it when the briefing is asked for and when the attempt starts.
 */
export function identityOfGrant(grant: string): { name: string; studentId: string } | undefined {
  const part = grant.split('.')[1];
  if (!part) return undefined;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const parsed = LtiLaunchGrantClaimsSchema.safeParse(JSON.parse(json));
    return parsed.success ? { name: parsed.data.name, studentId: parsed.data.studentId } : undefined;
  } catch {
    return undefined;
  }
}
