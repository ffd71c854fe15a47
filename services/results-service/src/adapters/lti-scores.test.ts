import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LtiScoreRequest } from '@exam/domain/lti-ags';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLtiScores } from './lti-scores.ts';

/** exam-service's POST /internal/lti/scores as a plain HTTP server answering what the test queues. */
describe('the LTI score adapter (POST /internal/lti/scores)', () => {
  const answers: Array<{ status: number; body?: unknown }> = [];
  const received: Array<{ token: string | undefined; body: unknown }> = [];
  let server: Server;
  let scores: ReturnType<typeof createHttpLtiScores>;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (part: Buffer) => (text += part.toString()));
      req.on('end', () => {
        received.push({ token: req.headers['x-internal-token'] as string | undefined, body: JSON.parse(text) });
        const answer = answers.shift() ?? { status: 500 };
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    scores = createHttpLtiScores(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'internal-secret');
  });
  afterAll(async () => {
    scores.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const score: LtiScoreRequest = {
    platformId: 'p-1',
    lineItemUrl: 'https://lms.test/li/1',
    userId: 'u-1',
    scoreGiven: 3,
    scoreMaximum: 5,
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
    timestamp: '2030-01-01T10:00:00.000Z',
  };

  it('sends the score with the internal token and passes on what exam-service says', async () => {
    answers.push(
      { status: 200, body: { outcome: 'sent' } },
      { status: 200, body: { outcome: 'failed', code: 'LMS_UNAVAILABLE', message: 'LMS 503', retryable: true } },
    );
    expect(await scores.publish(score)).toEqual({ outcome: 'sent' });
    expect(await scores.publish(score)).toEqual({
      outcome: 'failed',
      code: 'LMS_UNAVAILABLE',
      message: 'LMS 503',
      retryable: true,
    });
    expect(received.at(-1)).toEqual({ token: 'internal-secret', body: score });
  });

  it('turns a removed registration and a refused score into failures no retry fixes', async () => {
    answers.push(
      { status: 404, body: { error: { code: 'NOT_FOUND', message: 'LTI platform not found' } } },
      { status: 400, body: { error: { code: 'VALIDATION', message: 'scoreMaximum: too small' } } },
    );
    expect(await scores.publish(score)).toMatchObject({ outcome: 'failed', retryable: false });
    expect(await scores.publish(score)).toEqual({
      outcome: 'failed',
      code: 'LTI_SCORE_INVALID',
      message: 'scoreMaximum: too small',
      retryable: false,
    });
  });

  it('throws when exam-service fails, so the job tries again later', async () => {
    answers.push({ status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } });
    await expect(scores.publish(score)).rejects.toThrow(/500/);
  });
});
