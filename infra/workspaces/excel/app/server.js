// The excel workspace's server: the spreadsheet app (Univer, bundled at image build), the login the orchestrator
// performs (services/workspace-orchestrator/src/modules/sessions/editor.ts), /healthz, and the workbook's load and
// save API. The workbook is one real .xlsx in the workspace folder, so it is collected at submit like any file.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve } from 'node:path';

const COOKIE = 'exam-sheets-session';
// exceljs takes about a second to load on a busy core: loaded after the server listens, so /healthz (and with it the
// workspace's create-to-ready) does not wait for it; the first load or save awaits it.
let xlsxModule;
const xlsx = () => (xlsxModule ??= import('./workbook-xlsx.js'));
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function readConfig(env = process.env) {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    workbookPath: env.WORKBOOK_PATH ?? '/home/coder/workspace/workbook.xlsx',
    staticDir: resolve(env.STATIC_DIR ?? join(import.meta.dirname, 'dist')),
    // code-server's HASHED_PASSWORD: the SHA-256 (hex) of the session password. Without it nobody can log in.
    hashedPassword: (env.HASHED_PASSWORD ?? '').trim().toLowerCase(),
  };
}

const sameText = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function readBody(req) {
  return new Promise((resolveBody, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('too large'), { status: 413 }));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function cookieOf(req, name) {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createSheetsServer(config) {
  // The cookie proves a login without being the password's hash itself; it never leaves the orchestrator's proxy.
  const sessionToken = config.hashedPassword
    ? createHmac('sha256', config.hashedPassword).update('exam-sheets-session').digest('hex')
    : '';
  let writes = Promise.resolve();
  let lastRevision = 0;
  let savedAt = null;

  async function load() {
    const { emptySnapshot, xlsxToSnapshot } = await xlsx();
    try {
      return { snapshot: await xlsxToSnapshot(await readFile(config.workbookPath)), exists: true };
    } catch (err) {
      if (err.code === 'ENOENT') return { snapshot: emptySnapshot(), exists: false };
      throw err;
    }
  }

  /** Saves in order; a save older than the last one written (a late page-hide beacon) changes nothing. */
  function save(snapshot, revision) {
    const run = writes.then(async () => {
      if (revision <= lastRevision) return { savedAt, ignored: true };
      const { snapshotToXlsx } = await xlsx();
      const bytes = await snapshotToXlsx(snapshot);
      await mkdir(dirname(config.workbookPath), { recursive: true });
      // Written beside the workbook and renamed, so a collection at submit never reads half a file.
      const partial = join(dirname(config.workbookPath), `.${Date.now()}.workbook.partial`);
      await writeFile(partial, bytes);
      await rename(partial, config.workbookPath);
      lastRevision = revision;
      savedAt = new Date().toISOString();
      return { savedAt, bytes: bytes.length };
    });
    writes = run.catch(() => undefined);
    return run;
  }

  async function serveStatic(req, res, path) {
    const file = resolve(config.staticDir, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(`${config.staticDir}/`)) return send(res, 404, 'Not found');
    // build.js stores a gzipped copy of the large files (the bundle is about 11 MB, 3 MB gzipped).
    const gzipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
      ? await readFile(`${file}.gz`).catch(() => undefined)
      : undefined;
    try {
      const body = gzipped ?? (await readFile(file));
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': path === '/' ? 'no-store' : 'max-age=3600',
        vary: 'accept-encoding',
        ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
      });
      res.end(body);
    } catch {
      send(res, 404, 'Not found');
    }
  }

  async function handle(req, res) {
    const url = new URL(req.url ?? '/', 'http://workspace');
    const path = url.pathname;
    if (path === '/healthz') return send(res, 200, { status: 'alive' });
    if (path === '/favicon.ico') return send(res, 204, '');
    if (path === '/login' && req.method === 'POST') {
      const password = new URLSearchParams((await readBody(req)).toString('utf8')).get('password') ?? '';
      const hash = createHash('sha256').update(password).digest('hex');
      if (!config.hashedPassword || !sameText(hash, config.hashedPassword))
        return send(res, 401, { error: { field: 'password', reason: 'is not the session password' } });
      return send(res, 302, '', {
        location: './',
        'set-cookie': `${COOKIE}=${sessionToken}; Path=/; HttpOnly; SameSite=Strict`,
      });
    }
    const cookie = cookieOf(req, COOKIE);
    if (!sessionToken || !cookie || !sameText(cookie, sessionToken))
      return send(res, 401, 'Open the workbook from the exam page.');

    if (path === '/api/workbook' && req.method === 'GET') {
      const { snapshot, exists } = await load();
      return send(res, 200, { snapshot, exists, path: config.workbookPath, savedAt });
    }
    if (path === '/api/workbook' && (req.method === 'POST' || req.method === 'PUT')) {
      let body;
      try {
        body = JSON.parse((await readBody(req)).toString('utf8'));
      } catch (err) {
        if (err.status === 413) return send(res, 413, { error: { field: 'body', reason: 'is larger than 32 MB' } });
        return send(res, 400, { error: { field: 'body', reason: 'is not JSON' } });
      }
      const revision = Number(body?.revision ?? Date.now());
      if (!Number.isFinite(revision))
        return send(res, 400, { error: { field: 'revision', reason: 'must be a number' } });
      const invalid = (await xlsx()).invalidSnapshot(body?.snapshot);
      if (invalid) return send(res, 400, { error: invalid });
      return send(res, 200, await save(body.snapshot, revision));
    }
    if (req.method === 'GET' || req.method === 'HEAD') return serveStatic(req, res, path);
    return send(res, 405, 'Method not allowed');
  }

  return createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error(`${req.method} ${req.url}:`, err);
      if (!res.headersSent) send(res, err.status ?? 500, { error: { reason: String(err.message ?? err) } });
      else res.destroy();
    });
  });
}

if (import.meta.main) {
  const config = readConfig();
  if (!config.hashedPassword) console.error('HASHED_PASSWORD is not set: every login will be refused');
  const server = createSheetsServer(config);
  server.listen(config.port, config.host, () => {
    console.log(`sheets on ${config.host}:${config.port}`);
    xlsx().catch((err) => console.error('exceljs did not load:', err));
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
