// Writes infra/k8s/generated/*.yaml from the typed manifests (docs/deploy.md). The test
// (manifests.test.ts) fails when the committed files differ from what this writes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestsOf } from './manifests.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { renderFile } from './render.ts';

export const GENERATED_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../generated');

export function generatedFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifestsOf(DEFAULT_OPTIONS)).map(([name, objects]) => [`${name}.yaml`, renderFile(objects)]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(GENERATED_DIR, { recursive: true });
  for (const file of readdirSync(GENERATED_DIR)) rmSync(join(GENERATED_DIR, file));
  for (const [file, text] of Object.entries(generatedFiles())) writeFileSync(join(GENERATED_DIR, file), text);
  console.log(`wrote ${Object.keys(generatedFiles()).length} files to ${GENERATED_DIR}`);
}
