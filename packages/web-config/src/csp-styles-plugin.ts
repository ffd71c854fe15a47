import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { NONCE_PLACEHOLDER } from './security-headers.ts';

const SONNER_ENTRY = /[\\/]sonner[\\/]dist[\\/]index\.mjs$/;
const GET_NONCE_ENTRY = /[\\/]get-nonce[\\/]dist[\\/]es2015[\\/]index\.js$/;
const STYLE_MOD_ENTRY = /[\\/]style-mod[\\/]src[\\/]style-mod\.js$/;
const SONNER_INJECTION = /^__insertCSS\(".*"\);?$/m;
const STYLE_MOD_NONCE = 'nonce = options && options.nonce';
const ZOD_CORE = /[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;
const ZOD_GLOBAL_CONFIG = '(_a.__zod_globalConfig = {})';
/** The nonce Vite writes into the page (<meta property="csp-nonce">, html.cspNonce), read at run time. */
const PAGE_NONCE = `(document.querySelector('meta[property="csp-nonce"]')?.nonce || undefined)`;

/**
 * Lets the built apps run under the strict policy of security-headers.ts (style-src without 'unsafe-inline',
 * script-src without 'unsafe-eval'):
 * - sonner injects its stylesheet as a <style> element when its module loads; the build drops that call
 *   and imports the same rules from the file sonner ships (sonner/dist/styles.css) instead.
 * - react-remove-scroll (Radix dialogs, menus, selects) writes <style> elements and asks get-nonce for a
 *   nonce, and CodeMirror's style-mod writes one with the nonce it is given; the build makes both fall back
 *   to the one Vite puts in the page (<meta property="csp-nonce">, html.cspNonce), which the web server
 *   replaces with a fresh value per response.
 * - zod probes `new Function('')` to decide whether to compile its parsers, which a script-src without
 *   'unsafe-eval' blocks and reports as a violation; the build starts zod with its own `jitless` setting
 *   (what `z.config({ jitless: true })` sets), so it never probes.
 * A build fails loudly if a library changes shape, rather than shipping code the policy blocks.
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
        return { code: `${code}\nsetNonce(${PAGE_NONCE});\n`, map: null };
      }
      if (ZOD_CORE.test(id)) {
        if (!code.includes(ZOD_GLOBAL_CONFIG)) this.error("zod's global config changed shape; update cspStylesPlugin");
        return { code: code.replace(ZOD_GLOBAL_CONFIG, '(_a.__zod_globalConfig = { jitless: true })'), map: null };
      }
      if (STYLE_MOD_ENTRY.test(id)) {
        if (!code.includes(STYLE_MOD_NONCE)) this.error('style-mod changed shape; update cspStylesPlugin');
        return {
          code: code.replace(STYLE_MOD_NONCE, `nonce = (options && options.nonce) || ${PAGE_NONCE}`),
          map: null,
        };
      }
      return undefined;
    },
  };
}
