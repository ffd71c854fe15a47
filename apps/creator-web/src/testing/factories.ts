import { AiSettingsViewSchema } from '@exam/domain/exam-ai';
import { ExamSchema, type Exam } from '@exam/domain/exam';
import type { User } from '@exam/domain/auth';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${++sequence}`;

function base64Url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT-shaped token; the app only decodes it (the services verify signatures). */
export function makeToken({
  email = 'creator@example.com',
  expiresInSeconds = 3600,
}: { email?: string; expiresInSeconds?: number } = {}): string {
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url({ kind: 'creator', sub: 'user-1', email, exp })}.signature`;
}

export function makeUser(overrides: Partial<User> = {}): User {
  return { id: nextId('user'), email: 'creator@example.com', createdAt: '2025-01-05T10:00:00.000Z', ...overrides };
}

/** Signs a creator in the way the app does: token and user in localStorage. */
export function signInAs(email = 'creator@example.com'): string {
  const token = makeToken({ email });
  localStorage.setItem('authToken', token);
  localStorage.setItem('user', JSON.stringify(makeUser({ email })));
  return token;
}

type ExamOverrides = Partial<Omit<Exam, 'aiSettings'>> & { aiSettings?: Partial<Exam['aiSettings']> };

/** A valid exam as the service returns it (parsed by the domain schema, so tests cannot drift from it). */
export function makeExam(overrides: ExamOverrides = {}): Exam {
  const { aiSettings, ...rest } = overrides;
  const isDraft = rest.isDraft ?? true;
  return ExamSchema.parse({
    id: nextId('exam'),
    ownerId: 'user-1',
    title: 'Algorithms Midterm',
    questions: [],
    // An exam without an access code (ExamSchema requires the flag).
    hasAccessCode: false,
    isLive: false,
    isDraft,
    publishedAt: isDraft ? null : '2025-01-06T09:00:00.000Z',
    createdAt: '2025-01-05T10:00:00.000Z',
    lastEditedAt: '2025-01-07T12:00:00.000Z',
    updatedAt: '2025-01-07T12:00:00.000Z',
    ...rest,
    aiSettings: AiSettingsViewSchema.parse({ hasApiKey: false, apiKeyLast4: null, courseMaterials: [], ...aiSettings }),
  });
}
