import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import {
  ProcessReceiptSchema,
  ReceiptClaimsSchema,
  ReceiptKeySetSchema,
  VerifyReceiptResponseSchema,
  type ProcessRecord,
  type ProcessSummary,
} from '@exam/domain/timeline';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptKeys, results } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { makeCodingExam } from '../../testing/exams.ts';
import { ReceiptMessages } from './receipts.service.ts';

const summaryOf = (attemptId: string, typedPercent: number): ProcessSummary => ({
  attemptId,
  characters: 120,
  typedPercent,
  pastedPercent: 100 - typedPercent,
  assistantPercent: 0,
  autocompletePercent: 0,
  restoredPercent: 0,
  assistantMessages: 3,
  outsidePastesBlocked: 0,
  submittedAt: '2031-05-01T10:00:00.000Z',
});
const recordOf = (summary: ProcessSummary): ProcessRecord => ({ summary, answers: [] });
/** The receipt with one figure of its payload changed and the signature left as it was. */
function tamper(receipt: string): string {
  const [header, payload, signature] = receipt.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
  claims.summary.typedPercent = 100;
  claims.summary.pastedPercent = 0;
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

describe('process receipts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  /** A submitted attempt whose result recorded `typedPercent` typed (unless `record` is false). */
  async function submitted(opts: { examId?: string; typedPercent?: number; record?: boolean } = {}) {
    const examId = opts.examId ?? app.exams.put(makeCodingExam()).id;
    const attempt = await startAttempt(app, examId);
    const response = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    const resultId = response.json<{ resultId: string }>().resultId;
    const summary = summaryOf(attempt.attemptId, opts.typedPercent ?? 92);
    if (opts.record !== false) {
      await app.db
        .update(results)
        .set({ process: recordOf(summary), processPending: false })
        .where(eq(results.id, resultId));
    }
    const ownerId = app.exams.findExam(examId).then((exam) => exam!.ownerId);
    return { examId, attempt, resultId, summary, ownerId: await ownerId };
  }
  const getReceipt = (attemptId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/attempts/${attemptId}/receipt`, headers });
  const verify = (resultId: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/results/${resultId}/receipt/verify`, headers, payload });

  it('gives the candidate their stored summary and a receipt anyone can check offline with the published keys', async () => {
    const { attempt, resultId, examId, summary } = await submitted();
    const response = await getReceipt(attempt.attemptId, attempt.headers);
    expect(response.statusCode).toBe(200);
    const body = ProcessReceiptSchema.parse(response.json());
    expect(body.summary).toEqual(summary);

    const keys = await app.inject({ method: 'GET', url: '/api/results/receipt-keys' });
    expect(keys.statusCode).toBe(200);
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
    const jwks = ReceiptKeySetSchema.parse(keys.json());
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(JSON.stringify(jwks)).not.toContain('"d"');
    const header = decodeProtectedHeader(body.receipt);
    expect(header.alg).toBe('EdDSA');
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);

    // What an outside verifier does: the JWKS and a JOSE library, nothing of ours.
    const { payload } = await jwtVerify(body.receipt, createLocalJWKSet(jwks), { algorithms: ['EdDSA'] });
    const claims = ReceiptClaimsSchema.parse(payload);
    expect(claims).toMatchObject({ attemptId: attempt.attemptId, resultId, examId, summary });
    expect(Math.abs(claims.iat * 1000 - Date.now())).toBeLessThan(60_000);
  });

  it('signs a record still pending right after the submit: it is computed on the spot, and verifies against it', async () => {
    const { attempt, resultId, ownerId } = await submitted({ record: false });
    const response = await getReceipt(attempt.attemptId, attempt.headers);
    expect(response.statusCode).toBe(200);
    const { summary, receipt } = ProcessReceiptSchema.parse(response.json());
    expect(summary).toMatchObject({ attemptId: attempt.attemptId, characters: 0, assistantMessages: 0 });
    const [row] = await app.db
      .select({ pending: results.processPending, process: results.process })
      .from(results)
      .where(eq(results.id, resultId));
    expect(row).toMatchObject({ pending: false, process: { summary } });
    const checked = await verify(resultId, creatorHeaders(app, ownerId), { receipt });
    expect(checked.json()).toEqual({ valid: true, summary, matchesRecord: true, record: summary });
  });

  it("verifies for the exam's creator, and says whether the figures still match the record", async () => {
    const { attempt, resultId, ownerId, summary } = await submitted({ typedPercent: 80 });
    const { receipt } = ProcessReceiptSchema.parse((await getReceipt(attempt.attemptId, attempt.headers)).json());
    const owner = creatorHeaders(app, ownerId);

    const good = await verify(resultId, owner, { receipt });
    expect(good.statusCode).toBe(200);
    expect(VerifyReceiptResponseSchema.parse(good.json())).toEqual({
      valid: true,
      summary,
      matchesRecord: true,
      record: summary,
    });

    await app.db
      .update(results)
      .set({ process: recordOf({ ...summary, typedPercent: 40, pastedPercent: 60 }), processPending: false })
      .where(eq(results.id, resultId));
    expect((await verify(resultId, owner, { receipt })).json()).toEqual({
      valid: true,
      summary,
      matchesRecord: false,
      record: { ...summary, typedPercent: 40, pastedPercent: 60 },
    });
  });

  it("refuses a tampered receipt, another attempt's, a stranger's key and garbage, as 200 with the reason", async () => {
    const mine = await submitted();
    const other = await submitted({ examId: mine.examId, typedPercent: 10 });
    const owner = creatorHeaders(app, mine.ownerId);
    const receiptOf = async (s: typeof mine) =>
      ProcessReceiptSchema.parse((await getReceipt(s.attempt.attemptId, s.attempt.headers)).json()).receipt;
    const receipt = await receiptOf(mine);

    const tampered = await verify(mine.resultId, owner, { receipt: tamper(receipt) });
    expect(tampered.statusCode).toBe(200);
    expect(tampered.json()).toEqual({ valid: false, reason: 'signature' });

    // A good receipt, of another result of the same exam: nothing of it is told.
    expect((await verify(mine.resultId, owner, { receipt: await receiptOf(other) })).json()).toEqual({
      valid: false,
      reason: 'attempt',
    });

    // The same claims signed by a key that is not ours, under our kid or none of ours.
    const { kid } = decodeProtectedHeader(receipt);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const claims = (await jwtVerify(receipt, createLocalJWKSet((await app.inject('/api/results/receipt-keys')).json())))
      .payload;
    for (const header of [
      { alg: 'EdDSA', kid },
      { alg: 'EdDSA', kid: 'someone-else' },
    ]) {
      const forged = await new SignJWT(claims).setProtectedHeader(header).sign(stranger);
      expect((await verify(mine.resultId, owner, { receipt: forged })).json()).toEqual({
        valid: false,
        reason: 'signature',
      });
    }
    const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid }).sign(new Uint8Array(32));
    expect((await verify(mine.resultId, owner, { receipt: hmac })).json()).toEqual({
      valid: false,
      reason: 'signature',
    });

    for (const garbage of ['not a receipt', 'a.b.c', `${receipt.split('.')[0]}.!!!.???`]) {
      const response = await verify(mine.resultId, owner, { receipt: garbage });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ valid: false, reason: 'malformed' });
    }
    // Signed with our own key but without a receipt's claims: malformed, never a 500.
    const [ours] = await app.db.select().from(receiptKeys).where(eq(receiptKeys.kid, kid!));
    const ourKey = createPrivateKey({ key: ours!.privateJwk, format: 'jwk' });
    const odd = await new SignJWT({ attemptId: mine.attempt.attemptId })
      .setProtectedHeader({ alg: 'EdDSA', kid })
      .sign(ourKey);
    expect((await verify(mine.resultId, owner, { receipt: odd })).json()).toEqual({
      valid: false,
      reason: 'malformed',
    });
  });

  it('answers 400 naming the field when the body is not a receipt at all', async () => {
    const { resultId, ownerId } = await submitted();
    for (const payload of [{}, { receipt: '' }, { receipt: 'x'.repeat(8001) }, { receipt: 42 }]) {
      const response = await verify(resultId, creatorHeaders(app, ownerId), payload);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('receipt');
    }
  });

  it("hides a result from another creator and refuses candidates on the creator's check", async () => {
    const { attempt, resultId } = await submitted();
    const { receipt } = ProcessReceiptSchema.parse((await getReceipt(attempt.attemptId, attempt.headers)).json());
    expect((await verify(resultId, creatorHeaders(app, `owner-${randomUUID()}`), { receipt })).statusCode).toBe(404);
    expect((await verify(resultId, attempt.headers, { receipt })).statusCode).toBe(403);
    expect((await verify(resultId, {}, { receipt })).statusCode).toBe(401);
  });

  it('refuses a receipt before the submit with 409, and another candidate or no token', async () => {
    const exam = app.exams.put(makeCodingExam());
    const attempt = await startAttempt(app, exam.id);
    const early = await getReceipt(attempt.attemptId, attempt.headers);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(ReceiptMessages.notSubmitted);

    const done = await submitted({ examId: exam.id });
    expect((await getReceipt(done.attempt.attemptId, attempt.headers)).statusCode).toBe(404);
    expect((await getReceipt(done.attempt.attemptId, {})).statusCode).toBe(401);
    expect((await getReceipt(done.attempt.attemptId, creatorHeaders(app, exam.ownerId))).statusCode).toBe(403);
  });

  it('answers 404 with the reason for a result made before edits were recorded', async () => {
    const { attempt, resultId } = await submitted({ record: false });
    // As a result stored before the process column existed: no record, none pending.
    await app.db.update(results).set({ process: null, processPending: false }).where(eq(results.id, resultId));
    const response = await getReceipt(attempt.attemptId, attempt.headers);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe(ReceiptMessages.noRecord);
  });
});

