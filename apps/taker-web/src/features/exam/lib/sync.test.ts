import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { server } from '../../../testing/server.ts';
import { listAnswers, listPending, mergeServerAnswers } from './outbox.ts';
import { createSyncEngine, type SaveStatus, type SyncEngine } from './sync.ts';
import { FileTooLargeError, listUploads } from './uploads.ts';

const engines: SyncEngine[] = [];

async function setup() {
  const fake = createFakeResultsService({ exam: buildPublicExam() });
  server.use(...fake.handlers);
  const db = await openTakerDb();
  const statuses: SaveStatus[] = [];
  const make = (debounceMs = 5) => {
    const engine = createSyncEngine({
      db,
      attemptId: fake.attemptId,
      token: 't',
      debounceMs,
      eventDebounceMs: 5,
      baseDelayMs: 10,
      maxDelayMs: 40,
      submitAttempts: 3,
      onStatus: (s) => statuses.push(s),
      isOnline: () => !fake.state.networkDown,
    });
    engines.push(engine);
    return engine;
  };
  return { fake, db, statuses, make };
}

afterEach(() => {
  for (const engine of engines.splice(0)) engine.dispose();
});

describe('sync engine', () => {
  it('sends only the latest value of a question typed quickly', async () => {
    const { fake, make } = await setup();
    const engine = make(300);
    await engine.saveAnswer(0, 'P');
    await engine.saveAnswer(0, 'Pa');
    await engine.saveAnswer(0, 'Paris');
    await vi.waitFor(() => expect(fake.state.answers.get(0)).toEqual({ answer: 'Paris', seq: 3 }));
    expect(fake.state.putCalls).toBe(1);
  });

  it('drops a pasted NUL character, which the server cannot store, and saves the rest', async () => {
    const { fake, make } = await setup();
    const engine = make();
    await engine.saveAnswer(0, 'Par\u0000is');
    await vi.waitFor(() => expect(fake.state.answers.get(0)).toEqual({ answer: 'Paris', seq: 1 }));
  });

  it('keeps a save made while the network fails and sends it after the network returns', async () => {
    const { fake, db, statuses, make } = await setup();
    const engine = make();
    fake.state.networkDown = true;
    await engine.saveAnswer(1, 'typed offline');
    await vi.waitFor(() => expect(statuses).toContain('offline'));
    expect(fake.state.answers.size).toBe(0);
    expect(await listPending(db, fake.attemptId)).toHaveLength(1);

    fake.state.networkDown = false;
    await vi.waitFor(() => expect(fake.state.answers.get(1)?.answer).toBe('typed offline'));
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('saved'));
    expect(await listPending(db, fake.attemptId)).toEqual([]);
  });

  it('resumes after a reload: a new engine on the same database pushes what the old page left pending', async () => {
    const { fake, db, make } = await setup();
    fake.state.networkDown = true;
    const before = make();
    await before.saveAnswer(2, 'written before the crash');
    before.dispose();
    fake.state.networkDown = false;

    const merged = await mergeServerAnswers(db, fake.attemptId, Object.fromEntries(fake.state.answers));
    expect(merged.get(2)).toBe('written before the crash');
    make().start();
    await vi.waitFor(() => expect(fake.state.answers.get(2)).toEqual({ answer: 'written before the crash', seq: 1 }));
  });

  it('does not let a stale seq overwrite a newer answer on the server', async () => {
    const { fake, make } = await setup();
    fake.state.answers.set(0, { answer: 'newer from another tab', seq: 5 });
    const engine = make();
    await engine.saveAnswer(0, 'stale');
    await engine.flush();
    expect(fake.state.answers.get(0)).toEqual({ answer: 'newer from another tab', seq: 5 });
  });

  it('stops sending for an attempt once the server answers 409 ATTEMPT_CLOSED', async () => {
    const { fake } = await setup();
    const db = await openTakerDb();
    const onClosed = vi.fn();
    const engine = createSyncEngine({
      db,
      attemptId: fake.attemptId,
      token: 't',
      debounceMs: 5,
      baseDelayMs: 5,
      onClosed,
    });
    engines.push(engine);
    fake.state.submitted = true;
    await engine.saveAnswer(0, 'too late');
    await engine.flush();
    expect(onClosed).toHaveBeenCalledWith('This exam has already been submitted. Changes are no longer accepted.');
    const calls = fake.state.putCalls;
    await engine.saveAnswer(0, 'still too late');
    await engine.flush();
    expect(fake.state.putCalls).toBe(calls);
  });

  it('flushes pending answers before submitting and retries the submit until acknowledged', async () => {
    const { fake, make } = await setup();
    const engine = make();
    await engine.saveAnswer(0, 'A');
    fake.state.networkDown = true;
    const submitted = engine.submit();
    setTimeout(() => (fake.state.networkDown = false), 30);
    await expect(submitted).resolves.toEqual({ resultId: 'result-1', answered: 1, total: 1, followUp: false });
    expect(fake.state.answers.get(0)?.answer).toBe('A');
    expect(fake.state.submitCalls).toBe(1);
  });

  it('rejects the submit when the server stays unreachable after the retries', async () => {
    const { fake, make } = await setup();
    const engine = make();
    fake.state.networkDown = true;
    await expect(engine.submit()).rejects.toThrow();
    expect(fake.state.submitCalls).toBe(0);
  });

  it('uploads only the latest of two files chosen for a question while offline', async () => {
    const { fake, db, make } = await setup();
    const engine = make();
    fake.state.networkDown = true;
    expect(await engine.saveFile(0, new File(['first'], 'first.txt', { type: 'text/plain' }))).toBe('File: first.txt');
    expect(await engine.saveFile(0, new File(['second'], 'second.txt', { type: 'text/plain' }))).toBe(
      'File: second.txt',
    );
    expect(await listUploads(db, fake.attemptId)).toHaveLength(1);
    fake.state.networkDown = false;
    expect(await engine.flush()).toBe(true);
    expect(fake.state.uploadCalls).toBe(1);
    expect(fake.state.files.get(0)?.fileName).toBe('second.txt');
    expect(new TextDecoder().decode(fake.state.files.get(0)?.bytes)).toBe('second');
    expect(await listUploads(db, fake.attemptId)).toEqual([]);
  });

  it('removes an answer file that was still on its way, and the server ends with the question unanswered', async () => {
    const { fake, db, make } = await setup();
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let arrived = () => undefined as void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    // Holds the upload at the server's door, then lets the fake service store it as usual.
    server.use(
      http.post('/api/attempts/:attemptId/files/:questionIndex', async () => {
        arrived();
        await gate;
      }),
    );
    const engine = make();
    await engine.saveFile(0, new File(['late'], 'late.txt'));
    await inFlight;
    await engine.removeFile(0);
    expect(await listUploads(db, fake.attemptId)).toEqual([]);
    release();
    await vi.waitFor(() => expect(fake.state.files.get(0)?.fileName).toBe('late.txt'));
    await vi.waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(''));
    await vi.waitFor(async () => expect(await listPending(db, fake.attemptId)).toEqual([]));
    expect((await listAnswers(db, fake.attemptId)).map((a) => a.answer)).toEqual(['']);
  });

  it('refuses a file over the limit before keeping anything', async () => {
    const { fake, db } = await setup();
    const engine = createSyncEngine({ db, attemptId: fake.attemptId, token: 't', uploadMaxBytes: 1024 });
    engines.push(engine);
    await expect(engine.saveFile(0, new File(['x'.repeat(1025)], 'big.bin'))).rejects.toThrow(
      new FileTooLargeError(1024),
    );
    expect(await listUploads(db, fake.attemptId)).toEqual([]);
    expect(await listAnswers(db, fake.attemptId)).toEqual([]);
  });

  it('drops a file the server refuses for good and reports why', async () => {
    const { fake, db } = await setup();
    fake.state.uploadMaxBytes = 1024;
    const settled = vi.fn();
    const engine = createSyncEngine({
      db,
      attemptId: fake.attemptId,
      token: 't',
      baseDelayMs: 5,
      onUploadSettled: settled,
    });
    engines.push(engine);
    // The server's limit is lower than the one this page was told (it changed since the page loaded).
    await engine.saveFile(0, new File(['x'.repeat(2048)], 'notes.txt'));
    await engine.flush();
    expect(settled).toHaveBeenCalledWith(0, '', 'The file is too large. The maximum size is 1 KB.');
    expect(await listUploads(db, fake.attemptId)).toEqual([]);
    expect(fake.state.files.size).toBe(0);
  });

  it('queues proctoring events durably and sends them in a batch', async () => {
    const { fake, make } = await setup();
    const engine = make();
    fake.state.networkDown = true;
    await engine.logEvent({ type: 'focus-lost' });
    await engine.logEvent({ type: 'copy', detail: 'x' });
    fake.state.networkDown = false;
    await engine.flush();
    expect(fake.state.events.map((e) => e.type)).toEqual(['focus-lost', 'copy']);
  });
});
