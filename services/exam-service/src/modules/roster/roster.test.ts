import { RosterMessages } from '@exam/domain/roster';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
let seq = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++seq}`;

describe('rosters, invitations and admission', () => {
  let app: TestApp;
  const submitted = new Map<string, string[]>();
  let nowMs = Date.now();
  beforeAll(async () => {
    app = await buildTestApp({
      env: { TAKER_ORIGIN: 'http://taker.example.test', REMINDER_HOURS_BEFORE_CLOSE: '24' },
      deps: {
        clock: { now: () => new Date(nowMs) },
        submissions: { submittedCandidateKeys: async (examId) => submitted.get(examId) ?? [] },
      },
    });
  });
  afterAll(() => app.close());

  async function setup(exam: Record<string, unknown> = {}) {
    const creator = await createCreator(app);
    const created = await createExam(app, creator.headers, { isDraft: false, ...exam });
    return { creator, examId: created.id };
  }
  const roster = (examId: string, headers: Record<string, string>) =>
    app.inject({ method: 'GET', url: `/api/exams/${examId}/roster`, headers });
  const importCsv = (examId: string, headers: Record<string, string>, csv: string) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/roster/import`, headers, payload: { csv } });
  const invite = (examId: string, headers: Record<string, string>, entryIds?: string[]) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/invitations`, headers, payload: { entryIds } });
  const admit = (examId: string, payload: Record<string, unknown>, headers: Record<string, string> = internal) =>
    app.inject({ method: 'POST', url: `/internal/exams/${examId}/admit`, headers, payload });
  const threeCsv = (tag: string) =>
    [
      'Email,Name,Candidate ID',
      `ada-${tag}@example.test,Ada Lovelace,S-1`,
      `grace-${tag}@example.test,Grace Hopper,S-2`,
      `alan-${tag}@example.test,"Turing, Alan",S-3`,
    ].join('\n');

  it('imports a roster from CSV, and another creator can neither read nor change it', async () => {
    const { creator, examId } = await setup();
    const imported = await importCsv(examId, creator.headers, threeCsv(unique('imp')));
    expect(imported.statusCode).toBe(200);
    expect(imported.json().imported).toBe(3);
    const listed = (await roster(examId, creator.headers)).json().entries;
    expect(listed.map((e: { name: string }) => e.name)).toEqual(['Ada Lovelace', 'Grace Hopper', 'Turing, Alan']);
    expect(listed[0]).toMatchObject({ candidateId: 'S-1', invitedAt: null });

    const other = await createCreator(app);
    expect((await roster(examId, other.headers)).statusCode).toBe(404);
    expect((await importCsv(examId, other.headers, threeCsv('x'))).statusCode).toBe(404);
    expect((await invite(examId, other.headers)).statusCode).toBe(404);
    const entryId = listed[0].id as string;
    const edit = await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}/roster/${entryId}`,
      headers: other.headers,
      payload: { name: 'Mallory', candidateId: 'S-1' },
    });
    expect(edit.statusCode).toBe(404);
    expect((await roster(examId, creator.headers)).json().entries[0].name).toBe('Ada Lovelace');
    expect((await app.inject({ method: 'GET', url: `/api/exams/${examId}/roster` })).statusCode).toBe(401);
  });

  it('refuses a CSV with a bad row as a whole: 400 naming each row and field, nothing imported', async () => {
    const { creator, examId } = await setup();
    await importCsv(examId, creator.headers, 'name,candidate id,email\nAda Lovelace,S-1,ada@example.test');
    const bad = [
      'name,candidate id,email',
      'Ada Renamed,S-1,ada@example.test',
      'Grace Hopper,S-2,grace@example.test',
      'No Id,,noid@example.test',
    ].join('\n');
    const refused = await importCsv(examId, creator.headers, bad);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues).toEqual([
      { path: 'rows.4.candidateId', message: `Row 4: ${RosterMessages.candidateIdRequired}` },
    ]);
    const entries = (await roster(examId, creator.headers)).json().entries;
    expect(entries.map((e: { name: string }) => e.name)).toEqual(['Ada Lovelace']);
  });

  it('re-importing updates a candidate by ID (compared normalised) instead of adding them twice', async () => {
    const { creator, examId } = await setup();
    await importCsv(examId, creator.headers, 'name,candidate id\nAda Lovelace,S-1');
    const again = await importCsv(examId, creator.headers, 'name,candidate id,email\nAda King, s-1 ,ada@example.test');
    expect(again.statusCode).toBe(200);
    expect(again.json().entries).toEqual([
      expect.objectContaining({ name: 'Ada King', candidateId: 's-1', email: 'ada@example.test' }),
    ]);
  });

  it('adds, edits and removes typed entries; a duplicate ID is 409, a missing ID 400 naming the field', async () => {
    const { creator, examId } = await setup();
    const add = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: `/api/exams/${examId}/roster`, headers: creator.headers, payload });
    const added = await add({ name: 'Ada Lovelace', candidateId: 'S-1', email: 'Ada@Example.test' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ email: 'ada@example.test', invitedAt: null });
    expect((await add({ name: 'Other Ada', candidateId: ' s-1' })).statusCode).toBe(409);
    const missing = await add({ name: 'No ID', candidateId: ' ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.issues[0].path).toBe('candidateId');
    const badEmail = await add({ name: 'Bad', candidateId: 'S-9', email: 'nope' });
    expect(badEmail.json().error.issues[0]).toEqual({ path: 'email', message: RosterMessages.badEmail });

    const id = added.json().id as string;
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}/roster/${id}`,
      headers: creator.headers,
      payload: { name: 'Ada King', candidateId: 'S-1', email: '' },
    });
    expect(edited.json()).toMatchObject({ name: 'Ada King', email: null });
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/exams/${examId}/roster/${id}`,
      headers: creator.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await roster(examId, creator.headers)).json().entries).toEqual([]);
  });

  it('queues one invitation per candidate with a personal link that fills their identity', async () => {
    const tag = unique('inv');
    const { creator, examId } = await setup({ title: 'Roster exam' });
    await importCsv(examId, creator.headers, `${threeCsv(tag)}\n,No Mail,S-4`);
    const invited = await invite(examId, creator.headers);
    expect(invited.statusCode).toBe(200);
    expect(invited.json().invited).toBe(3);
    const entries = invited.json().entries as { candidateId: string; invitedAt: string | null }[];
    expect(entries.filter((e) => e.invitedAt).map((e) => e.candidateId)).toEqual(['S-1', 'S-2', 'S-3']);

    const [mail, ...more] = await app.mailQueue.repository.listTo(`grace-${tag}@example.test`);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ kind: 'invitation', status: 'pending', subject: 'Invitation: Roster exam' });
    const link = new RegExp(`http://taker\\.example\\.test/exam/${examId}\\?invite=([\\w-]+)`).exec(mail!.text);
    expect(link).not.toBeNull();
    expect(mail!.text).toContain('Your candidate ID: S-2');

    const identity = await app.inject({ url: `/api/public/exams/${examId}/invitations/${link![1]}` });
    expect(identity.statusCode).toBe(200);
    expect(identity.json()).toEqual({ name: 'Grace Hopper', studentId: 'S-2' });
    expect((await app.inject({ url: `/api/public/exams/${examId}/invitations/not-a-token` })).statusCode).toBe(404);
    // A link works for its own exam only.
    const elsewhere = await setup();
    expect(
      (await app.inject({ url: `/api/public/exams/${elsewhere.examId}/invitations/${link![1]}` })).statusCode,
    ).toBe(404);

    // Inviting one candidate again replaces their link.
    const graceId = (invited.json().entries as { id: string; candidateId: string }[]).find(
      (e) => e.candidateId === 'S-2',
    )!.id;
    expect((await invite(examId, creator.headers, [graceId])).json().invited).toBe(1);
    expect((await app.inject({ url: `/api/public/exams/${examId}/invitations/${link![1]}` })).statusCode).toBe(404);
    expect(await app.mailQueue.repository.listTo(`grace-${tag}@example.test`)).toHaveLength(2);

    // Choosing a candidate without an e-mail is a 400 naming them.
    const noMail = (invited.json().entries as { id: string; candidateId: string }[]).find(
      (e) => e.candidateId === 'S-4',
    )!;
    const refused = await invite(examId, creator.headers, [noMail.id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.issues[0]).toEqual({ path: 'entryIds', message: `${RosterMessages.noEmail}: S-4` });
  });

  it('admits anyone to a link exam, under the name they gave', async () => {
    const { examId } = await setup();
    const res = await admit(examId, { studentId: 'X-1', name: 'Anyone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Anyone' });
    expect((await admit(examId, { studentId: 'X-1', name: 'Anyone' }, {})).statusCode).toBe(401);
  });

  it('admits to a code exam only with the right code, refusing on the accessCode field', async () => {
    const { examId } = await setup({ access: 'code', accessCode: 'open-sesame' });
    const missing = await admit(examId, { studentId: 'X-1', name: 'A' });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error.issues).toEqual([{ path: 'accessCode', message: RosterMessages.codeRequired }]);
    const wrong = await admit(examId, { studentId: 'X-1', name: 'A', accessCode: 'open-says-me' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.issues).toEqual([{ path: 'accessCode', message: RosterMessages.wrongCode }]);
    expect((await admit(examId, { studentId: 'X-1', name: 'A', accessCode: ' open-sesame ' })).statusCode).toBe(200);
  });

  it('admits to a roster exam only candidates on the roster, under the roster’s name', async () => {
    const { creator, examId } = await setup({ access: 'roster' });
    await importCsv(examId, creator.headers, threeCsv(unique('adm')));
    const stranger = await admit(examId, { studentId: 'S-99', name: 'Stranger' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.message).toBe(RosterMessages.notOnRoster);
    const onRoster = await admit(examId, { studentId: ' s-2 ', name: 'G. Hopper' });
    expect(onRoster.statusCode).toBe(200);
    expect(onRoster.json()).toEqual({ name: 'Grace Hopper' });

    // An invitation link works only for its own candidate.
    const invited = (await invite(examId, creator.headers)).json();
    expect(invited.invited).toBe(3);
    const adaMail = (await app.mailQueue.repository.listTo(invited.entries[0].email))[0]!;
    const token = /invite=([\w-]+)/.exec(adaMail.text)![1]!;
    expect((await admit(examId, { studentId: 'S-1', name: 'Ada', inviteToken: token })).statusCode).toBe(200);
    const borrowed = await admit(examId, { studentId: 'S-2', name: 'Grace', inviteToken: token });
    expect(borrowed.statusCode).toBe(403);
    expect(borrowed.json().error.message).toBe(RosterMessages.inviteInvalid);
  });

  it('queues one release notice per roster candidate with an e-mail, however often results are released', async () => {
    const tag = unique('rel');
    const { creator, examId } = await setup({ title: 'Released exam' });
    await importCsv(examId, creator.headers, threeCsv(tag));
    const notify = (candidateKeys: string[]) =>
      app.inject({
        method: 'POST',
        url: `/internal/exams/${examId}/release-notices`,
        headers: internal,
        payload: { candidateKeys },
      });
    expect((await notify(['s-1', 's-2', 'nobody'])).json()).toEqual({ queued: 2 });
    expect((await notify(['s-1', 's-2', 's-3'])).json()).toEqual({ queued: 1 });
    const adaMails = await app.mailQueue.repository.listTo(`ada-${tag}@example.test`);
    expect(adaMails).toEqual([
      expect.objectContaining({ kind: 'result-release', subject: 'Your result is available: Released exam' }),
    ]);
  });

  it("answers the roster's e-mails by candidate key to another service only (the gradebook's Email column)", async () => {
    const tag = unique('eml');
    const { creator, examId } = await setup();
    await importCsv(examId, creator.headers, threeCsv(tag));
    const url = `/internal/exams/${examId}/roster-emails`;
    const answer = await app.inject({ method: 'GET', url, headers: internal });
    expect(answer.statusCode).toBe(200);
    const emails = (answer.json() as { emails: Array<{ candidateKey: string; email: string }> }).emails;
    expect(new Map(emails.map((e) => [e.candidateKey, e.email])).get('s-1')).toBe(`ada-${tag}@example.test`);
    expect((await app.inject({ method: 'GET', url, headers: creator.headers })).statusCode).toBe(401);
    const unknown = await app.inject({
      method: 'GET',
      url: '/internal/exams/no-such-exam/roster-emails',
      headers: internal,
    });
    expect(unknown.json()).toEqual({ emails: [] });
  });

  it('reminds, once, the roster candidates who have not submitted an exam closing within the reminder time', async () => {
    const tag = unique('rem');
    const closesAt = new Date(nowMs + 10 * 3_600_000).toISOString();
    const { creator, examId } = await setup({ closesAt });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: creator.headers,
      payload: { isLive: true },
    });
    await importCsv(examId, creator.headers, threeCsv(tag));
    submitted.set(examId, ['s-2']);
    await app.sendReminders();
    await app.sendReminders();
    const mails = async (who: string) => app.mailQueue.repository.listTo(`${who}-${tag}@example.test`);
    expect(await mails('ada')).toEqual([expect.objectContaining({ kind: 'reminder' })]);
    expect(await mails('grace')).toEqual([]);
    expect(await mails('alan')).toHaveLength(1);

    // An exam closing later than the reminder time is not reminded yet.
    const later = await setup({ closesAt: new Date(nowMs + 48 * 3_600_000).toISOString() });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${later.examId}`,
      headers: later.creator.headers,
      payload: { isLive: true },
    });
    await importCsv(later.examId, later.creator.headers, threeCsv(`${tag}-later`));
    await app.sendReminders();
    expect(await app.mailQueue.repository.listTo(`ada-${tag}-later@example.test`)).toEqual([]);
    nowMs += 30 * 3_600_000;
    await app.sendReminders();
    expect(await app.mailQueue.repository.listTo(`ada-${tag}-later@example.test`)).toHaveLength(1);
  });
});
