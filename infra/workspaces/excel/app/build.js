// Bundles src/main.js (Univer, React) into dist/ with relative asset URLs: the orchestrator serves the app under
// /workspace/{sessionId}/, so nothing may be addressed from the root.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

await mkdir('dist', { recursive: true });
await build({
  entryPoints: { app: 'src/main.js' },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  outdir: 'dist',
  publicPath: './',
  loader: { '.woff': 'file', '.woff2': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file' },
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
await copyFile('src/index.html', 'dist/index.html');
for (const file of ['dist/app.js', 'dist/app.css'])
  await writeFile(`${file}.gz`, gzipSync(await readFile(file), { level: 9 }));
