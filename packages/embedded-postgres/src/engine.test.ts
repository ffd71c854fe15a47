import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseEngine } from './engine.ts';

const runs = () => ({ ok: true as const });
const cannot = () => ({ ok: false as const, reason: 'no PostgreSQL binaries for linux-s390x' });
const choose = (requested: string | undefined, files: string[], native: typeof runs | typeof cannot = runs) =>
  chooseEngine({ requested, dataDir: '/data', exists: (p) => files.includes(p), native });

describe('the embedded engine', () => {
  it('is PostgreSQL on a fresh data folder and on one it made', () => {
    expect(choose(undefined, [])).toEqual({ engine: 'postgres' });
    expect(choose(undefined, [join('/data', 'postgresql', 'PG_VERSION')])).toEqual({ engine: 'postgres' });
    expect(choose('postgres', [])).toEqual({ engine: 'postgres' });
  });

  it('keeps a PGlite database found in the data folder, saying what to do to move', () => {
    const kept = choose(undefined, [join('/data', 'postgres', 'PG_VERSION')]);
    expect(kept.engine).toBe('pglite');
    expect(kept.note).toMatch(/holds a PGlite database.*move-to-postgres\.ts/s);
    // Asked for by name: no note; PostgreSQL asked for by name starts on its own folder.
    expect(choose('pglite', [join('/data', 'postgres', 'PG_VERSION')])).toEqual({ engine: 'pglite' });
    expect(choose('postgres', [join('/data', 'postgres', 'PG_VERSION')])).toEqual({ engine: 'postgres' });
    // Both folders: the PostgreSQL one is the newer.
    expect(
      choose(undefined, [join('/data', 'postgres', 'PG_VERSION'), join('/data', 'postgresql', 'PG_VERSION')]).engine,
    ).toBe('postgres');
  });

  it('falls back to PGlite where the binaries cannot run, unless PostgreSQL was asked for', () => {
    expect(choose(undefined, [], cannot)).toEqual({
      engine: 'pglite',
      note: 'Running the embedded database on PGlite: no PostgreSQL binaries for linux-s390x.',
    });
    expect(() => choose('postgres', [], cannot)).toThrow(/EMBEDDED_DB=postgres, but no PostgreSQL binaries/);
    expect(() => choose('mysql', [])).toThrow(/EMBEDDED_DB must be postgres or pglite/);
  });
});
