// `pnpm backup [--out file] [--data-dir dir] [--database-url url]`: one archive of the platform's database and its
// data folder (scripts/backup-archive.ts says what is in it; docs/backup.md how to use it).
// - Embedded default (no DATABASE_URL): the platform must be stopped; refused, naming the running database's pid,
//   while `pnpm start` runs. The embedded PostgreSQL's cluster folder is copied as it is once cleanly shut down
//   (its npm package ships no pg_dump, and Debian's pg_dump 15 refuses a PostgreSQL 17 server); a PGlite database
//   (EMBEDDED_DB=pglite, or a data folder from before) is dumped by PGlite itself, as one process's database
//   cannot be read while a server has it open.
// - PostgreSQL (--database-url or DATABASE_URL): online; pg_dump reads one consistent snapshot while the platform
//   keeps serving.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import postgres from 'postgres';
import { embeddedDatabase } from './start-order.ts';
import { withNative } from '../packages/embedded-postgres/src/native.ts';
import {
  BackupError,
  fromCaller,
  describePart,
  fileEntries,
  FORMAT,
  FORMAT_VERSION,
  formatBytes,
  loadPGlite,
  parseArgs,
  platformVersion,
  readMigrations,
  refuseWhileRunning,
  ROOT,
  run,
  type DatabaseKind,
  type Manifest,
  type Migrations,
} from './backup-archive.ts';
import { SERVICES } from '../packages/domain/src/service-routes.ts';

/** With databaseUrl, dataDir is optional: a deployment's data folder (outbox, generated secrets) if it has one. */
export type BackupOptions = { dataDir?: string | undefined; out: string; databaseUrl?: string | undefined };

/**
 * The embedded database folder(s) to back up: the embedded PostgreSQL's cluster, else PGlite's shared database, or
 * one PGlite per service in the older layout.
 */
function embeddedFolders(dataDir: string): { kind: DatabaseKind; folders: string[] } {
  if (existsSync(join(dataDir, 'postgresql', 'PG_VERSION')))
    return { kind: 'embedded-postgresql', folders: ['postgresql'] };
  const layout = embeddedDatabase({ databaseUrl: undefined, dataDir, services: SERVICES, port: 0, exists: existsSync });
  if (layout.mode === 'per-service')
    return {
      kind: 'embedded-per-service',
      folders: SERVICES.filter((s) => existsSync(join(dataDir, s, 'PG_VERSION'))),
    };
  if (existsSync(join(dataDir, 'postgres', 'PG_VERSION'))) return { kind: 'embedded', folders: ['postgres'] };
  throw new BackupError(`No embedded database in ${dataDir}: start the platform once, or pass --data-dir`);
}

async function dumpEmbedded(dataDir: string, stage: string) {
  refuseWhileRunning(dataDir, 'A backup of the embedded database');
  const { kind, folders } = embeddedFolders(dataDir);
  if (kind === 'embedded-postgresql') {
    // Started on a free port to read the migration journals, then shut down cleanly (a checkpoint: the files are
    // whole), and copied. postmaster.pid and postmaster.opts are the last server's, not data.
    const migrations = await withNative(join(dataDir, 'postgresql'), async (url) => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        return await readMigrations(queryable(sql));
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
    const path = 'database/postgresql.tar.gz';
    run('tar', [
      '-czf',
      join(stage, path),
      '--exclude=postgresql/postmaster.pid',
      '--exclude=postgresql/postmaster.opts',
      '-C',
      dataDir,
      'postgresql',
    ]);
    return { kind, migrations, parts: [path] };
  }
  const PGlite = await loadPGlite();
  const migrations: Migrations = {};
  const parts: string[] = [];
  for (const folder of folders) {
    // Opening it ourselves is safe only because no server has it open (checked above); PGlite then dumps the
    // folder as its own consistent tarball.
    const db = await PGlite.create(join(dataDir, folder));
    try {
      Object.assign(migrations, await readMigrations(db));
      const dump = await db.dumpDataDir('gzip');
      const path = `database/${folder}.tar.gz`;
      writeFileSync(join(stage, path), Buffer.from(await dump.arrayBuffer()));
      parts.push(path);
    } finally {
      await db.close();
    }
  }
  return { kind, migrations, parts };
}

/** The major version of a pg_dump/pg_restore binary, or undefined when it is not installed. */
export function clientMajor(binary: 'pg_dump' | 'pg_restore'): number | undefined {
  try {
    const out = run(binary, ['--version']);
    return Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1]);
  } catch {
    return undefined;
  }
}

