import { AuthResponseSchema, type AuthResponse, type Credentials } from '@exam/domain/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export type AuthMode = 'signin' | 'signup';

export function authenticate(mode: AuthMode, credentials: Credentials): Promise<AuthResponse> {
  const path = mode === 'signin' ? api.login : api.register;
  return apiRequest(path, { method: 'POST', body: credentials, schema: AuthResponseSchema, anonymous: true });
}

export function useAuthenticate() {
  return useMutation({
    mutationFn: ({ mode, credentials }: { mode: AuthMode; credentials: Credentials }) =>
      authenticate(mode, credentials),
  });
}
