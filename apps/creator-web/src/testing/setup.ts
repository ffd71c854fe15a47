import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { changeLanguage, LANGUAGES, loadLanguage } from '../i18n/index.ts';
import { server } from './server.ts';

// The machine running the suite is shared and slow; the first render of a file compiles a lot (the lazy
// exam editor took over 5 s at load 12 on 2 cores). A wait only lasts this long when it is failing.
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks the pointer-capture and layout APIs Radix calls while opening popovers.
if (!Element.prototype.hasPointerCapture) {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.setPointerCapture = () => undefined;
  Element.prototype.releasePointerCapture = () => undefined;
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// react-router's data router builds Request objects with jsdom's AbortSignal, which Node's Request
// refuses; the tests never abort navigations, so the signal is dropped here.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init ? { ...init, signal: undefined } : init);
  }
};

// Every language's catalogues up front: a test may switch language and read it at once.
await Promise.all(LANGUAGES.map(loadLanguage));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Tests read the English text; a test that switches language does not leak it into the next.
beforeEach(() => changeLanguage('en'));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());
