// What `pnpm backup` writes and `pnpm restore` reads (docs/backup.md): one uncompressed tar holding manifest.json
// and the parts it lists, each with its size and SHA-256. Parts: the database (the embedded PostgreSQL's cluster
// folder, copied while stopped; the embedded PGlite's data folder as PGlite dumps it, one per service in the older
// layout; or a pg_dump custom-format file for PostgreSQL of DATABASE_URL) and
// files.tar.gz, everything else in the data folder (generated secrets, workspaces, mailbox and outbox mail).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVICES } from '../packages/domain/src/service-routes.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FORMAT = 'exam-platform-backup';
/** 2 added the embedded PostgreSQL's cluster (database `embedded-postgresql`); other backups are still written as 1. */
export const FORMAT_VERSION = 2;
/** Written by packages/embedded-postgres while it has the database open. */
export const EMBEDDED_PID_FILE = 'embedded-postgres.pid';
/** Folders of the data folder that hold databases; files.tar.gz carries everything else. */
export const DATABASE_FOLDERS = ['postgresql', 'postgres', ...SERVICES];

export type Part = { path: string; bytes: number; sha256: string };
/** embedded-postgresql: the embedded PostgreSQL; embedded, embedded-per-service: PGlite; postgres: DATABASE_URL's. */
export type DatabaseKind = 'embedded-postgresql' | 'embedded' | 'embedded-per-service' | 'postgres';
/** Per service migration journal (drizzle.__<schema>_migrations): how many applied, and the last one's hash. */
export type Migrations = Record<string, { applied: number; last: string | null }>;
export type Manifest = {
  format: typeof FORMAT;
  formatVersion: number;
  /** The commit of the code that wrote it, when run from a git checkout. */
  platformVersion: string;
  createdAt: string;
  database: DatabaseKind;
  /** The folders and files of the data folder in files.tar.gz, and the generated secrets among them. */
  files: string[];
  secrets: string[];
  migrations: Migrations;
  parts: Part[];
  durationMs: number;
};

export class BackupError extends Error {}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function describePart(dir: string, path: string): Promise<Part> {
  const full = join(dir, path);
  return { path, bytes: statSync(full).size, sha256: await sha256File(full) };
}

/** Runs a command, throwing its stderr when it fails. */
export function run(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', env: opts.env ?? process.env, cwd: opts.cwd });
  if (result.error) throw new BackupError(`${command}: ${result.error.message}`);
  if (result.status !== 0) throw new BackupError(`${command} ${args[0] ?? ''} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

export function platformVersion(): string {
  const result = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

/** The pid of a running embedded database on this data folder, if one runs. */
export function runningDatabasePid(dataDir: string): number | undefined {
  const file = join(dataDir, EMBEDDED_PID_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined; // left behind by a database that did not stop cleanly
  }
}

export function refuseWhileRunning(dataDir: string, what: string): void {
  const pid = runningDatabasePid(dataDir);
  if (pid)
    throw new BackupError(
      `The platform's embedded database is running on ${dataDir} (pid ${pid}). ${what} needs the platform stopped: ` +
        'stop `pnpm start` (Ctrl-C) and run it again. Online backups need PostgreSQL (DATABASE_URL; see docs/backup.md).',
    );
}

type PGliteInstance = {
  query<T>(sql: string): Promise<{ rows: T[] }>;
  dumpDataDir(compression: 'gzip'): Promise<Blob>;
  close(): Promise<void>;
};
type PGliteModule = {
  PGlite: { create(dir: string, opts?: { loadDataDir?: Blob }): Promise<PGliteInstance> };
};

/** PGlite, as the embedded database package depends on it (the repository root does not). */
export async function loadPGlite(): Promise<PGliteModule['PGlite']> {
  const require = createRequire(join(ROOT, 'packages', 'embedded-postgres', 'package.json'));
  const entry = require.resolve('@electric-sql/pglite');
  return ((await import(pathToFileURL(entry).href)) as PGliteModule).PGlite;
}

type Queryable = { query<T>(sql: string): Promise<{ rows: T[] }> };

/** Reads every service's migration journal in the drizzle schema. */
export async function readMigrations(db: Queryable): Promise<Migrations> {
  const tables = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'drizzle' order by 1`,
  );
  const migrations: Migrations = {};
  for (const { name } of tables.rows) {
    const rows = await db.query<{ applied: number; last: string | null }>(
      `select count(*)::int as applied, (select hash from drizzle."${name}" order by created_at desc, id desc limit 1) as last from drizzle."${name}"`,
    );
    const row = rows.rows[0]!;
    const schema = name.replace(/^__/, '').replace(/_migrations$/, '');
    migrations[schema] = { applied: Number(row.applied), last: row.last };
  }
  return migrations;
}

/** Each service's migrations as this checkout has them (drizzle/meta/_journal.json), by schema name. */
export function knownMigrations(): Record<string, number> {
  const known: Record<string, number> = {};
  for (const service of SERVICES) {
    const journal = join(ROOT, 'services', service, 'drizzle', 'meta', '_journal.json');
    if (!existsSync(journal)) continue;
    const entries = (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries;
    known[service.replace(/-/g, '_')] = entries.length;
  }
  return known;
}

/** The data folder's entries that files.tar.gz carries: all but the databases and the running database's pid file. */
export function fileEntries(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => !DATABASE_FOLDERS.includes(name) && name !== EMBEDDED_PID_FILE)
    .sort();
}

export function readManifest(dir: string): Manifest {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) throw new BackupError('Not a backup of this platform: manifest.json is missing');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  if (manifest.format !== FORMAT) throw new BackupError(`Not a backup of this platform: format ${manifest.format}`);
  if (manifest.formatVersion > FORMAT_VERSION)
    throw new BackupError(
      `Backup format ${manifest.formatVersion} is newer than this checkout reads (${FORMAT_VERSION})`,
    );
  return manifest;
}

/** Checks every part against the manifest before anything is written; names every mismatch at once. */
export async function verifyParts(dir: string, manifest: Manifest): Promise<void> {
  const problems: string[] = [];
  for (const part of manifest.parts) {
    const full = join(dir, part.path);
    if (!existsSync(full)) {
      problems.push(`${part.path}: missing`);
      continue;
    }
    const actual = await describePart(dir, part.path);
    if (actual.bytes !== part.bytes) problems.push(`${part.path}: ${actual.bytes} bytes, manifest says ${part.bytes}`);
    else if (actual.sha256 !== part.sha256) problems.push(`${part.path}: SHA-256 does not match the manifest`);
  }
  if (problems.length)
    throw new BackupError(`The backup is damaged; nothing was restored:\n  ${problems.join('\n  ')}`);
}

/** Parses `--name value` flags and positional arguments. */
export function parseArgs(argv: string[], flags: string[], switches: string[] = []) {
  const values: Record<string, string> = {};
  const on = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [undefined, undefined];
    if (name !== undefined && switches.includes(name)) on.add(name);
    else if (name !== undefined && flags.includes(name)) {
      const value = inline ?? argv[(i += 1)];
      if (value === undefined) throw new BackupError(`--${name} needs a value`);
      values[name] = value;
    } else if (name !== undefined) throw new BackupError(`Unknown option --${name}`);
    else positional.push(arg);
  }
  return { values, on, positional };
}

/** A path the user typed: `pnpm backup` runs in the repository root, INIT_CWD is where pnpm was called from. */
export const fromCaller = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

export const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;
