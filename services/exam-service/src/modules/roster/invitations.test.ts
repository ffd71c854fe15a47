import { INVITATION_MESSAGE_MAX, RosterMessages } from '@exam/domain/roster';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
let seq = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++seq}`;
type Entry = { id: string; candidateId: string; email: string | null; invitedAt: string | null };

/** The invitation mail's content, its preview, what its link admits, and the invitations-sent counts. */
describe('invitation mails', () => {
  let app: TestApp;
  let nowMs = Date.now();
  const submitted = new Map<string, string[]>();
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

  async function setup(exam: Record<string, unknown> = {}, tag = unique('mail')) {
    const creator = await createCreator(app);
    const created = await createExam(app, creator.headers, { isDraft: false, ...exam });
    const csv = [
      'name,candidate id,email',
      `Ada Lovelace,S-1,ada-${tag}@example.test`,
      `Grace Hopper,S-2,grace-${tag}@example.test`,
      'No Mail,S-3,',
    ].join('\n');
    const imported = await app.inject({
      method: 'POST',
      url: `/api/exams/${created.id}/roster/import`,
      headers: creator.headers,
      payload: { csv },
    });
    const entries = imported.json().entries as Entry[];
    return {
      creator,
      examId: created.id,
      tag,
      entries,
      byId: (c: string) => entries.find((e) => e.candidateId === c)!,
    };
  }
  const invite = (examId: string, headers: Record<string, string>, payload: Record<string, unknown> = {}) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/invitations`, headers, payload });
  const preview = (examId: string, headers: Record<string, string>, payload: Record<string, unknown> = {}) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/invitations/preview`, headers, payload });
  const admit = (examId: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/internal/exams/${examId}/admit`, headers: internal, payload });
  const tokenOf = (text: string) => /\?invite=([\w-]+)/.exec(text)?.[1];

  it('lets a candidate of an access-code exam in by following the mail alone: the personal link stands for the code', async () => {
    const { creator, examId, tag } = await setup({
      title: 'Organic chemistry <midterm>',
      access: 'code',
      accessCode: 'benzene-ring-6',
      timerMinutes: 90,
      opensAt: '2030-01-02T09:00:00Z',
      closesAt: '2030-01-02T17:30:00Z',
      fullScreenEnabled: true,
      attemptsAllowed: 2,
    });
    const message = 'Bring a calculator.\n<script>alert("x")</script> & good luck';
    expect((await invite(examId, creator.headers, { message })).json().invited).toBe(2);

    const [mail] = await app.mailQueue.repository.listTo(`grace-${tag}@example.test`);
    expect(mail).toBeDefined();
    const text = mail!.text;
    expect(mail!.subject).toBe('Invitation: Organic chemistry <midterm>');
    expect(text).toContain('Your candidate ID: S-2');
    expect(text).toContain('Duration: 90 minutes, counted from when you press Start Exam');
    expect(text).toContain('Opens: Wednesday 2030-01-02 at 09:00 UTC');
    expect(text).toContain('Closes: Wednesday 2030-01-02 at 17:30 UTC');
    expect(text).toContain('Full screen: Required');
    expect(text).toContain('You have 2 attempts.');
    expect(text).toContain('AI assistant: Not available.');
    expect(text).toContain('without the exam’s access code');
    expect(text).toContain('  Bring a calculator.\n  <script>alert("x")</script> & good luck');

    // The HTML part: the same content, every supplied value escaped, so the message's script is inert text.
    const html = mail!.html ?? '';
    expect(html).toContain('<html lang="en">');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; good luck');
    expect(html).toContain('Bring a calculator.<br>');
    expect(html).toContain('Organic chemistry &lt;midterm&gt;');
    expect(html).toContain('17:30 UTC');
    const token = tokenOf(text)!;
    expect(html).toContain(`href="http://taker.example.test/exam/${examId}?invite=${token}"`);

    // Following the link: the start page fills the identity from it, and the start needs nothing else.
    const identity = await app.inject({ url: `/api/public/exams/${examId}/invitations/${token}` });
    expect(identity.json()).toEqual({ name: 'Grace Hopper', studentId: 'S-2' });
    const admitted = await admit(examId, { studentId: 'S-2', name: 'Grace Hopper', inviteToken: token });
    expect(admitted.statusCode).toBe(200);
    expect(admitted.json()).toEqual({ name: 'Grace Hopper' });

    // The link is Grace's alone; without a link the code is still required.
    const borrowed = await admit(examId, { studentId: 'S-1', name: 'Ada', inviteToken: token });
    expect(borrowed.statusCode).toBe(403);
    expect(borrowed.json().error.message).toBe(RosterMessages.inviteInvalid);
    expect((await admit(examId, { studentId: 'S-1', name: 'Ada', inviteToken: 'forged' })).statusCode).toBe(403);
    const noCode = await admit(examId, { studentId: 'S-9', name: 'Someone' });
    expect(noCode.json().error.issues).toEqual([{ path: 'accessCode', message: RosterMessages.codeRequired }]);
    expect((await admit(examId, { studentId: 'S-9', name: 'Someone', accessCode: 'benzene-ring-6' })).statusCode).toBe(
      200,
    );
  });

  it('says when a roster exam admits by the link only, and that an untimed exam has no time limit', async () => {
    const { creator, examId, tag } = await setup({ access: 'roster', timerEnabled: false, practice: true });
    await invite(examId, creator.headers);
    const [mail] = await app.mailQueue.repository.listTo(`ada-${tag}@example.test`);
    expect(mail!.text).toContain('Only this link lets you in');
    expect(mail!.text).toContain('Duration: No time limit.');
    expect(mail!.text).toContain('Closes: No closing time.');
    expect(mail!.text).toContain('This is a practice exam');
    expect(mail!.text).not.toContain('Message from the examiner');
    const token = tokenOf(mail!.text)!;
    expect((await admit(examId, { studentId: 'S-1', name: 'Ada', inviteToken: token })).statusCode).toBe(200);
  });

  it('previews the mail for the first selected candidate without queuing anything or making a link', async () => {
    const { creator, examId, tag, byId } = await setup({
      title: 'Genetics quiz',
      access: 'code',
      accessCode: 'mendel-1865',
    });
    const selected = [byId('S-2').id, byId('S-1').id];
    const shown = await preview(examId, creator.headers, { entryIds: selected, message: '  Room 4B <b>only</b>  ' });
    expect(shown.statusCode).toBe(200);
    const body = shown.json();
    expect(body).toMatchObject({
      candidate: { name: 'Ada Lovelace', candidateId: 'S-1' },
      subject: 'Invitation: Genetics quiz',
      recipients: 2,
      alreadyInvited: 0,
    });
    expect(body.text).toContain('Hello Ada Lovelace,');
    expect(body.text).toContain('Room 4B <b>only</b>');
    expect(body.html).toContain('Room 4B &lt;b&gt;only&lt;/b&gt;');
    expect(body.text).toContain('without the exam’s access code');
    expect(await app.mailQueue.repository.listTo(`ada-${tag}@example.test`)).toEqual([]);
    expect(
      (await app.inject({ url: `/api/exams/${examId}/roster`, headers: creator.headers }))
        .json()
        .entries.every((e: Entry) => e.invitedAt === null),
    ).toBe(true);
    // The preview's stand-in link lets nobody in.
    expect(
      (await app.inject({ url: `/api/public/exams/${examId}/invitations/${tokenOf(body.text)}` })).statusCode,
    ).toBe(404);

    // Everyone with an e-mail, and who was invited before.
    await invite(examId, creator.headers, { entryIds: [byId('S-2').id] });
    expect((await preview(examId, creator.headers)).json()).toMatchObject({ recipients: 2, alreadyInvited: 1 });
  });

  it('renders a preview for a sample candidate when nobody has an e-mail yet', async () => {
    const creator = await createCreator(app);
    const exam = await createExam(app, creator.headers, { isDraft: false, title: 'Empty roster' });
    const shown = (await preview(exam.id, creator.headers, { message: 'Hi' })).json();
    expect(shown).toMatchObject({ candidate: null, recipients: 0, alreadyInvited: 0 });
    expect(shown.text).toContain('Hello Sample Candidate,');
  });

  it('refuses a preview or an invitation to anyone but the owner, and a message over the limit naming the field', async () => {
    const { creator, examId, byId } = await setup();
    const other = await createCreator(app);
    expect((await preview(examId, other.headers)).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: `/api/exams/${examId}/invitations/preview`, payload: {} })).statusCode,
    ).toBe(401);
    const long = 'x'.repeat(INVITATION_MESSAGE_MAX + 1);
    for (const send of [preview, invite]) {
      const refused = await send(examId, creator.headers, { message: long });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.issues[0].path).toBe('message');
    }
    expect((await preview(examId, creator.headers, { message: 'x'.repeat(INVITATION_MESSAGE_MAX) })).statusCode).toBe(
      200,
    );
    const noMail = await preview(examId, creator.headers, { entryIds: [byId('S-3').id] });
    expect(noMail.statusCode).toBe(400);
    expect(noMail.json().error.issues[0].path).toBe('entryIds');
    expect((await preview(examId, creator.headers, { entryIds: ['nope'] })).statusCode).toBe(404);
  });

  it('counts invitations sent per exam (entries invited), not candidates who opened the exam', async () => {
    const { creator, examId, byId } = await setup();
    const second = await createExam(app, creator.headers, { isDraft: false, title: 'Not invited yet' });
    const counts = () => app.inject({ url: '/api/exams/invitation-counts', headers: creator.headers });
    expect((await counts()).json()).toEqual({ exams: [] });
    await invite(examId, creator.headers, { entryIds: [byId('S-1').id] });
    await invite(examId, creator.headers, { entryIds: [byId('S-1').id] }); // again: still one candidate invited
    expect((await counts()).json()).toEqual({ exams: [{ examId, invited: 1 }] });
    await invite(examId, creator.headers);
    expect((await counts()).json().exams).toEqual([{ examId, invited: 2 }]);
    expect((await counts()).json().exams.some((e: { examId: string }) => e.examId === second.id)).toBe(false);
    const other = await createCreator(app);
    expect((await app.inject({ url: '/api/exams/invitation-counts', headers: other.headers })).json()).toEqual({
      exams: [],
    });
    expect((await app.inject({ url: '/api/exams/invitation-counts' })).statusCode).toBe(401);
  });

  it('reminds an access-code exam’s candidates only if invited, pointing them to their personal link', async () => {
    const closesAt = new Date(nowMs + 10 * 3_600_000).toISOString();
    const { creator, examId, tag, byId } = await setup({ access: 'code', accessCode: 'reminder-42', closesAt });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: creator.headers,
      payload: { isLive: true },
    });
    await invite(examId, creator.headers, { entryIds: [byId('S-2').id] });
    await app.sendReminders();
    expect(await app.mailQueue.repository.listTo(`ada-${tag}@example.test`)).toEqual([]);
    const graceMails = await app.mailQueue.repository.listTo(`grace-${tag}@example.test`);
    const reminder = graceMails.find((m) => m.kind === 'reminder');
    expect(reminder?.text).toContain('Open the personal link in your invitation e-mail of');
    expect(reminder?.text).toContain('without the exam’s access code');
    expect(reminder?.text).not.toContain(`/exam/${examId}\n`);
    expect(reminder?.html).toContain('Closes');
    nowMs += 3_600_000;
  });
});
