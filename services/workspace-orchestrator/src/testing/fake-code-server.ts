// A stand-in for the code-server binary in the local-fallback test: parses --bind-addr and the folder,
// answers /healthz, lists its environment's names at /__env, and guards its pages with HASHED_PASSWORD (SHA-256) behind code-server's /login form and cookie.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const [host, port] = (args[args.indexOf('--bind-addr') + 1] ?? '127.0.0.1:8080').split(':');
const folder = args[args.length - 1] ?? '.';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hashed = process.env.HASHED_PASSWORD ?? '';
const cookie = `code-server-session=${hashed}`;

createServer((req, res) => {
  if (req.url === '/healthz') return void res.end('{"status":"alive"}');
  if (req.url === '/login' && req.method === 'POST') {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const ok = Boolean(hashed) && sha256(new URLSearchParams(body).get('password') ?? '') === hashed;
      res.writeHead(ok ? 302 : 401, ok ? { location: './', 'set-cookie': `${cookie}; Path=/; HttpOnly` } : {}).end();
    });
    return;
  }
  if (!(req.headers.cookie ?? '').split('; ').includes(cookie)) return void res.writeHead(401).end('login required');
  // What a candidate's terminal would see: the names in the editor process's environment.
  if (req.url === '/__env') return void res.end(JSON.stringify(Object.keys(process.env).sort()));
  res.end(`local code-server for ${folder}: ${readdirSync(folder).join(',')}`);
}).listen(Number(port), host);
