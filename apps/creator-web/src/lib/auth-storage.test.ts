import { describe, expect, it } from 'vitest';
import { makeToken } from '../testing/factories.ts';
import { emailOfToken, isTokenUsable } from './auth-storage.ts';

describe('isTokenUsable', () => {
  it('accepts a token whose exp is in the future', () => {
    expect(isTokenUsable(makeToken({ expiresInSeconds: 60 }))).toBe(true);
  });

  it('rejects a token whose exp has passed', () => {
    expect(isTokenUsable(makeToken({ expiresInSeconds: -1 }))).toBe(false);
  });

  it('rejects missing, malformed and exp-less tokens', () => {
    expect(isTokenUsable(null)).toBe(false);
    expect(isTokenUsable('garbage')).toBe(false);
    expect(isTokenUsable('a.###.c')).toBe(false);
    expect(isTokenUsable(`x.${btoa(JSON.stringify({ sub: 'u' }))}.y`)).toBe(false);
  });

  it('reads the email claim', () => {
    expect(emailOfToken(makeToken({ email: 'ada@example.com' }))).toBe('ada@example.com');
  });
});