describe('receipt keys shared by replicas', () => {
  it('creates one first key however many replicas ask at once, and a receipt one signs the other verifies', async () => {
    const first = await buildTestApp();
    await first.db.delete(receiptKeys);
    const second = await buildTestApp();
    const third = await buildTestApp();
    try {
      const sets = await Promise.all(
        [second, third, second, third].map((app) => app.inject({ method: 'GET', url: '/api/results/receipt-keys' })),
      );
      const kids = sets.map((r) => ReceiptKeySetSchema.parse(r.json()).keys.map((k) => k.kid));
      expect(kids[0]).toHaveLength(1);
      for (const k of kids) expect(k).toEqual(kids[0]);
      expect(await second.db.select().from(receiptKeys)).toHaveLength(1);

      const exam = second.exams.put(makeCodingExam());
      third.exams.put(exam);
      const attempt = await startAttempt(second, exam.id);
      const submit = await second.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      const resultId = submit.json<{ resultId: string }>().resultId;
      const summary = summaryOf(attempt.attemptId, 55);
      await second.db
        .update(results)
        .set({ process: recordOf(summary), processPending: false })
        .where(eq(results.id, resultId));
      const { receipt } = (
        await second.inject({
          method: 'GET',
          url: `/api/attempts/${attempt.attemptId}/receipt`,
          headers: attempt.headers,
        })
      ).json<{ receipt: string }>();
      const checked = await third.inject({
        method: 'POST',
        url: `/api/results/${resultId}/receipt/verify`,
        headers: creatorHeaders(third, exam.ownerId),
        payload: { receipt },
      });
      expect(checked.json()).toEqual({ valid: true, summary, matchesRecord: true, record: summary });
    } finally {
      await Promise.all([first.close(), second.close(), third.close()]);
    }
  });
});
