import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examMemberInvites, examMembers } from '../../db/schema.ts';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';
import { shareExam } from '../../testing/sharing.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;

describe('sharing an exam: members, invites and their validation', () => {
  let app: TestApp;
  let owner: Creator;
  let colleague: Creator;
  let examId: string;
  const members = (headers = owner.headers, id = examId) =>
    app.inject({ method: 'GET', url: `/api/exams/${id}/members`, headers });
  const add = (payload: object, headers = owner.headers) =>
    app.inject({ method: 'POST', url: `/api/exams/${examId}/members`, headers, payload });

  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    colleague = await createCreator(app);
  });
  afterAll(() => app.close());

  const fresh = async () => {
    examId = (await createExam(app, owner.headers)).id;
  };

  it('adds an account as a member and an unknown e-mail as a pending invite, each with a notice mail', async () => {
    await fresh();
    const member = await add({ email: colleague.email.toUpperCase(), role: 'grader', mayRelease: true });
    expect(member.statusCode).toBe(201);
    expect(member.json()).toMatchObject({
      kind: 'member',
      member: { creatorId: colleague.user.id, email: colleague.email, role: 'grader', mayRelease: true },
    });
    const stranger = `nobody-yet-${Date.now()}@example.test`;
    const invite = await add({ email: `  ${stranger} `, role: 'proctor', mayRelease: true });
    expect(invite.statusCode).toBe(201);
    // "May release" belongs to graders only.
    expect(invite.json()).toMatchObject({
      kind: 'invite',
      invite: { email: stranger, role: 'proctor', mayRelease: false },
    });

    const listed = (await members()).json();
    expect(listed.owner).toEqual({ creatorId: owner.user.id, email: owner.email });
    expect(listed.members.map((m: { email: string }) => m.email)).toEqual([colleague.email]);
    expect(listed.invites.map((i: { email: string }) => i.email)).toEqual([stranger]);

    const [toMember] = await app.mailQueue.repository.listTo(colleague.email);
    expect(toMember).toMatchObject({ kind: 'exam-shared' });
    expect(toMember!.text).toContain('Cell biology midterm');
    expect(toMember!.text).toContain('as a grader');
    const [toInvite] = await app.mailQueue.repository.listTo(stranger);
    expect(toInvite!.text).toContain('Create an account with this e-mail address');
  });

  it('answers 400 naming the field for an unknown role, a bad e-mail, or the owner’s own e-mail; stores nothing', async () => {
    await fresh();
    const cases = [
      [{ email: colleague.email, role: 'owner' }, 'role'],
      [{ email: colleague.email, role: 'admin' }, 'role'],
      [{ email: colleague.email }, 'role'],
      [{ email: 'not-an-email', role: 'viewer' }, 'email'],
      [{ email: '', role: 'viewer' }, 'email'],
      [{ email: owner.email, role: 'viewer' }, 'email'],
      [{ email: owner.email.toUpperCase(), role: 'editor' }, 'email'],
      [{ email: colleague.email, role: 'grader', mayRelease: 'yes' }, 'mayRelease'],
    ] as const;
    for (const [payload, field] of cases) {
      const response = await add(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    const stored = await app.examDatabase.db.select().from(examMembers).where(eq(examMembers.examId, examId));
    expect(stored).toEqual([]);
  });

  it('answers 409 when the person is already a member or the e-mail already invited', async () => {
    await fresh();
    await shareExam(app, owner.headers, examId, { email: colleague.email, role: 'viewer' });
    expect((await add({ email: colleague.email, role: 'editor' })).statusCode).toBe(409);
    await shareExam(app, owner.headers, examId, { email: 'later@example.test', role: 'viewer' });
    expect((await add({ email: 'later@example.test', role: 'editor' })).statusCode).toBe(409);
  });

  it('changes a role and "may release", and refuses an unknown role or an empty change with 400', async () => {
    await fresh();
    await shareExam(app, owner.headers, examId, { email: colleague.email, role: 'viewer' });
    const url = `/api/exams/${examId}/members/${colleague.user.id}`;
    const patch = (payload: object) => app.inject({ method: 'PATCH', url, headers: owner.headers, payload });
    expect((await patch({ role: 'grader', mayRelease: true })).json()).toMatchObject({
      role: 'grader',
      mayRelease: true,
    });
    expect((await patch({ role: 'proctor' })).json()).toMatchObject({ role: 'proctor', mayRelease: false });
    expect((await patch({ role: 'owner' })).statusCode).toBe(400);
    expect((await patch({})).statusCode).toBe(400);
    const unknown = await app.inject({
      method: 'PATCH',
      url: `/api/exams/${examId}/members/${owner.user.id}`,
      headers: owner.headers,
      payload: { role: 'viewer' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('removes a member and a pending invite; removing either again is 404', async () => {
    await fresh();
    await shareExam(app, owner.headers, examId, { email: colleague.email, role: 'viewer' });
    await shareExam(app, owner.headers, examId, { email: 'pending@example.test', role: 'grader' });
    const member = `/api/exams/${examId}/members/${colleague.user.id}`;
    const invite = `/api/exams/${examId}/invites/${encodeURIComponent('pending@example.test')}`;
    expect((await app.inject({ method: 'DELETE', url: member, headers: owner.headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: invite, headers: owner.headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: member, headers: owner.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: invite, headers: owner.headers })).statusCode).toBe(404);
    const invites = await app.examDatabase.db
      .select()
      .from(examMemberInvites)
      .where(eq(examMemberInvites.examId, examId));
    expect(invites).toEqual([]);
    expect((await members()).json()).toMatchObject({ members: [], invites: [] });
  });

  it('lets no one but the owner share: a member gets 403, anyone else 404 for a real or made-up exam', async () => {
    await fresh();
    await shareExam(app, owner.headers, examId, { email: colleague.email, role: 'editor' });
    const byEditor = await add({ email: 'x@example.test', role: 'viewer' }, colleague.headers);
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().error.message).toBe('Only the owner can share this exam.');
    const outsider = await createCreator(app);
    expect((await members(outsider.headers)).statusCode).toBe(404);
    expect((await members(outsider.headers, 'no-such-exam')).statusCode).toBe(404);
    const escalate = await app.inject({
      method: 'PATCH',
      url: `/api/exams/${examId}/members/${colleague.user.id}`,
      headers: colleague.headers,
      payload: { role: 'editor' },
    });
    expect(escalate.statusCode).toBe(403);
  });

  it('records sharing and authoring in the audit log, newest first, with who did it', async () => {
    await fresh();
    await shareExam(app, owner.headers, examId, { email: colleague.email, role: 'viewer' });
    await app.inject({
      method: 'PATCH',
      url: `/api/exams/${examId}/members/${colleague.user.id}`,
      headers: owner.headers,
      payload: { role: 'editor' },
    });
    await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: colleague.headers,
      payload: { title: 'Renamed', isDraft: false },
    });
    await app.inject({
      method: 'DELETE',
      url: `/api/exams/${examId}/members/${colleague.user.id}`,
      headers: owner.headers,
    });
    const log = await app.inject({ method: 'GET', url: `/api/exams/${examId}/audit`, headers: owner.headers });
    expect(log.statusCode).toBe(200);
    const body = log.json();
    // No results-service in this app: the log says its half is missing.
    expect(body.incomplete).toEqual(['results-service']);
    expect(body.events.map((e: { action: string }) => e.action)).toEqual([
      'member.removed',
      'exam.published',
      'exam.edited',
      'member.role-changed',
      'member.added',
      'exam.created',
    ]);
    const byAction = Object.fromEntries(body.events.map((e: { action: string }) => [e.action, e]));
    expect(byAction['exam.edited']).toMatchObject({ actorEmail: colleague.email, detail: { fields: ['title'] } });
    expect(byAction['member.role-changed']).toMatchObject({
      actorEmail: owner.email,
      subject: colleague.email,
      detail: { from: 'viewer', to: 'editor' },
    });
  });
});
