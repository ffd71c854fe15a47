import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { resetTakerDbForTests } from '../lib/taker-db.ts';
import { server } from './server.ts';

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

// Lazy route modules are transformed on first use, which can take a few seconds on a cold run.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(() => {
  // A fresh, empty IndexedDB per test: no test depends on another's data.
  globalThis.indexedDB = new IDBFactory();
  resetTakerDbForTests();
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
    ({ matches: false, media: query, onchange: null, addEventListener: () => {}, removeEventListener: () => {}, addListener: () => {}, removeListener: () => {}, dispatchEvent: () => false }) as MediaQueryList;
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
  return { x: -10_000, y: -10_000, top: -10_000, left: -10_000, bottom: -9_999, right: -9_999, width: 1, height: 1, toJSON: () => ({}) } as DOMRect;
};
