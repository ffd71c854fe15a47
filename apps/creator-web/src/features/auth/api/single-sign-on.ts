import { SsoSessionResponseSchema, SsoStartResponseSchema } from '@exam/domain/organizations';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Asks exam-service where the e-mail's organization signs in; the browser then goes there. */
export function startSingleSignOn(email: string) {
  return apiRequest(api.ssoStart, {
    method: 'POST',
    body: { email },
    schema: SsoStartResponseSchema,
    anonymous: true,
  });
}

/** Exchanges the one-time ticket the provider's callback left in the fragment for a creator session. */
export function openSingleSignOnSession(ticket: string) {
  return apiRequest(api.ssoSession, {
    method: 'POST',
    body: { ticket },
    schema: SsoSessionResponseSchema,
    anonymous: true,
  });
}
