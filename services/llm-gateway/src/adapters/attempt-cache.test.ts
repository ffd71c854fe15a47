import type { InternalAttempt } from '@exam/domain/internal';
import { describe, expect, it } from 'vitest';
import type { AttemptSource } from '../deps.ts';
import { cachedAttemptSource } from './platform-clients.ts';

function counting(attempts: Record<string, Partial<InternalAttempt>>) {
  const asked: string[] = [];
  const source: AttemptSource = {
    async findAttempt(id) {
      asked.push(id);
      const a = attempts[id];
      return a
        ? {
            attemptId: id,
            examId: 'e',
            ownerId: 'o',
            startedAt: '2026-01-01T00:00:00Z',
            deadline: null,
            submittedAt: null,
            isOpen: true,
            ...a,
          }
        : undefined;
    },
  };
  return { source, asked };
}

describe('attempt cache', () => {
  it('asks results-service once per ttl for an open attempt', async () => {
    let now = 0;
    const { source, asked } = counting({ a: {} });
    const cached = cachedAttemptSource(source, { ttlMs: 5000, now: () => now });
    await cached.findAttempt('a');
    now = 4999;
    expect((await cached.findAttempt('a'))?.isOpen).toBe(true);
    expect(asked).toEqual(['a']);
    now = 5000;
    await cached.findAttempt('a');
    expect(asked).toEqual(['a', 'a']);
  });

  it('never remembers a closed or unknown attempt', async () => {
    const { source, asked } = counting({ closed: { isOpen: false } });
    const cached = cachedAttemptSource(source, { ttlMs: 5000, now: () => 0 });
    await cached.findAttempt('closed');
    await cached.findAttempt('closed');
    await cached.findAttempt('missing');
    await cached.findAttempt('missing');
    expect(asked).toEqual(['closed', 'closed', 'missing', 'missing']);
  });

  it('asks again once the attempt deadline has passed, even within the ttl', async () => {
    let now = Date.parse('2026-01-01T10:00:00Z');
    const { source, asked } = counting({ a: { deadline: '2026-01-01T10:00:02Z' } });
    const cached = cachedAttemptSource(source, { ttlMs: 5000, now: () => now });
    await cached.findAttempt('a');
    now += 1000;
    await cached.findAttempt('a');
    now += 1000;
    await cached.findAttempt('a');
    expect(asked).toEqual(['a', 'a']);
  });

  it('keeps at most maxEntries attempts, dropping the least recently used', async () => {
    const { source, asked } = counting({ a: {}, b: {}, c: {} });
    const cached = cachedAttemptSource(source, { ttlMs: 5000, now: () => 0, maxEntries: 2 });
    await cached.findAttempt('a');
    await cached.findAttempt('b');
    await cached.findAttempt('a');
    await cached.findAttempt('c');
    asked.length = 0;
    await cached.findAttempt('a');
    await cached.findAttempt('b');
    expect(asked).toEqual(['b']);
  });

  it('passes every call through when the ttl is 0', async () => {
    const { source, asked } = counting({ a: {} });
    const cached = cachedAttemptSource(source, { ttlMs: 0, now: () => 0 });
    await cached.findAttempt('a');
    await cached.findAttempt('a');
    expect(asked).toEqual(['a', 'a']);
  });
});
