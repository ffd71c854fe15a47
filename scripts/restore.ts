// `pnpm restore <file> [--data-dir dir] [--database-url url] [--force]`: puts a `pnpm backup` archive back
// (docs/backup.md). Every part is checked against the manifest's sizes and SHA-256 before anything is written.
// The target must be empty: a data folder with nothing in it, a PostgreSQL database without tables. --force moves
// a non-empty data folder aside (DIR.before-restore-<time>) and, on PostgreSQL, drops what the dump recreates.
// The platform must be stopped (refused while its embedded database runs on the data folder).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import postgres from 'postgres';
import {
  BackupError,
  fromCaller,
  knownMigrations,
  loadPGlite,
  parseArgs,
  readManifest,
  readMigrations,
  refuseWhileRunning,
  ROOT,
  run,
  verifyParts,
  type Manifest,
  type Migrations,
} from './backup-archive.ts';
import { checkPgClient, queryable } from './backup.ts';
import { withNative } from '../packages/embedded-postgres/src/native.ts';

export type RestoreOptions = { file: string; dataDir: string; databaseUrl?: string | undefined; force?: boolean };

/** A backup written by newer code has migrations this checkout does not know: its services would refuse to start. */
function refuseNewer(manifest: Manifest): void {
  const known = knownMigrations();
  const newer = Object.entries(manifest.migrations).filter(([schema, m]) => m.applied > (known[schema] ?? Infinity));
  if (newer.length)
    throw new BackupError(
      `The backup was made by newer code (${manifest.platformVersion}): ${newer
        .map(([s, m]) => `${s} has ${m.applied} migrations, this checkout ${known[s]}`)
        .join('; ')}. Restore it with that version.`,
    );
}

function sameMigrations(expected: Migrations, actual: Migrations): void {
  // Every schema with its count and last hash, in one order. (A key list as JSON.stringify's replacer would filter
  // the nested objects' keys too, leaving only the schema names to compare.)
  const canonical = (m: Migrations) =>
    JSON.stringify(
      Object.keys(m)
        .sort()
        .map((schema) => [schema, m[schema]!.applied, m[schema]!.last]),
    );
  const [a, b] = [canonical(expected), canonical(actual)];
  if (a !== b) throw new BackupError(`The restored database's migrations differ from the manifest's:\n  ${a}\n  ${b}`);
}

type PreparedDataDir = { dataDir: string; existed: boolean; movedTo: string | undefined };

/** An empty (or missing) data folder, or --force: the old contents are moved aside, never deleted. */
function prepareDataDir(dataDir: string, force: boolean): PreparedDataDir {
  refuseWhileRunning(dataDir, 'A restore');
  const existed = existsSync(dataDir);
  const entries = existed ? readdirSync(dataDir) : [];
  let movedTo: string | undefined;
  if (entries.length) {
    if (!force)
      throw new BackupError(
        `${dataDir} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}): restore into ` +
          'an empty data folder (--data-dir), or pass --force to move its contents aside first',
      );
    movedTo = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(dataDir, movedTo);
  }
  mkdirSync(dataDir, { recursive: true });
  return { dataDir, existed, movedTo };
}

/** A restore that failed half-way leaves the data folder as it found it: no partial database to trip over. */
function undoDataDir({ dataDir, existed, movedTo }: PreparedDataDir): void {
  rmSync(dataDir, { recursive: true, force: true });
  if (movedTo) renameSync(movedTo, dataDir);
  else if (existed) mkdirSync(dataDir);
}

async function restoreEmbedded(stage: string, manifest: Manifest, dataDir: string) {
  if (manifest.database === 'embedded-postgresql') {
    // The cluster folder as it was (-p: its 0700 mode, which PostgreSQL insists on), then read through a server
    // started on a free port for as long as that takes.
    run('tar', ['-xzpf', join(stage, 'database', 'postgresql.tar.gz'), '-C', dataDir]);
    return withNative(join(dataDir, 'postgresql'), async (url) => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        return await readMigrations(queryable(sql));
      } finally {
        await sql.end({ timeout: 5 });
      }
    });
  }
  const PGlite = await loadPGlite();
  const restored: Migrations = {};
  for (const part of manifest.parts.filter((p) => p.path.startsWith('database/'))) {
    const folder = part.path.replace(/^database\//, '').replace(/\.tar\.gz$/, '');
    const dump = new Blob([readFileSync(join(stage, part.path))], { type: 'application/gzip' });
    const db = await PGlite.create(join(dataDir, folder), { loadDataDir: dump });
    try {
      Object.assign(restored, await readMigrations(db));
    } finally {
      await db.close();
    }
  }
  return restored;
}

