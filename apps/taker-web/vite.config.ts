import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { appViteConfig } from '@exam/web-config/vite-preset';
import { createServer, defineConfig, type Plugin } from 'vite';

const preset = appViteConfig('taker-web');

type ManifestChunk = { file: string; imports?: string[] };
/** dist/prerendered.json, read by packages/web-server: per path, the page's file (under dist/) and its language. */
type PrerenderedPages = Record<string, { file: string; language: string; languages: string[] }>;

/**
 * The start page's HTML with its form already drawn (app/prerender.tsx, rendered here after the client build
 * through Vite's SSR loader), so a candidate sees the form before any script has loaded; main.tsx hydrates it.
 * Written to dist/prerendered/ with dist/prerendered.json saying which path it is for and in which language,
 * which packages/web-server reads. The start route's chunks are preloaded beside the entry, not after it.
 */
function prerenderStartPage(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'taker-prerender-start',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const server = await createServer({
        root,
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      let markup: string;
      let language: string;
      let languages: string[];
      try {
        const module = (await server.ssrLoadModule(
          '/src/app/prerender.tsx',
        )) as typeof import('./src/app/prerender.tsx');
        markup = await module.renderStartPage();
        language = module.PRERENDER_LANGUAGE;
        languages = [...module.LANGUAGES];
      } finally {
        await server.close();
      }
      const manifest = JSON.parse(await readFile(join(outDir, 'build-manifest.json'), 'utf8')) as Record<
        string,
        ManifestChunk
      >;
      const preload = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || preload.has(chunk.file)) return;
        preload.add(chunk.file);
        for (const next of chunk.imports ?? []) visit(next);
      };
      visit('src/app/routes/taker/start.tsx');
      const index = await readFile(join(outDir, 'index.html'), 'utf8');
      const links = [...preload]
        .filter((file) => !index.includes(`/${file}"`))
        .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
        .join('');
      const path = '/taker/start';
      const html = index
        .replace('</head>', `${links}</head>`)
        .replace(
          '<div id="root"></div>',
          `<div id="root" data-prerendered="${path}" data-language="${language}">${markup}</div>`,
        );
      if (!html.includes('data-prerendered')) this.error('index.html has no <div id="root"></div> to prerender into');
      const pages: PrerenderedPages = { [path]: { file: 'prerendered/taker-start.html', language, languages } };
      await mkdir(join(outDir, 'prerendered'), { recursive: true });
      await writeFile(join(outDir, pages[path]!.file), html);
      await writeFile(join(outDir, 'prerendered.json'), JSON.stringify(pages, null, 2));
    },
  };
}

// The build manifest (which chunk imports which) is what the page-weight budgets read (weight/page-weight.ts).
export default defineConfig({
  ...preset,
  plugins: [...(preset.plugins ?? []), prerenderStartPage()],
  build: {
    ...preset.build,
    manifest: 'build-manifest.json',
    // react-query in one chunk: left to Rollup, the exam page's lazy chunks split its core over three small chunks on
    // the entry's path, each with its own overhead (+0.9 kB).
    rollupOptions: { output: { manualChunks: (id) => (/@tanstack\/(react-)?query/.test(id) ? 'query' : undefined) } },
  },
});
