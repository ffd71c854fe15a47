import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base, { DATABASE_FREE } from './vitest.config.ts';

// `pnpm test:pg` (scripts/run-if-pg.ts): the suite again on a real PostgreSQL database, the files that reach
// no database module left out (DATABASE_FREE in vitest.config.ts; scripts/test-database-files.test.ts checks it).
export default mergeConfig(base, defineConfig({ test: { exclude: [...configDefaults.exclude, ...DATABASE_FREE] } }));