async function restorePostgres(stage: string, databaseUrl: string, force: boolean) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await checkPgClient(sql, 'pg_restore');
    const [{ tables }] = await sql<[{ tables: number }]>`
      select count(*)::int as tables from information_schema.tables
      where table_schema not in ('pg_catalog', 'information_schema')`;
    if (tables > 0 && !force)
      throw new BackupError(
        `The database already has ${tables} tables: restore into an empty database, or pass --force to replace them`,
      );
    const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--dbname', databaseUrl];
    if (force) args.unshift('--clean', '--if-exists');
    run('pg_restore', [...args, join(stage, 'database', 'postgres.dump')]);
    return await readMigrations(queryable(sql));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function restore(opts: RestoreOptions) {
  const started = Date.now();
  const file = resolve(opts.file);
  if (!existsSync(file)) throw new BackupError(`No such backup: ${file}`);
  const stageRoot = dirname(resolve(opts.dataDir));
  mkdirSync(stageRoot, { recursive: true });
  const stage = mkdtempSync(join(stageRoot, '.restore-'));
  try {
    run('tar', ['-xf', file, '-C', stage]);
    const manifest = readManifest(stage);
    await verifyParts(stage, manifest);
    refuseNewer(manifest);
    const postgresDump = manifest.database === 'postgres';
    if (postgresDump && !opts.databaseUrl)
      throw new BackupError('This backup is of a PostgreSQL database: pass --database-url (an empty database)');
    const hasFiles = manifest.parts.some((p) => p.path === 'files.tar.gz');
    const prepared = !postgresDump || hasFiles ? prepareDataDir(opts.dataDir, opts.force ?? false) : undefined;
    try {
      const restored = postgresDump
        ? await restorePostgres(stage, opts.databaseUrl!, opts.force ?? false)
        : await restoreEmbedded(stage, manifest, opts.dataDir);
      sameMigrations(manifest.migrations, restored);
      // -p keeps the secrets' modes (0600) as they were.
      if (hasFiles) run('tar', ['-xzpf', join(stage, 'files.tar.gz'), '-C', opts.dataDir]);
    } catch (err) {
      if (prepared) undoDataDir(prepared);
      if (err instanceof BackupError)
        throw new BackupError(`${err.message}\nNothing was restored: ${opts.dataDir} is as it was before.`);
      throw err;
    }
    return { manifest, movedTo: prepared?.movedTo, durationMs: Date.now() - started };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2), ['data-dir', 'database-url'], ['force']);
  const [file] = args.positional;
  if (!file) throw new BackupError('Usage: pnpm restore <backup.tar> [--data-dir dir] [--database-url url] [--force]');
  const dataDir = args.values['data-dir']
    ? fromCaller(args.values['data-dir'])
    : resolve(process.env.DATA_DIR ?? join(ROOT, '.data'));
  const databaseUrl = args.values['database-url'] ?? process.env.DATABASE_URL;
  const { manifest, movedTo, durationMs } = await restore({
    file: fromCaller(file),
    dataDir,
    databaseUrl,
    force: args.on.has('force'),
  });
  if (movedTo) console.log(`The data folder's previous contents are in ${movedTo}`);
  console.log(
    `Restored the backup of ${manifest.createdAt} (${manifest.database}) in ${(durationMs / 1000).toFixed(1)} s: ` +
      `checksums verified, migrations as recorded (${Object.entries(manifest.migrations)
        .map(([s, m]) => `${s} ${m.applied}`)
        .join(', ')}).`,
  );
  console.log(`  Data folder: ${dataDir}${manifest.files.length ? ` (${manifest.files.join(', ')})` : ''}`);
  if (manifest.database === 'postgres' && !manifest.secrets.length)
    console.log('  Set the same JWT_SECRET, INTERNAL_TOKEN and ENCRYPTION_KEY as when the backup was made.');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof BackupError ? err.message : err);
    process.exit(1);
  });
}
