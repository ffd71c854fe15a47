import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 6;

export const CredentialsSchema = z.object({
  email: z
    .email('Enter a valid email address')
    .max(320)
    .transform((e) => e.trim().toLowerCase()),
  password: z.string().min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`).max(200),
});
export type Credentials = z.infer<typeof CredentialsSchema>;

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
} as const;

/** Claims of the JWTs the services exchange. One secret signs both kinds; `kind` keeps them apart. */
export const CreatorClaimsSchema = z.object({ kind: z.literal('creator'), sub: z.string(), email: z.string() });
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

export type TokenClaims = CreatorClaims | AttemptClaims;
