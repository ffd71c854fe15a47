import { describe, expect, it } from 'vitest';
import { redactSecrets } from './stream-reply.ts';

describe('redactSecrets', () => {
  it('removes every occurrence of each key from a log text', () => {
    const text = 'upstream answered 401: Incorrect API key provided: sk-canary-123456. Key sk-canary-123456 again; server sk-server-999';
    const redacted = redactSecrets(text, ['sk-canary-123456', 'sk-server-999']);
    expect(redacted).not.toContain('sk-canary-123456');
    expect(redacted).not.toContain('sk-server-999');
    expect(redacted.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('leaves a text alone when the key is too short to be a real one', () => {
    expect(redactSecrets('none of this', ['no'])).toBe('none of this');
  });
});
