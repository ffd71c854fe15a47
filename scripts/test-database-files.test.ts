import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databasePath } from './test-database-files.ts';

const root = resolve(import.meta.dirname, '..');
const SERVICES = ['exam-service', 'results-service', 'llm-gateway', 'workspace-orchestrator'];

describe('the PostgreSQL pass leaves out only files that reach no database', () => {
  for (const service of SERVICES) {
    const dir = join(root, 'services', service);

    it(`${service}: every file in DATABASE_FREE exists and reaches no database module`, async () => {
      const { DATABASE_FREE } = (await import(join(dir, 'vitest.config.ts'))) as { DATABASE_FREE: string[] };
      expect(DATABASE_FREE.length).toBeGreaterThan(0);
      for (const file of DATABASE_FREE) {
        expect(existsSync(join(dir, file)), `${service}/${file} is listed but does not exist`).toBe(true);
        const chain = databasePath(join(dir, file), dir);
        expect(chain, `${service}/${file} reaches a database: ${chain?.join(' → ')}`).toBeUndefined();
      }
    });

    it(`${service}: test:pg runs the database config, which excludes exactly DATABASE_FREE`, async () => {
      const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts as Record<string, string>;
      expect(scripts['test:pg']).toContain('run-if-pg.ts vitest run --config vitest.database.config.ts');
      const { DATABASE_FREE } = (await import(join(dir, 'vitest.config.ts'))) as { DATABASE_FREE: string[] };
      const config = (await import(join(dir, 'vitest.database.config.ts'))).default as {
        test: { include: string[]; exclude: string[] };
      };
      const base = (await import(join(dir, 'vitest.config.ts'))).default as { test: { include: string[] } };
      expect(config.test.include).toEqual(base.test.include);
      for (const file of DATABASE_FREE) expect(config.test.exclude).toContain(file);
      // Every other test file reaches a database (or is simply run twice): none of them is excluded.
      const excluded = new Set(config.test.exclude.filter((p) => p.startsWith('src/') && !p.includes('*')));
      expect([...excluded].sort()).toEqual([...DATABASE_FREE].sort());
    });
  }

  it('finds the database through relative imports, the workspace packages and the drivers', () => {
    const dir = join(root, 'services', 'exam-service');
    // A service suite through its test app: the shared test database of @exam/server-kit.
    const withApp = globSync('src/modules/**/*.test.ts', { cwd: dir })
      .map((file) => databasePath(join(dir, file), dir))
      .filter(Boolean);
    expect(withApp.length).toBeGreaterThan(10);
    expect(withApp.flat().some((step) => step?.includes('server-kit/src/testing.ts') || step?.includes('/db/'))).toBe(
      true,
    );
    // A file in server-kit that imports the driver directly.
    const serverKit = join(root, 'packages', 'server-kit');
    expect(databasePath(join(serverKit, 'src/db.ts'), serverKit)).toBeDefined();
  });
});
