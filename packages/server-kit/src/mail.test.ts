import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMailer, mailConfigShape } from './mail.ts';

const silent = { info: () => undefined };

describe('mail transport', () => {
  const received: { from: string; to: string[]; user: string | undefined; raw: Buffer }[] = [];
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'p@ss') return callback(null, { user: auth.username });
        callback(new Error('bad credentials'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers over SMTP with the credentials of SMTP_URL', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:${encodeURIComponent('p@ss')}@127.0.0.1:${port}`,
      from: 'Exam Platform <no-reply@example.test>',
      outboxDir: '/nonexistent',
      log: silent,
    });
    const receipt = await mailer.send({ to: 'ada@example.test', subject: 'Hello', text: 'A link: https://x.test/a' });
    mailer.close();
    expect(receipt.via).toBe('smtp');
    const mail = received.at(-1)!;
    expect(mail).toMatchObject({ from: 'no-reply@example.test', to: ['ada@example.test'], user: 'mailer' });
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe('Hello');
    expect(parsed.text?.trim()).toBe('A link: https://x.test/a');
  });

  it('fails the send when the SMTP server refuses the credentials', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:wrong@127.0.0.1:${port}`,
      from: 'no-reply@example.test',
      outboxDir: '/nonexistent',
      log: silent,
    });
    await expect(mailer.send({ to: 'ada@example.test', subject: 'x', text: 'y' })).rejects.toThrow();
    mailer.close();
  });

  it('writes an .eml file to the outbox, readable by its owner only, when SMTP_URL is unset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    const logged: object[] = [];
    const mailer = createMailer({
      from: 'no-reply@example.test',
      outboxDir: join(dir, 'outbox'),
      log: { info: (obj) => logged.push(obj) },
    });
    const receipt = await mailer.send({ to: 'ada@example.test', subject: 'Reset', text: 'Open https://x.test/r' });
    expect(receipt.via).toBe('outbox');
    const path = (receipt as { path: string }).path;
    expect(await readdir(join(dir, 'outbox'))).toEqual([path.split('/').at(-1)]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(logged).toEqual([expect.objectContaining({ path })]);
    const parsed = await simpleParser(await readFile(path));
    expect(parsed.to).toMatchObject({ text: 'ada@example.test' });
    expect(parsed.text?.trim()).toBe('Open https://x.test/r');
    await rm(dir, { recursive: true });
  });

  it('accepts only smtp:// and smtps:// URLs as SMTP_URL', () => {
    const schema = z.object(mailConfigShape);
    expect(schema.safeParse({ SMTP_URL: 'smtps://u:p@mail.example.test:465' }).success).toBe(true);
    expect(schema.safeParse({ SMTP_URL: 'http://mail.example.test' }).success).toBe(false);
    expect(schema.parse({}).MAIL_FROM).toContain('no-reply');
  });
});
