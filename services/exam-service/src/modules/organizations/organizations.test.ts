import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { OrganizationMessages } from '@exam/domain/organizations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examMemberInvites, examMembers, organizationMembers, organizations } from '../../db/schema.ts';
import { buildTestApp, createCreator, createExam, TEST_PASSWORD, type TestApp } from '../../testing/app.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;
type OrganizationBody = {
  id: string;
  members: { userId: string; email: string; role: string }[];
  invites: { email: string }[];
};

describe('organizations', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { SSO_ALLOW_LOOPBACK_HTTP: 'true' } });
  });
  afterAll(() => app.close());

  const organizationOf = async (userId: string) =>
    (await app.examDatabase.db.select().from(organizationMembers).where(eq(organizationMembers.userId, userId)))[0];
  const get = (creator: Creator) => app.inject({ method: 'GET', url: '/api/organization', headers: creator.headers });
  const invite = (admin: Creator, email: string, role: 'admin' | 'member' = 'member') =>
    app.inject({ method: 'POST', url: '/api/organization/invites', headers: admin.headers, payload: { email, role } });
  const register = async (email: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: TEST_PASSWORD },
    });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json() as { token: string; user: { id: string } };
    return { ...body, email, headers: { authorization: `Bearer ${body.token}` } } as unknown as Creator;
  };
  const setRole = (admin: Creator, userId: string, role: 'admin' | 'member') =>
    app.inject({
      method: 'PATCH',
      url: `/api/organization/members/${userId}`,
      headers: admin.headers,
      payload: { role },
    });
  const remove = (admin: Creator, userId: string) =>
    app.inject({ method: 'DELETE', url: `/api/organization/members/${userId}`, headers: admin.headers });

  /** An admin and a member who joined by invitation. */
  async function team() {
    const admin = await createCreator(app);
    const email = `member-${randomUUID().slice(0, 8)}@example.test`;
    expect((await invite(admin, email)).statusCode).toBe(201);
    const member = await register(email);
    return { admin, member };
  }

  it('gives a new sign-up an organization of its own, of which it is the admin', async () => {
    const creator = await createCreator(app);
    const response = await get(creator);
    expect(response.statusCode).toBe(200);
    const body = response.json() as OrganizationBody;
    expect(body.members).toEqual([expect.objectContaining({ userId: creator.user.id, role: 'admin' })]);
    const me = await app.inject({ method: 'GET', url: '/api/organization/me', headers: creator.headers });
    expect(me.json()).toMatchObject({ organizationId: body.id, role: 'admin' });
  });

  it('puts an invited e-mail into the inviting organization at sign-up, in the invited role, and spends the invite', async () => {
    const { admin, member } = await team();
    const adminOrg = await organizationOf(admin.user.id);
    expect(await organizationOf(member.user.id)).toMatchObject({
      organizationId: adminOrg!.organizationId,
      role: 'member',
    });
    const body = (await get(admin)).json() as OrganizationBody;
    expect(body.invites).toEqual([]);
    expect(body.members.map((m) => m.userId)).toContain(member.user.id);
  });

  it('turns pending exam invitations for the e-mail into exam memberships when the account is made', async () => {
    const owner = await createCreator(app);
    const exam = await createExam(app, owner.headers);
    const email = `grader-${randomUUID().slice(0, 8)}@example.test`;
    await app.examDatabase.db.insert(examMemberInvites).values({
      examId: exam.id,
      email,
      role: 'grader',
      mayRelease: true,
      invitedBy: owner.user.id,
      createdAt: new Date(),
    });
    const grader = await register(email);
    const rows = await app.examDatabase.db.select().from(examMembers).where(eq(examMembers.userId, grader.user.id));
    expect(rows).toEqual([
      expect.objectContaining({ examId: exam.id, role: 'grader', mayRelease: true, addedBy: owner.user.id }),
    ]);
    expect(
      await app.examDatabase.db.select().from(examMemberInvites).where(eq(examMemberInvites.email, email)),
    ).toEqual([]);
  });

  it('answers 403 to a member on every admin route, and lets the member read only their own organization summary', async () => {
    const { member } = await team();
    const calls = [
      { method: 'GET', url: '/api/organization' },
      { method: 'PATCH', url: '/api/organization', payload: { name: 'Mine now' } },
      { method: 'POST', url: '/api/organization/invites', payload: { email: 'x@example.test', role: 'admin' } },
      { method: 'PATCH', url: `/api/organization/members/${member.user.id}`, payload: { role: 'admin' } },
      { method: 'DELETE', url: `/api/organization/members/${member.user.id}` },
      {
        method: 'PUT',
        url: '/api/organization/sso',
        payload: { issuer: 'http://127.0.0.1:9', clientId: 'x', emailDomains: [], enabled: true },
      },
    ] as const;
    for (const call of calls) {
      const response = await app.inject({ ...call, headers: member.headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
    }
    const me = await app.inject({ method: 'GET', url: '/api/organization/me', headers: member.headers });
    expect(me.json()).toMatchObject({ role: 'member' });
    const anonymous = await app.inject({ method: 'GET', url: '/api/organization' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never lets an admin act on another organization’s member', async () => {
    const { member } = await team();
    const stranger = await createCreator(app);
    expect((await setRole(stranger, member.user.id, 'member')).statusCode).toBe(404);
    expect((await remove(stranger, member.user.id)).statusCode).toBe(404);
  });

  it('refuses to demote or remove the last admin, and allows it once another admin exists', async () => {
    const { admin, member } = await team();
    const demote = await setRole(admin, admin.user.id, 'member');
    expect(demote.statusCode).toBe(400);
    expect(demote.json().error.message).toBe(OrganizationMessages.lastAdmin);
    expect((await remove(admin, admin.user.id)).statusCode).toBe(400);

    expect((await setRole(admin, member.user.id, 'admin')).statusCode).toBe(200);
    expect((await setRole(admin, admin.user.id, 'member')).statusCode).toBe(200);
    // The former admin is now a member: the admin routes are closed to them.
    expect((await get(admin)).statusCode).toBe(403);
  });

  it('gives a removed member an organization of their own, so they keep their account', async () => {
    const { admin, member } = await team();
    const response = await remove(admin, member.user.id);
    expect(response.statusCode).toBe(200);
    expect((response.json() as OrganizationBody).members.map((m) => m.userId)).not.toContain(member.user.id);
    const own = await organizationOf(member.user.id);
    expect(own).toMatchObject({ role: 'admin' });
    expect(own!.organizationId).not.toBe((await organizationOf(admin.user.id))!.organizationId);
  });

  const invitations = (creator: Creator) =>
    app.inject({ method: 'GET', url: '/api/organization/invitations', headers: creator.headers });
  const accept = (creator: Creator, organizationId: string) =>
    app.inject({
      method: 'POST',
      url: `/api/organization/invitations/${organizationId}/accept`,
      headers: creator.headers,
    });

  it('moves an account of another organization when its owner accepts the invitation, keeping its exams', async () => {
    const admin = await createCreator(app);
    const other = await createCreator(app);
    const target = (await organizationOf(admin.user.id))!.organizationId;
    const left = (await organizationOf(other.user.id))!.organizationId;
    const exam = await createExam(app, other.headers);
    expect((await invite(admin, other.email, 'member')).statusCode).toBe(201);
    // Nothing moves until they accept; they are told to sign in and accept.
    expect((await organizationOf(other.user.id))!.organizationId).toBe(left);
    const [notice] = await app.mailQueue.repository.listTo(other.email);
    expect(notice!.text).toContain('accept it on your organization page');
    const listed = (await invitations(other)).json();
    expect(listed.invitations).toEqual([
      expect.objectContaining({ organizationId: target, organizationName: expect.any(String), role: 'member' }),
    ]);
    expect((await invitations(admin)).json().invitations).toEqual([]);

    const accepted = await accept(other, target);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ organizationId: target, role: 'member' });
    expect(await organizationOf(other.user.id)).toMatchObject({ organizationId: target, role: 'member' });
    // Their former organization had nobody else: it is gone. Their exam is still theirs.
    expect(await app.examDatabase.db.select().from(organizations).where(eq(organizations.id, left))).toEqual([]);
    const own = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: other.headers });
    expect(own.statusCode).toBe(200);
    expect((await get(admin)).json().members.map((m: { userId: string }) => m.userId)).toContain(other.user.id);
    expect((await invitations(other)).json().invitations).toEqual([]);
    expect((await accept(other, target)).statusCode).toBe(404);
  });

  it('refuses (409) to move the last admin out of an organization others are still in, and moves them once another admin exists', async () => {
    const inviter = await createCreator(app);
    const target = (await organizationOf(inviter.user.id))!.organizationId;
    const { admin, member } = await team();
    const left = (await organizationOf(admin.user.id))!.organizationId;
    expect((await invite(inviter, admin.email, 'admin')).statusCode).toBe(201);
    const refused = await accept(admin, target);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(OrganizationMessages.lastAdminLeaving);
    expect((await organizationOf(admin.user.id))!.organizationId).toBe(left);

    const promote = await app.inject({
      method: 'PATCH',
      url: `/api/organization/members/${member.user.id}`,
      headers: admin.headers,
      payload: { role: 'admin' },
    });
    expect(promote.statusCode).toBe(200);
    expect((await accept(admin, target)).statusCode).toBe(200);
    expect(await organizationOf(admin.user.id)).toMatchObject({ organizationId: target, role: 'admin' });
    expect(await organizationOf(member.user.id)).toMatchObject({ organizationId: left, role: 'admin' });
  });

  it('lets the invited person decline, and refuses to invite someone already in the organization', async () => {
    const admin = await createCreator(app);
    const other = await createCreator(app);
    const target = (await organizationOf(admin.user.id))!.organizationId;
    expect((await invite(admin, other.email)).statusCode).toBe(201);
    const decline = await app.inject({
      method: 'DELETE',
      url: `/api/organization/invitations/${target}`,
      headers: other.headers,
    });
    expect(decline.statusCode).toBe(200);
    expect((await accept(other, target)).statusCode).toBe(404);
    expect((await organizationOf(other.user.id))!.organizationId).not.toBe(target);
    const again = await invite(admin, admin.email);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(OrganizationMessages.alreadyMember);
  });

  it('lists, then cancels, a pending invitation', async () => {
    const admin = await createCreator(app);
    const email = `pending-${randomUUID().slice(0, 8)}@example.test`;
    const invited = (await invite(admin, email, 'admin')).json() as OrganizationBody;
    expect(invited.invites).toEqual([expect.objectContaining({ email, role: 'admin' })]);
    // The invited address gets a notice naming who invited it and where to make the account.
    const [notice] = await app.mailQueue.repository.listTo(email);
    expect(notice).toMatchObject({ kind: 'organization-invite', subject: expect.stringContaining(admin.email) });
    expect(notice!.text).toContain('as an administrator');
    expect(notice!.text).toMatch(/Create your account with this e-mail address to join: \S+\/creator\/auth/);
    const cancel = await app.inject({
      method: 'DELETE',
      url: `/api/organization/invites/${encodeURIComponent(email)}`,
      headers: admin.headers,
    });
    expect((cancel.json() as OrganizationBody).invites).toEqual([]);
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/organization/invites/${encodeURIComponent(email)}`,
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses to turn password sign-in off without single sign-on, explaining why', async () => {
    const admin = await createCreator(app);
    const response = await app.inject({
      method: 'PATCH',
      url: '/api/organization',
      headers: admin.headers,
      payload: { passwordSignIn: false, name: 'Biology department' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(OrganizationMessages.passwordOffNeedsSso);
    const renamed = await app.inject({
      method: 'PATCH',
      url: '/api/organization',
      headers: admin.headers,
      payload: { name: 'Biology department' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Biology department', passwordSignIn: true });
  });

  it('refuses an issuer whose discovery document cannot be fetched, with the reason', async () => {
    const admin = await createCreator(app);
    const response = await app.inject({
      method: 'PUT',
      url: '/api/organization/sso',
      headers: admin.headers,
      payload: { issuer: 'http://127.0.0.1:9', clientId: 'x', emailDomains: ['example.edu'], enabled: true },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('issuer');
    expect(response.json().error.message).toContain(OrganizationMessages.discoveryFailed);
  });
});

describe('organizations without SSO_ALLOW_LOOPBACK_HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('refuses an issuer on plain http or a loopback address before calling it', async () => {
    const admin = await createCreator(app);
    for (const issuer of ['http://idp.example.edu', 'https://127.0.0.1:8443']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/organization/sso/discovery',
        headers: admin.headers,
        payload: { issuer },
      });
      expect(response.statusCode, issuer).toBe(400);
    }
  });
});
