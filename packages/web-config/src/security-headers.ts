import type { AppName } from './runtime-config.ts';

/**
 * The security headers of both apps' pages, in one place so the production web server (packages/web-server)
 * and anything else serving the built bundles send the same ones.
 *
 * - script-src 'self': the built index.html loads its entry by src, with no inline script (checked by the
 *   web server's tests on the real build).
 * - style-src 'self' 'nonce-…': Radix's scroll lock (react-remove-scroll, used by dialogs, menus and selects)
 *   writes a <style> element at run time, so styles carry a per-response nonce (web-config's
 *   cspStylesPlugin hands it to that library); sonner's stylesheet is bundled as a file instead of being
 *   injected. React's `style` props go through the CSSOM, which style-src does not govern
 *   (https://www.w3.org/TR/CSP3/#directive-style-src), and CodeMirror uses constructed stylesheets.
 * - frame-src: only the taker app frames anything, the coding workspace on WORKSPACE_ORIGIN.
 * - frame-ancestors: the creator app is never framed; the taker app only by itself.
 * - form-action: the creator app also posts to an LMS, the signed deep-linking response of LTI (Deep Linking 2.0
 *   §4.5 requires a form post to the platform's return URL, whichever LMS the creator registered): any https
 *   origin, and plain http only on this machine (development and the journeys' LMS simulator).
 */
const LOOPBACK_HTTP = ['http://localhost:*', 'http://127.0.0.1:*'] as const;

export type HeaderOptions = { app: AppName; workspaceOrigin: string; styleNonce: string };

export function contentSecurityPolicy({ app, workspaceOrigin, styleNonce }: HeaderOptions): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", `'nonce-${styleNonce}'`],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'frame-src': app === 'taker-web' ? [workspaceOrigin] : ["'none'"],
    'worker-src': ["'self'", 'blob:'],
    'frame-ancestors': app === 'taker-web' ? ["'self'"] : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': app === 'creator-web' ? ["'self'", 'https:', LOOPBACK_HTTP[0], LOOPBACK_HTTP[1]] : ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Powerful features the pages may use: fullscreen for the exam page (and nothing it frames); camera,
 * microphone, geolocation and the rest are off because neither app uses them.
 */
export const PERMISSIONS_POLICY = [
  'fullscreen=(self)',
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'display-capture=()',
].join(', ');

/** Vite writes this into the built index.html (html.cspNonce); the web server replaces it per response. */
export const NONCE_PLACEHOLDER = 'EXAM_CSP_NONCE';
