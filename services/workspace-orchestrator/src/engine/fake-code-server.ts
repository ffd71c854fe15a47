// A stand-in for the code-server binary in the local-fallback test: parses --bind-addr and the folder,
// answers /healthz, and guards its pages with PASSWORD behind code-server's /login form and cookie.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const [host, port] = (args[args.indexOf('--bind-addr') + 1] ?? '127.0.0.1:8080').split(':');
const folder = args[args.length - 1] ?? '.';
const cookie = `code-server-session=${createHash('sha256').update(process.env.PASSWORD ?? '').digest('hex')}`;

createServer((req, res) => {
  if (req.url === '/healthz') return void res.end('{"status":"alive"}');
  if (req.url === '/login' && req.method === 'POST') {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const ok = new URLSearchParams(body).get('password') === process.env.PASSWORD;
      res.writeHead(ok ? 302 : 401, ok ? { location: './', 'set-cookie': `${cookie}; Path=/; HttpOnly` } : {}).end();
    });
    return;
  }
  if (!(req.headers.cookie ?? '').split('; ').includes(cookie)) return void res.writeHead(401).end('login required');
  res.end(`local code-server for ${folder}: ${readdirSync(folder).join(',')}`);
}).listen(Number(port), host);
