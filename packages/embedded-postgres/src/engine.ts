// Which database engine the embedded default runs: PostgreSQL (native.ts), or PGlite (wire.ts) when asked for
// (EMBEDDED_DB=pglite), when the data folder already holds a PGlite database, or when this machine cannot run
// the PostgreSQL binaries.
import { join } from 'node:path';

export type Engine = 'postgres' | 'pglite';
/** The folders of DATA_DIR each engine keeps its files in. */
export const ENGINE_FOLDERS: Record<Engine, string> = { postgres: 'postgresql', pglite: 'postgres' };

export type EngineChoice = { engine: Engine; note?: string };

export function chooseEngine(opts: {
  requested: string | undefined;
  dataDir: string;
  exists: (path: string) => boolean;
  /** Only asked when PostgreSQL would be chosen: whether its binaries run here, and why not. */
  native: () => { ok: true } | { ok: false; reason: string };
}): EngineChoice {
  const requested = opts.requested?.trim().toLowerCase() || undefined;
  if (requested && requested !== 'postgres' && requested !== 'pglite')
    throw new Error(`EMBEDDED_DB must be postgres or pglite, not ${opts.requested}`);
  if (requested === 'pglite') return { engine: 'pglite' };
  const has = (engine: Engine) => opts.exists(join(opts.dataDir, ENGINE_FOLDERS[engine], 'PG_VERSION'));
  if (!requested && !has('postgres') && has('pglite'))
    return {
      engine: 'pglite',
      note:
        `${join(opts.dataDir, ENGINE_FOLDERS.pglite)} holds a PGlite database (the embedded default before ` +
        'PostgreSQL): it stays in use, on PGlite. To move its data to the embedded PostgreSQL, which needs less ' +
        "memory and runs the services' transactions side by side: stop the platform and run " +
        '`node packages/embedded-postgres/src/move-to-postgres.ts` (docs/running.md). EMBEDDED_DB=pglite keeps ' +
        'PGlite and silences this note.',
    };
  const native = opts.native();
  if (native.ok) return { engine: 'postgres' };
  if (requested === 'postgres') throw new Error(`EMBEDDED_DB=postgres, but ${native.reason}`);
  return { engine: 'pglite', note: `Running the embedded database on PGlite: ${native.reason}.` };
}
