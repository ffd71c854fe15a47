import { UNREACHABLE_HEADER } from '@exam/domain/api-error';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { server } from '../testing/server.ts';
import { apiRequest, platformStartingRetry } from './api-client.ts';

const { toast } = vi.hoisted(() => ({ toast: { loading: vi.fn(), dismiss: vi.fn() } }));
vi.mock('@exam/ui/toaster', () => ({ toast }));

const unreachable = () =>
  HttpResponse.json(
    {
      error: { code: 'UNAVAILABLE', message: 'The platform is starting or restarting. Please try again in a moment.' },
    },
    { status: 503, headers: { 'retry-after': '2', [UNREACHABLE_HEADER]: '1' } },
  );

describe('apiRequest while the platform starts', () => {
  const saved = { ...platformStartingRetry };
  beforeEach(() => Object.assign(platformStartingRetry, { windowMs: 2_000, firstDelayMs: 10, maxDelayMs: 40 }));
  afterEach(() => {
    Object.assign(platformStartingRetry, saved);
    vi.clearAllMocks();
  });

  it('resends a POST the proxy could not deliver, says the platform is starting, and returns the answer', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/signup', async ({ request }) => {
        bodies.push(await request.json());
        return bodies.length < 3 ? unreachable() : HttpResponse.json({ token: 't1' }, { status: 201 });
      }),
    );
    const signup = apiRequest('/api/auth/signup', {
      method: 'POST',
      body: { email: 'new@example.com' },
      schema: z.object({ token: z.string() }),
      anonymous: true,
    });
    await expect(signup).resolves.toEqual({ token: 't1' });
    expect(bodies).toEqual([{ email: 'new@example.com' }, { email: 'new@example.com' }, { email: 'new@example.com' }]);
    expect(toast.loading).toHaveBeenCalledWith('The platform is starting…', { id: 'platform-starting' });
    expect(toast.dismiss).toHaveBeenCalledWith('platform-starting');
  });

  it("does not resend a 503 the service sent itself, and gives the service's error at once", async () => {
    let calls = 0;
    server.use(
      http.post('/api/auth/signup', () => {
        calls += 1;
        return HttpResponse.json(
          { error: { code: 'UNAVAILABLE', message: 'Database is unavailable' } },
          { status: 503 },
        );
      }),
    );
    const signup = apiRequest('/api/auth/signup', { method: 'POST', body: {}, schema: z.unknown(), anonymous: true });
    await expect(signup).rejects.toMatchObject({
      status: 503,
      code: 'UNAVAILABLE',
      userMessage: 'Database is unavailable',
    });
    expect(calls).toBe(1);
    expect(toast.loading).not.toHaveBeenCalled();
  });

  it('gives the normal error once the retry window has passed', async () => {
    platformStartingRetry.windowMs = 150;
    let calls = 0;
    server.use(
      http.get('/api/exams', () => {
        calls += 1;
        return unreachable();
      }),
    );
    await expect(apiRequest('/api/exams', { schema: z.unknown() })).rejects.toMatchObject({
      status: 503,
      code: 'UNAVAILABLE',
    });
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(10);
    expect(toast.dismiss).toHaveBeenCalledWith('platform-starting');
  });
});
