/** The URLs of a registration: each names an origin of the LMS. */
export type RegisteredUrls = { issuer: string; authLoginUrl: string; authTokenUrl: string; jwksUrl: string };

/** The origin of an absolute http(s) URL; undefined for anything else. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origins of the registration's URLs: where its LMS lives, as far as its owner told us. */
export function registeredOrigins(platform: RegisteredUrls): Set<string> {
  const urls = [platform.issuer, platform.authLoginUrl, platform.authTokenUrl, platform.jwksUrl];
  return new Set(urls.map(originOf).filter((origin): origin is string => origin !== undefined));
}

/**
 * Whether a service URL (an AGS line item, an NRPS memberships URL) is on one of the registration's origins. The
 * tool sends the bearer token the registration's token endpoint issued to such URLs; a URL elsewhere is refused, so a
 * launch cannot point the tool at another LMS's course, nor carry an LMS's token to someone else's host.
 */
export function isRegisteredOrigin(platform: RegisteredUrls, url: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && registeredOrigins(platform).has(origin);
}
