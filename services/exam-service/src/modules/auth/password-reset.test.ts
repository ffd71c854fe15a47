import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthMessages } from '@exam/domain/auth';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createCreator,
  queryResetTokenHashes,
  settleEarlierMail,
  TEST_PASSWORD,
  type TestApp,
} from '../../testing/app.ts';

type Received = { to: string; text: string };

/** A real SMTP server in this process: the service delivers to it over the network as to any mail host. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) =>
      auth.username === 'platform' && auth.password === 'smtp-secret'
        ? callback(null, { user: 'platform' })
        : callback(new Error('bad credentials')),
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          received.push({ to: to ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://platform:smtp-secret@127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs the mail queue's sender until `found` answers something. The reset link is stored and queued just
 * after the answer (so its timing tells nothing), hence the short waits between passes.
 */
async function sendQueuedUntil<T>(app: TestApp, found: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    await app.mailQueue.sendDue();
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the expected mail was not sent');
}

const CREATOR_ORIGIN = 'http://creator.example.test';
const tokenFrom = (text: string) => {
  const match = /http:\/\/creator\.example\.test\/reset-password#token=([\w-]+)/.exec(text);
  if (!match) throw new Error(`no reset link in: ${text}`);
  return match[1]!;
};

describe('password reset by e-mail', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let nowMs = Date.now();
  let app: TestApp;
  let seq = 0;
  const from = () => `192.0.2.${++seq % 250}`;
  beforeAll(async () => {
    smtp = await startSmtp();
    app = await buildTestApp({
      env: {
        SMTP_URL: smtp.url,
        CREATOR_ORIGIN,
        PASSWORD_RESET_TTL_MINUTES: '30',
        PASSWORD_RESET_MAX_PER_ACCOUNT: '2',
      },
      deps: { clock: { now: () => new Date(nowMs) } },
    });
    await settleEarlierMail(app);
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  const requestReset = (email: string, remoteAddress = from()) =>
    app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress });
  const confirm = (token: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
  const login = (email: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: from() });
  const mailTo = (to: string) => sendQueuedUntil(app, () => smtp.received.find((m) => m.to === to));

  it('mails a single-use link over SMTP that sets a new password and ends every session', async () => {
    const creator = await createCreator(app);
    const accepted = await requestReset(creator.email);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ message: AuthMessages.resetAccepted });

    const mail = await mailTo(creator.email);
    expect(mail.text).toContain('30 minutes');
    const token = tokenFrom(mail.text);
    expect(token.length).toBeGreaterThanOrEqual(43);

    // Only a digest of the token is stored.
    expect(await queryResetTokenHashes(app, creator.user.id)).toEqual([
      createHash('sha256').update(token).digest('hex'),
    ]);

    // The policy applies, and a refused password does not use up the link.
    const weak = await confirm(token, 'password123');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.issues).toEqual([{ path: 'password', message: AuthMessages.commonPassword }]);

    expect((await confirm(token, 'new-harbour-lights-77')).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/exams', headers: creator.headers })).statusCode).toBe(401);
    expect((await login(creator.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(creator.email, 'new-harbour-lights-77')).statusCode).toBe(200);

    const again = await confirm(token, 'another-harbour-88-x');
    expect(again.statusCode).toBe(400);
    expect(again.json().error.issues).toEqual([{ path: 'token', message: AuthMessages.resetInvalid }]);
    expect((await login(creator.email, 'new-harbour-lights-77')).statusCode).toBe(200);
  });

  it('refuses a link after it expired', async () => {
    const creator = await createCreator(app);
    await requestReset(creator.email);
    const token = tokenFrom((await mailTo(creator.email)).text);
    nowMs += 31 * 60_000;
    const late = await confirm(token, 'new-harbour-lights-77');
    expect(late.statusCode).toBe(400);
    expect(late.json().error.issues[0].path).toBe('token');
    expect((await login(creator.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address exactly like a known one, and mails nobody', async () => {
    const creator = await createCreator(app);
    const unknown = `nobody-${Date.now()}@example.test`;
    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(creator.email);
    expect(forUnknown.statusCode).toBe(forKnown.statusCode);
    expect(forUnknown.body).toBe(forKnown.body);
    await mailTo(creator.email);
    expect(smtp.received.filter((m) => m.to === unknown)).toEqual([]);
  });

  it('sends at most PASSWORD_RESET_MAX_PER_ACCOUNT mails per account per window, answering every request alike', async () => {
    const creator = await createCreator(app);
    for (let i = 0; i < 4; i++) expect((await requestReset(creator.email)).statusCode).toBe(202);
    const other = await createCreator(app);
    await requestReset(other.email);
    await mailTo(other.email);
    expect(smtp.received.filter((m) => m.to === creator.email)).toHaveLength(2);
  });

  it('refuses a bad token or a short password with 400 naming the field', async () => {
    const short = await confirm('whatever', 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().error.issues[0].path).toBe('password');
    const missing = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'not-an-email' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.issues[0].path).toBe('email');
  });
});

describe('password reset rate limit per address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { PASSWORD_RESET_MAX_PER_ADDRESS: '3', SMTP_URL: 'smtp://127.0.0.1:9' },
    });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After past the limit from one address, while other addresses go on', async () => {
    const address = '198.51.100.23';
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: `someone-${i}@example.test` },
        remoteAddress: address,
      });
      expect(r.statusCode).toBe(202);
    }
    const refused = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'someone-else@example.test' },
      remoteAddress: address,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe(AuthMessages.resetThrottled);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'someone-else@example.test' },
      remoteAddress: '198.51.100.24',
    });
    expect(elsewhere.statusCode).toBe(202);
  });
});

describe('password reset without SMTP_URL', () => {
  let dataDir: string;
  let app: TestApp;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'exam-data-'));
    app = await buildTestApp({ env: { DATA_DIR: dataDir, CREATOR_ORIGIN } });
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true });
  });

  it('writes the mail with a working link as an .eml file to DATA_DIR/outbox', async () => {
    const creator = await createCreator(app);
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: creator.email } }))
        .statusCode,
    ).toBe(202);
    const outbox = join(dataDir, 'outbox');
    // Other suites' queued mail may land here too (one shared test database): pick this creator's.
    const mail = await sendQueuedUntil(app, async () => {
      for (const name of await readdir(outbox).catch(() => [] as string[])) {
        const parsed = await simpleParser(await readFile(join(outbox, name)));
        const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
        if (to === creator.email) return parsed;
      }
      return undefined;
    });
    const token = tokenFrom(mail.text ?? '');
    const done = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'outbox-works-fine-12' },
    });
    expect(done.statusCode).toBe(200);
  });
});