/** Refuses early when pg_dump is missing or older than the server (it would refuse anyway, less clearly). */
export async function checkPgClient(sql: postgres.Sql, binary: 'pg_dump' | 'pg_restore'): Promise<void> {
  const client = clientMajor(binary);
  if (client === undefined)
    throw new BackupError(`${binary} is not installed: apt-get install postgresql-client (the server's major version)`);
  const [{ version }] = await sql<[{ version: string }]>`select current_setting('server_version_num') as version`;
  const server = Math.floor(Number(version) / 10000);
  if (client < server)
    throw new BackupError(
      `${binary} ${client} cannot work with PostgreSQL ${server}: install postgresql-client-${server}`,
    );
}

export const queryable = (sql: postgres.Sql) => ({
  query: async <T>(text: string) => ({ rows: (await sql.unsafe(text)) as unknown as T[] }),
});

async function dumpPostgres(databaseUrl: string, stage: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await checkPgClient(sql, 'pg_dump');
    const migrations = await readMigrations(queryable(sql));
    const path = 'database/postgres.dump';
    // Custom format: compressed, restorable per schema or table with pg_restore. One snapshot, taken online.
    run('pg_dump', ['--format=custom', '--file', join(stage, path), '--dbname', databaseUrl]);
    return { kind: 'postgres' as const, migrations, parts: [path] };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function backup(opts: BackupOptions): Promise<Manifest> {
  const started = Date.now();
  const out = resolve(opts.out);
  // Written inside the folder it copies, the archive (and its staging folder) would be copied into itself.
  const within = opts.dataDir ? relative(resolve(opts.dataDir), out) : '..';
  if (!within.startsWith('..') && !isAbsolute(within))
    throw new BackupError(
      `${out} is inside the data folder being backed up (${resolve(opts.dataDir!)}): write the backup elsewhere (--out)`,
    );
  mkdirSync(dirname(out), { recursive: true });
  // Staged beside the archive (same file system): the database dump and the files are written once, then tarred.
  const stage = mkdtempSync(join(dirname(out), '.backup-'));
  try {
    mkdirSync(join(stage, 'database'));
    const dataDir = opts.dataDir;
    if (!opts.databaseUrl && !dataDir) throw new BackupError('The embedded database needs a data folder');
    const database = opts.databaseUrl
      ? await dumpPostgres(opts.databaseUrl, stage)
      : await dumpEmbedded(dataDir!, stage);
    const files = dataDir ? fileEntries(dataDir) : [];
    const partPaths = [...database.parts];
    if (dataDir && files.length) {
      run('tar', ['-czf', join(stage, 'files.tar.gz'), '-C', dataDir, ...files]);
      partPaths.push('files.tar.gz');
    }
    const secrets = dataDir && files.includes('secrets') ? readdirSync(join(dataDir, 'secrets')).sort() : [];
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: database.kind === 'embedded-postgresql' ? FORMAT_VERSION : 1,
      platformVersion: platformVersion(),
      createdAt: new Date(started).toISOString(),
      database: database.kind,
      files,
      secrets,
      migrations: database.migrations,
      parts: await Promise.all(partPaths.map((p) => describePart(stage, p))),
      durationMs: 0,
    };
    manifest.durationMs = Date.now() - started;
    writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${out}.partial`;
    run('tar', ['-cf', partial, '-C', stage, 'manifest.json', ...partPaths]);
    // It holds the platform's secrets (JWT_SECRET, ENCRYPTION_KEY): readable by its owner only.
    chmodSync(partial, 0o600);
    renameSync(partial, out);
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[:.]/g, '-')
    .replace(/-\d+Z$/, 'Z');

async function main() {
  const args = parseArgs(process.argv.slice(2), ['out', 'data-dir', 'database-url']);
  const databaseUrl = args.values['database-url'] ?? process.env.DATABASE_URL;
  // On PostgreSQL the data folder is included only when named: the checkout's own .data is not the deployment's.
  const dataDir = args.values['data-dir']
    ? fromCaller(args.values['data-dir'])
    : process.env.DATA_DIR || !databaseUrl
      ? resolve(process.env.DATA_DIR ?? join(ROOT, '.data'))
      : undefined;
  const out = fromCaller(args.values.out ?? join(ROOT, 'backups', `exam-backup-${stamp()}.tar`));
  const manifest = await backup({ dataDir, out, databaseUrl });
  const total = manifest.parts.reduce((sum, p) => sum + p.bytes, 0);
  console.log(`Backup written to ${out} (${formatBytes(total)}, ${(manifest.durationMs / 1000).toFixed(1)} s)`);
  console.log(
    `  database: ${manifest.database}; migrations: ${Object.entries(manifest.migrations)
      .map(([s, m]) => `${s} ${m.applied}`)
      .join(', ')}`,
  );
  console.log(`  files: ${manifest.files.join(', ') || '(none)'}; secrets: ${manifest.secrets.join(', ') || '(none)'}`);
  if (manifest.database === 'postgres' && !manifest.secrets.length)
    console.log(
      '  Secrets (JWT_SECRET, INTERNAL_TOKEN, ENCRYPTION_KEY) are not in it: keep them in your secret store.',
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  });
}
