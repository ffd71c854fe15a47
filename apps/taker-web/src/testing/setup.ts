import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { Blob as NodeBlob } from 'node:buffer';
import { readBytes } from '../features/exam/lib/uploads.ts';
import { resetTakerDbForTests } from '../lib/taker-db.ts';
import { server } from './server.ts';
import { i18n, loadLanguage, LANGUAGES } from '../i18n/index.ts';

// Every language's catalogues up front: tests switch languages with i18n.changeLanguage directly.
await Promise.all(LANGUAGES.map(loadLanguage));

/**
 * jsdom brings its own AbortSignal, which Node's Request refuses; react-router builds a Request with
 * one on every navigation. The signal is dropped in tests only (nothing here aborts navigations).
 */
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    if (init?.signal) {
      const { signal: _signal, ...rest } = init;
      super(input, rest);
    } else super(input, init);
  }
};

// Lazy route modules are transformed on first use, which can take several seconds on a cold, loaded run.
configure({ asyncUtilTimeout: 15_000 });

/**
 * jsdom's FormData is not the one Node's fetch knows: it would go out as the text "[object FormData]".
 * Multipart bodies are encoded here instead, the way a browser sends them. Installed after msw so the
 * handlers see the encoded request.
 */
async function encodeMultipart(form: FormData): Promise<{ body: NodeBlob; contentType: string }> {
  const boundary = `----exam-test-${crypto.randomUUID()}`;
  const parts: Array<string | Uint8Array> = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    } else {
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`,
      );
      parts.push(new Uint8Array(await readBytes(value)), '\r\n');
    }
  }
  parts.push(`--${boundary}--\r\n`);
  return { body: new NodeBlob(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  const fetchThroughMsw = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!(init?.body instanceof FormData)) return fetchThroughMsw(input, init);
    const { body, contentType } = await encodeMultipart(init.body);
    const headers = new Headers(init.headers);
    headers.set('content-type', contentType);
    return fetchThroughMsw(input, { ...init, headers, body: body as unknown as BodyInit });
  };
});

beforeEach(() => {
  // A fresh, empty IndexedDB per test: no test depends on another's data.
  globalThis.indexedDB = new IDBFactory();
  resetTakerDbForTests();
  window.localStorage.clear();
  // Tests read the English text; a test that switches language does not leak it into the next.
  void i18n.changeLanguage('en');
  // jsdom reports no focus until something is focused; a real page that just loaded has it.
  vi.spyOn(document, 'hasFocus').mockReturnValue(true);
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
});

afterAll(() => server.close());

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/**
 * jsdom lays nothing out, so every rectangle is 0×0 at the origin and react-resizable-panels would take
 * any pointer press for a press on its handle (preventing focus). Handles are placed off-screen instead.
 */
const boundingRect = Element.prototype.getBoundingClientRect;
Element.prototype.getBoundingClientRect = function getBoundingClientRect(this: Element) {
  if (!this.hasAttribute('data-panel-resize-handle-id')) return boundingRect.call(this);
  return {
    x: -10_000,
    y: -10_000,
    top: -10_000,
    left: -10_000,
    bottom: -9_999,
    right: -9_999,
    width: 1,
    height: 1,
    toJSON: () => ({}),
  } as DOMRect;
};
