import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestPreviewToken } from './preview-token.ts';

function withOpener(reply: (origin: string) => void) {
  const opener = { postMessage: vi.fn((_message: unknown, origin: string) => reply(origin)) };
  Object.defineProperty(window, 'opener', { value: opener, configurable: true, writable: true });
  return opener;
}

const send = (data: unknown, origin: string) => window.dispatchEvent(new MessageEvent('message', { data, origin }));

describe('requestPreviewToken', () => {
  afterEach(() => {
    window.opener = null;
  });

  it('resolves null at once when the page has no opener', async () => {
    await expect(requestPreviewToken('http://creator.test')).resolves.toBeNull();
  });

  it('ignores a token posted from another origin and takes the creator origin one', async () => {
    withOpener(() => {
      setTimeout(() => send({ type: 'preview-token', token: 'forged' }, 'http://evil.test'));
      setTimeout(() => send({ type: 'preview-token', token: 'real' }, 'http://creator.test'), 10);
    });
    await expect(requestPreviewToken('http://creator.test')).resolves.toBe('real');
  });

  it('gives up with null when the opener does not answer in time', async () => {
    withOpener(() => undefined);
    await expect(requestPreviewToken('http://creator.test', 30)).resolves.toBeNull();
  });
});
