import { UserSchema, type AuthResponse, type User } from '@exam/domain/auth';
import { LANGUAGE_STORAGE_KEY } from '../i18n/index.ts';

const TOKEN_KEY = 'authToken';
const USER_KEY = 'user';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveSession(session: AuthResponse): void {
  localStorage.setItem(TOKEN_KEY, session.token);
  localStorage.setItem(USER_KEY, JSON.stringify(session.user));
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}

/**
 * Sign-out (the dashboard header's button) clears all browser storage, so nothing of the creator stays behind,
 * except the language the page is read in: a device setting, not the creator's data.
 */
export function clearAllStorage(): void {
  const language = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  localStorage.clear();
  sessionStorage.clear();
  if (language) localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
}

export function findStoredUser(): User | undefined {
  const raw = localStorage.getItem(USER_KEY);
  if (!raw) return undefined;
  try {
    const parsed = UserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function decodePayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The guard's check: a token that decodes and whose exp is still in the future. */
export function isTokenUsable(token: string | null, nowMs = Date.now()): token is string {
  if (!token) return false;
  const payload = decodePayload(token);
  if (!payload || typeof payload.exp !== 'number') return false;
  return payload.exp * 1000 > nowMs;
}

/** The email in the token, used when the stored user is missing. */
export function emailOfToken(token: string): string | undefined {
  const email = decodePayload(token)?.email;
  return typeof email === 'string' ? email : undefined;
}
