// Which of a service's test files reach a database: the files whose static import closure (relative imports,
// the workspace's @exam/* packages, dynamic imports, `vi.mock` factories' imports alike; `import type` left
// out, as it is erased) reaches a database module: the service's src/db/, @exam/server-kit's testing.ts or
// db.ts, drizzle-orm, postgres.js or PGlite. `pnpm test:pg` runs a service's files again on PostgreSQL; the
// files that reach none of these cannot behave differently there, so each service's vitest.config.ts lists
// them (`DATABASE_FREE`) and its test:pg pass leaves them out. scripts/test-database-files.test.ts fails when a
// listed file reaches a database module, so a file that touches the database cannot be left out silently.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

const DATABASE_SPECIFIERS = [/^drizzle-orm(\/|$)/, /^postgres$/, /^@electric-sql\/pglite(\/|$)/];
const DATABASE_FILES = [join(root, 'packages/server-kit/src/testing.ts'), join(root, 'packages/server-kit/src/db.ts')];

// import … from '…', export … from '…', import '…', import('…'); not `import type` / `export type`.
const STATIC = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(STATIC)) {
    if (m[2]) continue; // type-only
    found.push(m[3]!);
  }
  for (const m of source.matchAll(DYNAMIC)) found.push(m[1]!);
  return found;
}

function resolveWorkspace(specifier: string): string | undefined {
  const m = /^@exam\/([^/]+)(?:\/(.*))?$/.exec(specifier);
  if (!m) return undefined;
  for (const group of ['packages', 'services', 'apps']) {
    const pkgDir = join(root, group, m[1]!);
    if (!existsSync(join(pkgDir, 'package.json'))) continue;
    const exportsField = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).exports as
      Record<string, string | Record<string, string>> | undefined;
    const sub = m[2] ? `./${m[2]}` : '.';
    for (const [key, value] of Object.entries(exportsField ?? {})) {
      const target = typeof value === 'string' ? value : (value.import ?? value.default);
      if (!target) continue;
      if (key === sub) return join(pkgDir, target);
      if (key.endsWith('*') && sub.startsWith(key.slice(0, -1))) {
        return join(pkgDir, target.replace('*', sub.slice(key.length - 1)));
      }
    }
  }
  return undefined;
}

function resolveFile(from: string, specifier: string): string | undefined {
  let target: string | undefined;
  if (specifier.startsWith('.')) target = resolve(dirname(from), specifier);
  else target = resolveWorkspace(specifier);
  if (!target) return undefined;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')]) {
    if (existsSync(candidate) && /\.(ts|tsx|js|mjs)$/.test(candidate)) return candidate;
  }
  return undefined;
}

/** The chain of imports from `file` to a database module, or undefined when it reaches none. */
export function databasePath(file: string, serviceDir: string): string[] | undefined {
  const dbDir = join(serviceDir, 'src/db') + '/';
  const seen = new Set<string>();
  const visit = (current: string, chain: string[]): string[] | undefined => {
    if (seen.has(current)) return undefined;
    seen.add(current);
    if (current.startsWith(dbDir) || DATABASE_FILES.includes(current)) return chain;
    for (const specifier of specifiers(readFileSync(current, 'utf8'))) {
      if (DATABASE_SPECIFIERS.some((re) => re.test(specifier))) return [...chain, specifier];
      const next = resolveFile(current, specifier);
      if (!next) continue;
      const found = visit(next, [...chain, relative(root, next)]);
      if (found) return found;
    }
    return undefined;
  };
  return visit(file, [relative(root, file)]);
}
