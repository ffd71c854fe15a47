import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { mailboxPage } from './page.ts';
import { createMessageStore } from './store.ts';

export type MailboxOptions = {
  /** Where messages are kept as .eml files (DATA_DIR/mailbox). */
  dir: string;
  host: string;
  /** 0 picks a free port (tests). */
  smtpPort: number;
  httpPort: number;
  /** Largest message accepted, in bytes. */
  maxMessageBytes?: number;
};

/**
 * A development mail server: accepts every message over SMTP (any or no credentials, no TLS) on
 * `smtpPort` and keeps it; serves a mailbox page and a JSON API on `httpPort`. It is the receiver
 * `pnpm start` points SMTP_URL at when no real SMTP server is configured; it never relays mail onwards.
 */
export async function startMailbox(opts: MailboxOptions) {
  const store = createMessageStore(opts.dir);
  const maxBytes = opts.maxMessageBytes ?? 10 * 1024 * 1024;
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    size: maxBytes,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonymous' }),
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(new Error('Message too large'));
        store.save(Buffer.concat(chunks)).then(() => callback(), callback);
      });
    },
  });

  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://mailbox');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return json(405, { error: 'Only GET' });
    if (url.pathname === '/') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'",
      });
      return res.end(mailboxPage);
    }
    if (url.pathname === '/api/messages') {
      const to = url.searchParams.get('to') ?? undefined;
      store.list(to ? { to } : {}).then(
        (messages) => json(200, { messages }),
        (err: unknown) => json(500, { error: String(err) }),
      );
      return;
    }
    const one = /^\/api\/messages\/([^/]+)$/.exec(url.pathname);
    if (one) {
      store.find(decodeURIComponent(one[1]!)).then(
        (message) => (message ? json(200, message) : json(404, { error: 'No such message' })),
        (err: unknown) => json(500, { error: String(err) }),
      );
      return;
    }
    json(404, { error: 'Not found' });
  });

  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(opts.smtpPort, opts.host, () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.httpPort, opts.host, () => resolve());
  });
  return {
    store,
    smtpPort: (smtp.server.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    async close() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
