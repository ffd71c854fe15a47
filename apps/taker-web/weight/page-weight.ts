import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What each candidate page makes the browser download before it can show anything, read from Vite's build
 * manifest (dist/build-manifest.json): a route's eager set is the entry script plus every chunk reachable from
 * the route's module through static imports. Dynamic imports (the code editor, grammars, the Markdown and math
 * renderers) are left out: they are fetched only when a component asks for them.
 */

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

export const DIST = join(import.meta.dirname, '..', 'dist');

/** The route modules the budgets are about (keys of the manifest). */
export const ROUTES = {
  start: 'src/app/routes/taker/start.tsx',
  exam: 'src/app/routes/exam/exam.tsx',
} as const;

export function readManifest(dist = DIST): Manifest {
  return JSON.parse(readFileSync(join(dist, 'build-manifest.json'), 'utf8')) as Manifest;
}

function entryKey(manifest: Manifest): string {
  const keys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (keys.length !== 1) throw new Error(`expected one entry in the manifest, found ${keys.length}`);
  return keys[0]!;
}

/** Manifest keys reachable from `from` through static imports (itself included). */
export function staticClosure(manifest: Manifest, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
  };
  visit(from);
  return seen;
}

/** The source modules bundled into a built file (a path under dist/), from its source map. */
export function sourcesOf(file: string): string[] {
  return (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources;
}

/**
 * The manifest key of the chunk holding a module. A route module is its own key unless Rollup merged it into a
 * shared chunk (`_name-hash.js`); then the chunk is found by the module among its source map's sources.
 */
export function chunkOf(manifest: Manifest, module: string, dist = DIST): string {
  if (manifest[module]) return module;
  const holders = Object.keys(manifest).filter(
    (key) =>
      manifest[key]!.file.endsWith('.js') &&
      sourcesOf(join(dist, manifest[key]!.file)).some((source) => source.endsWith(`/${module}`)),
  );
  if (holders.length !== 1) throw new Error(`${module} is in ${holders.length} chunks of the build, not one`);
  return holders[0]!;
}

/** Manifest keys of the entry script and, for a route, everything it loads before rendering. */
export function eagerKeys(manifest: Manifest, route?: string, dist = DIST): Set<string> {
  const keys = staticClosure(manifest, entryKey(manifest));
  if (route) for (const key of staticClosure(manifest, chunkOf(manifest, route, dist))) keys.add(key);
  return keys;
}

/** The JavaScript files (paths under dist/) of a set of manifest keys. */
export function jsFiles(manifest: Manifest, keys: Iterable<string>, dist = DIST): string[] {
  return [...keys]
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(dist, file))
    .sort();
}

/** Manifest keys whose source module matches (e.g. the code editor's, a grammar package's). */
export function keysFrom(manifest: Manifest, pattern: RegExp): string[] {
  return Object.keys(manifest).filter((key) => pattern.test(manifest[key]!.src ?? key));
}

/**
 * A page the build wrote as HTML with its content drawn (vite.config.ts, app/prerender.tsx; dist/prerendered.json
 * maps its path to the file): what shows it is that HTML and the stylesheets it links, with no script, since the
 * scripts it names are modules (deferred until the page is parsed, and not needed for it to show).
 */
export function prerenderedPage(path: string, dist = DIST): { file: string; html: string; stylesheets: string[] } {
  const pages = JSON.parse(readFileSync(join(dist, 'prerendered.json'), 'utf8')) as Record<string, { file: string }>;
  const page = pages[path];
  if (!page) throw new Error(`${path} is not prerendered (dist/prerendered.json)`);
  const file = join(dist, page.file);
  const html = readFileSync(file, 'utf8');
  const stylesheets = [...html.matchAll(/<link rel="stylesheet"[^>]* href="\/([^"]+)"/g)].map((m) => join(dist, m[1]!));
  return { file, html, stylesheets };
}
