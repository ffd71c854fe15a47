import {
  AuthNoticeSchema,
  type AuthNotice,
  type PasswordChange,
  type PasswordResetConfirm,
  type PasswordResetRequest,
} from '@exam/domain/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Ends this session on the server, so the token stops working everywhere at once. */
export function signOut(): Promise<AuthNotice> {
  return apiRequest(api.logout, { method: 'POST', schema: AuthNoticeSchema });
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: () => apiRequest(api.logoutAll, { method: 'POST', schema: AuthNoticeSchema }) });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: PasswordChange) =>
      apiRequest(api.changePassword, { method: 'POST', body, schema: AuthNoticeSchema }),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetRequest) =>
      apiRequest(api.passwordReset, { method: 'POST', body, schema: AuthNoticeSchema, anonymous: true }),
  });
}

export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: (body: PasswordResetConfirm) =>
      apiRequest(api.passwordResetConfirm, { method: 'POST', body, schema: AuthNoticeSchema, anonymous: true }),
  });
}
