import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox } from './mailbox.ts';

describe('development mailbox', () => {
  let dir: string;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let base: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mailbox-'));
    mailbox = await startMailbox({ dir, host: '127.0.0.1', smtpPort: 0, httpPort: 0 });
    base = `http://127.0.0.1:${mailbox.httpPort}`;
  });
  afterAll(async () => {
    await mailbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  const send = async (to: string, subject: string, smtpUrl = `smtp://127.0.0.1:${mailbox.smtpPort}`) => {
    const transport = nodemailer.createTransport(smtpUrl);
    await transport.sendMail({ from: 'platform@example.test', to, subject, text: `Hello ${to}\nhttp://x.test/a` });
    transport.close();
  };

  it('keeps mail received over SMTP as .eml files and lists it newest first through the API', async () => {
    await send('ada@example.test', 'First');
    await send('grace@example.test', 'Second');
    expect((await readdir(dir)).filter((n) => n.endsWith('.eml'))).toHaveLength(2);
    const { messages } = (await (await fetch(`${base}/api/messages`)).json()) as {
      messages: { id: string; subject: string; to: string[] }[];
    };
    expect(messages.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(messages[0]?.to).toEqual(['grace@example.test']);

    const one = await fetch(`${base}/api/messages/${messages[1]!.id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({
      subject: 'First',
      from: 'platform@example.test',
      text: expect.stringContaining('http://x.test/a'),
    });
  });

  it('accepts mail sent with credentials, as a production SMTP_URL would carry', async () => {
    await send('auth@example.test', 'With login', `smtp://user:secret@127.0.0.1:${mailbox.smtpPort}`);
    const res = await fetch(`${base}/api/messages?to=AUTH@example.test`);
    const { messages } = (await res.json()) as { messages: { subject: string }[] };
    expect(messages.map((m) => m.subject)).toEqual(['With login']);
  });

  it('answers 404 for an unknown or malformed id and serves the page at /', async () => {
    expect((await fetch(`${base}/api/messages/nope`)).status).toBe(404);
    expect((await fetch(`${base}/api/messages/..%2F..%2Fetc`)).status).toBe(404);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Mailbox');
  });
});
