import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { NONCE_PLACEHOLDER } from './security-headers.ts';

const SONNER_ENTRY = /[\\/]sonner[\\/]dist[\\/]index\.mjs$/;
const GET_NONCE_ENTRY = /[\\/]get-nonce[\\/]dist[\\/]es2015[\\/]index\.js$/;
const SONNER_INJECTION = /^__insertCSS\(".*"\);?$/m;

/**
 * Lets the built apps run under a style-src without 'unsafe-inline' (see security-headers.ts):
 * - sonner injects its stylesheet as a <style> element when its module loads; the build drops that call
 *   and imports the same rules from the file sonner ships (sonner/dist/styles.css) instead.
 * - react-remove-scroll (Radix dialogs, menus, selects) writes <style> elements and asks get-nonce for a
 *   nonce; the build makes get-nonce read the one Vite puts in the page (<meta property="csp-nonce">,
 *   html.cspNonce), which the web server replaces with a fresh value per response.
 * A build fails loudly if either library changes shape, rather than shipping styles the policy blocks.
 * Only for `vite build`: the dev server sends no policy.
 */
export function cspStylesPlugin(): Plugin {
  return {
    name: 'exam-csp-styles',
    apply: 'build',
    enforce: 'pre',
    config: () => ({ html: { cspNonce: NONCE_PLACEHOLDER } }),
    transform(code, id) {
      if (SONNER_ENTRY.test(id)) {
        if (!SONNER_INJECTION.test(code))
          this.error('sonner no longer injects its CSS as expected; update cspStylesPlugin');
        const stylesheet = JSON.stringify(join(dirname(id), 'styles.css'));
        return { code: `import ${stylesheet};\n${code.replace(SONNER_INJECTION, '')}`, map: null };
      }
      if (GET_NONCE_ENTRY.test(id)) {
        if (!code.includes('export var getNonce')) this.error('get-nonce changed shape; update cspStylesPlugin');
        return {
          code: `${code}\nsetNonce(document.querySelector('meta[property="csp-nonce"]')?.nonce || undefined);\n`,
          map: null,
        };
      }
      return undefined;
    },
  };
}
