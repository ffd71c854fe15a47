import { bareHost, hostVerdict, type Resolve } from '@exam/server-kit/internal-address';
import { LtiServiceError } from './lti-service-token.ts';

/**
 * Where exam-service may send the requests an LMS's URLs ask for (token endpoint, AGS line items, NRPS memberships).
 * Those URLs come from a creator's registration and from launches, so they are someone else's input: without
 * `allowLocal` only https (1EdTech Security Framework 1.0 requires TLS between tool and platform) to hosts
 * whose every address is public is called; a loopback, private, link-local, unique-local or other special-purpose
 * address (server-kit's internal-address.ts) is refused with the reason. `allowLocal` (LTI_ALLOW_LOOPBACK_HTTP:
 * development, tests, an LMS simulator on this machine) lets http and those addresses through.
 *
 * The check resolves the name before the request; a DNS answer that changes between the check and the
 * connection is not caught here.
 */
export function createLtiEgress(opts: { allowLocal: boolean; resolve?: Resolve }) {
  const refuse = (message: string) => new LtiServiceError('LMS_ADDRESS_REFUSED', message, false);

  async function check(target: string): Promise<void> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw refuse(`The LMS URL ${target} is not a URL`);
    }
    if (url.protocol !== 'https:' && !(opts.allowLocal && url.protocol === 'http:'))
      throw refuse(`The LMS URL ${url.origin} is not https`);
    if (opts.allowLocal) return;
    const host = bareHost(url.hostname);
    const verdict = await hostVerdict(host, opts.resolve);
    if (verdict === 'unresolvable') throw refuse(`The LMS host ${host} could not be resolved`);
    if (verdict === 'internal')
      throw refuse(`The LMS host ${host} resolves to a loopback, private or link-local address, which is not called`);
  }

  return {
    check,
    /** `fetch` that checks every URL first (redirects are not followed: the LMS's services answer directly). */
    guard(inner: typeof fetch): typeof fetch {
      return async (input, init) => {
        const url = input instanceof Request ? input.url : input.toString();
        await check(url);
        return inner(input, { ...init, redirect: 'manual' });
      };
    },
  };
}
export type LtiEgress = ReturnType<typeof createLtiEgress>;
