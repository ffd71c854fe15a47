import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';

/** Test helpers: the committed sample files (src/fixtures, written for this repository; see its README). */
export const fixturesDir = join(import.meta.dirname, 'fixtures');
export const fixture = (path: string) => readFileSync(join(fixturesDir, path));
export const fixtureText = (path: string) => readFileSync(join(fixturesDir, path), 'utf8');

/** Zips a fixture folder as it sits on disk, as a creator would zip an unpacked package. */
export function zipFolder(path: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const root = join(fixturesDir, path);
  const files: Record<string, Uint8Array> = { ...extra };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(root, full)] = readFileSync(full);
    }
  };
  walk(root);
  return zipSync(files);
}
