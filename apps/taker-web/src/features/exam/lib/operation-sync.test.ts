import {
  fromCompact,
  replayWithSources,
  sharesOf,
  type AnswerSource,
  type CompactOperation,
} from '@exam/domain/answer-operations';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { server } from '../../../testing/server.ts';
import { listPending, mergeServerAnswers } from './outbox.ts';
import { isCapped } from './operation-log.ts';
import { createSyncEngine, type SyncEngine } from './sync.ts';

const STARTED_AT = '2030-01-01T10:00:00.000Z';
const engines: SyncEngine[] = [];

async function setup(options: { operationsPerSave?: number } = {}) {
  const fake = createFakeResultsService({ exam: buildPublicExam() });
  server.use(...fake.handlers);
  const db = await openTakerDb();
  const make = () => {
    const engine = createSyncEngine({
      db,
      attemptId: fake.attemptId,
      token: 't',
      startedAt: STARTED_AT,
      clockOffsetMs: 0,
      // Sent on flush(), so keystrokes fold into one operation until then.
      debounceMs: 1000,
      eventDebounceMs: 5,
      baseDelayMs: 10,
      maxDelayMs: 40,
      submitAttempts: 3,
      isOnline: () => !fake.state.networkDown,
      ...options,
    });
    engines.push(engine);
    return engine;
  };
  /** The server's operations of a question, rebuilt: the text they replay to and its characters by source. */
  const rebuilt = (questionIndex: number) => {
    const ops = (fake.state.operations.get(questionIndex) ?? []).map((op) => fromCompact(op, Date.parse(STARTED_AT)));
    const { text, runs } = replayWithSources(ops);
    return { text, shares: sharesOf(runs), count: ops.length };
  };
  return { fake, db, make, rebuilt };
}

/** Saves `text` key by key after `start`, as a textarea reports it. */
async function typeInto(engine: SyncEngine, q: number, start: string, text: string, source: AnswerSource = 'typed') {
  let answer = start;
  for (const key of text) {
    answer += key;
    await engine.saveAnswer(q, answer, { source });
  }
  return answer;
}

afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose();
  vi.useRealTimers();
});

