import { z } from 'zod';
import type { WorkspaceAgentClaims } from './workspace-agents.ts';

/** NIST SP 800-63B-4 §3.1.1.2: at least 15 characters for a single-factor password, 8 as a floor; we ask for 10. */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

/** An empty field asks for the address; anything else that is not one says so. */
const EmailSchema = z
  .email({ error: (issue) => (issue.input === '' ? 'Enter your email' : 'Enter a valid email address') })
  .max(320)
  .transform((e) => e.trim().toLowerCase());

/**
 * A password a creator chooses (sign-up, change, reset). The service also refuses a common or guessable one
 * (zxcvbn's scoring with the user's own words); its dictionaries are too large for the browser bundle, so it is
 * checked there only and the form shows the service's reason.
 */
export const NewPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** Sign-up: the password policy applies. */
export const CredentialsSchema = z.object({ email: EmailSchema, password: NewPasswordSchema });
export type Credentials = z.infer<typeof CredentialsSchema>;

/** Sign-in: any non-empty password, so an account created under an older, shorter policy can still sign in. */
export const LoginSchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Enter your password').max(MAX_PASSWORD_LENGTH),
});

export const PasswordChangeSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(MAX_PASSWORD_LENGTH),
  newPassword: NewPasswordSchema,
});
export type PasswordChange = z.infer<typeof PasswordChangeSchema>;

export const PasswordResetRequestSchema = z.object({ email: EmailSchema });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const PasswordResetConfirmSchema = z.object({
  token: z.string().min(1, 'The reset link is incomplete').max(200),
  password: NewPasswordSchema,
});
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirmSchema>;

/** The answer of the account actions (sign-out, password change, reset): a sentence to show. */
export const AuthNoticeSchema = z.object({ message: z.string() });
export type AuthNotice = z.infer<typeof AuthNoticeSchema>;

export const UserSchema = z.object({ id: z.string(), email: z.string(), createdAt: z.string() });
export type User = z.infer<typeof UserSchema>;

export const AuthResponseSchema = z.object({ token: z.string(), user: UserSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** The spec's sign-in/up messages (section 5). */
export const AuthMessages = {
  userNotFound: 'User not found. Please sign up first.',
  invalidPassword: 'Invalid password.',
  userExists: 'User already exists. Please sign in instead.',
  throttled: 'Too many failed sign-in attempts. Please wait a few minutes and try again.',
  commonPassword: 'This password is too common: it appears in lists of leaked passwords. Choose another.',
  /** Followed by the strength estimator's reason (zxcvbn's warning and suggestions). */
  weakPassword: 'This password is too easy to guess.',
  strengthTimeout: 'It repeats a pattern too much to be checked in time: choose another.',
  wrongCurrentPassword: 'The current password is not correct.',
  resetAccepted: 'If an account exists for that address, we have sent it a link to reset the password.',
  resetInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  resetThrottled: 'Too many reset requests. Please wait and try again.',
  sessionEnded: 'Your session has ended. Please sign in again.',
  signedOut: 'Signed out.',
  signedOutEverywhere: 'Signed out on every device.',
  passwordChanged: 'Password changed. Your other devices were signed out.',
  passwordReset: 'Your password was reset. Sign in with the new password.',
} as const;

/**
 * Claims of the JWTs the services exchange. One secret signs both kinds; `kind` keeps them apart.
 * A creator token names its sign-in session (`sid`); every service asks exam-service whether that session
 * is still open, so signing out ends the token everywhere at once (ARCHITECTURE.md, "Creator sessions").
 */
export const CreatorClaimsSchema = z.object({
  kind: z.literal('creator'),
  sub: z.string(),
  email: z.string(),
  sid: z.string(),
});
export type CreatorClaims = z.infer<typeof CreatorClaimsSchema>;

export const AttemptClaimsSchema = z.object({
  kind: z.literal('attempt'),
  sub: z.string(), // attempt id
  examId: z.string(),
  ownerId: z.string(), // the exam's creator
  name: z.string(),
  studentId: z.string(),
});
export type AttemptClaims = z.infer<typeof AttemptClaimsSchema>;

/** The third kind, a coding workspace's agent token, is accepted only by llm-gateway's agent endpoint. */
export type TokenClaims = CreatorClaims | AttemptClaims | WorkspaceAgentClaims;