describe('edit operations through the autosave', () => {
  it('sends each answer with its operations, which the server replays to the answer with their sources', async () => {
    const { fake, make, rebuilt } = await setup();
    const engine = make();
    let answer = await typeInto(engine, 0, '', 'Mars is red');
    answer += ' (iron oxide)';
    await engine.saveAnswer(0, answer, { source: 'assistant' });
    await engine.saveAnswer(1, 'Venus', { source: 'typed', whole: true });
    await engine.saveAnswer(1, 'Mars', { source: 'typed', whole: true });
    await engine.flush();
    expect(fake.state.answers.get(0)?.answer).toBe(answer);
    expect(rebuilt(0)).toMatchObject({ text: answer, shares: { typed: 11, assistant: 13 } });
    expect(rebuilt(1)).toMatchObject({ text: 'Mars', shares: { typed: 4 }, count: 2 });
    const sent = fake.state.putBodies.find((put) => put.questionIndex === 0)?.body;
    expect(sent?.operations?.start).toBe(0);
    // In the compact form, read back as the server reads it: one operation times all eleven keystrokes.
    const first = fromCompact(sent!.operations!.ops[0]!, Date.parse(STARTED_AT));
    expect(first).toMatchObject({ from: 0, to: 0, insert: 'Mars is red', source: 'typed' });
    expect(first.keys).toHaveLength(10);
  });

  it('stores every operation exactly once through an outage and lost replies, in order', async () => {
    const { fake, db, make, rebuilt } = await setup();
    const engine = make();
    let answer = await typeInto(engine, 0, '', 'first ');
    await engine.flush();
    fake.state.networkDown = true;
    answer = await typeInto(engine, 0, answer, 'offline ');
    await engine.saveAnswer(0, `${answer}[pasted]`, { source: 'pasted' });
    answer = `${answer}[pasted]`;
    await engine.flush();
    expect(rebuilt(0).text).toBe('first ');

    // The network is back, but the server's first two replies are lost after it stored the saves.
    fake.state.loseAnswerResponses = 2;
    fake.state.networkDown = false;
    answer = await typeInto(engine, 0, answer, ' end', 'typed');
    await vi.waitFor(async () => expect(await listPending(db, fake.attemptId)).toEqual([]), { timeout: 5000 });
    expect(fake.state.putBodies.length).toBeGreaterThanOrEqual(3);
    expect(rebuilt(0)).toMatchObject({ text: answer, shares: { typed: answer.length - 8, pasted: 8 } });
    // Resent chunks overlapped what the server held; it kept each operation once (every edit appended text).
    const ops = fake.state.operations.get(0) ?? [];
    expect(ops.map((op) => fromCompact(op, 0).insert).join('')).toBe(answer);
  });

  it('carries more pending operations than one save takes in several saves, in order', async () => {
    const { fake, make, rebuilt } = await setup({ operationsPerSave: 2 });
    const engine = make();
    fake.state.networkDown = true;
    let answer = '';
    for (const [i, word] of ['one', ' two', ' three', ' four', ' five'].entries()) {
      answer += word;
      await engine.saveAnswer(0, answer, { source: i % 2 ? 'pasted' : 'assistant' });
    }
    await engine.flush();
    fake.state.networkDown = false;
    await engine.flush();
    expect(fake.state.putBodies.map((put) => put.body.operations?.start)).toEqual([0, 2, 4]);
    expect(fake.state.putBodies.map((put) => put.body.operations?.ops.length)).toEqual([2, 2, 1]);
    expect(rebuilt(0)).toMatchObject({ text: 'one two three four five', count: 5 });
  });

  it('stops recording for the attempt when the server says it reached its cap, and still saves the answers', async () => {
    const { fake, db, make, rebuilt } = await setup();
    fake.state.operationsCap = 2;
    const engine = make();
    await engine.saveAnswer(0, 'a', { source: 'pasted' });
    await engine.saveAnswer(0, 'ab', { source: 'assistant' });
    await engine.flush();
    await engine.saveAnswer(1, 'x', { source: 'pasted' });
    await engine.flush();
    expect(fake.state.operationsCapped).toBe(true);
    await vi.waitFor(async () => expect(await isCapped(db, fake.attemptId)).toBe(true));
    await engine.saveAnswer(1, 'xy', { source: 'typed' });
    await engine.saveAnswer(0, 'abc', { source: 'typed' });
    await engine.flush();
    expect(fake.state.answers.get(0)?.answer).toBe('abc');
    expect(fake.state.answers.get(1)?.answer).toBe('xy');
    expect(fake.state.putBodies.slice(-2).map((put) => put.body.operations)).toEqual([undefined, undefined]);
    expect(rebuilt(0).text).toBe('ab');
    expect(await listPending(db, fake.attemptId)).toEqual([]);
  });

  it('after a reload, goes on numbering from what the server holds', async () => {
    const { fake, db, make, rebuilt } = await setup();
    const before = make();
    const answer = await typeInto(before, 0, '', 'abc');
    await before.flush();
    before.dispose();
    // Another device went on with the answer: its value and operations are on the server.
    fake.state.answers.set(0, { answer: 'abc!', seq: 50 });
    const held: CompactOperation[] = [...(fake.state.operations.get(0) ?? []), [9000, 3, 3, '!', 0]];
    fake.state.operations.set(0, held);
    await mergeServerAnswers(db, fake.attemptId, { '0': { answer: 'abc!', seq: 50, operations: held.length } });
    const after = make();
    await after.saveAnswer(0, `${answer}!?`, { source: 'typed' });
    await after.flush();
    const last = fake.state.putBodies.at(-1)?.body.operations;
    expect(last?.start).toBe(held.length);
    expect(last?.ops.map((op) => fromCompact(op, 0))).toMatchObject([{ from: 4, to: 4, insert: '?', source: 'typed' }]);
    expect(rebuilt(0)).toMatchObject({ text: 'abc!?', count: held.length + 1 });
  });

  it('sends a save without keepalive when its body is over the browsers’ keepalive limit', async () => {
    const { fake, make } = await setup();
    const engine = make();
    await engine.saveAnswer(0, 'short', { source: 'typed' });
    await engine.flush();
    // About 30,000 characters of answer and as many again in the operation that pasted them.
    await engine.saveAnswer(0, 'short' + 'é'.repeat(30_000), { source: 'pasted' });
    await engine.flush();
    expect(fake.state.putBodies.map((put) => put.keepalive)).toEqual([true, false]);
  });
});
