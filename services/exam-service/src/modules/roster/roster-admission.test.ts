import { RosterMessages } from '@exam/domain/roster';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const internal = { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN };
let seq = 0;
const unique = (label: string) => `${label}-${Date.now()}-${++seq}`;

describe('roster admission mode: candidate ID or personal invitation link', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ env: { TAKER_ORIGIN: 'http://taker.example.test' } });
  });
  afterAll(() => app.close());

  async function rosterExam() {
    const creator = await createCreator(app);
    const { id: examId } = await createExam(app, creator.headers, { isDraft: false, access: 'roster' });
    const tag = unique('ra');
    const csv = ['Name,Candidate ID,Email', `Ada Lovelace,S-1,ada-${tag}@example.test`, `Grace Hopper,S-2,`].join('\n');
    await app.inject({
      method: 'POST',
      url: `/api/exams/${examId}/roster/import`,
      headers: creator.headers,
      payload: { csv },
    });
    return { creator, examId, adaEmail: `ada-${tag}@example.test` };
  }
  const admit = (examId: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/internal/exams/${examId}/admit`, headers: internal, payload });
  const setMode = (examId: string, headers: Record<string, string>, rosterAdmission: unknown) =>
    app.inject({ method: 'PUT', url: `/api/exams/${examId}/roster/admission`, headers, payload: { rosterAdmission } });
  const modeOf = async (examId: string, headers: Record<string, string>) =>
    (await app.inject({ url: `/api/exams/${examId}/roster`, headers })).json().rosterAdmission as string;
  async function inviteAda(examId: string, headers: Record<string, string>, email: string) {
    const invited = await app.inject({ method: 'POST', url: `/api/exams/${examId}/invitations`, headers, payload: {} });
    expect(invited.statusCode).toBe(200);
    const mail = (await app.mailQueue.repository.listTo(email))[0]!;
    return { response: invited.json(), token: /invite=([\w-]+)/.exec(mail.text)![1]! };
  }

  it('admits by candidate ID while no invitations were sent, and says so on the roster', async () => {
    const { creator, examId } = await rosterExam();
    expect(await modeOf(examId, creator.headers)).toBe('candidate-id');
    const typed = await admit(examId, { studentId: 'S-2', name: 'G' });
    expect(typed.statusCode).toBe(200);
    expect(typed.json()).toEqual({ name: 'Grace Hopper' });
  });

  it('once invitations are sent, refuses a typed roster ID without its link or with a wrong link, and admits the right link', async () => {
    const { creator, examId, adaEmail } = await rosterExam();
    const { response, token } = await inviteAda(examId, creator.headers, adaEmail);
    expect(response.rosterAdmission).toBe('invitation-link');
    expect(await modeOf(examId, creator.headers)).toBe('invitation-link');

    const typed = await admit(examId, { studentId: 'S-1', name: 'Ada' });
    expect(typed.statusCode).toBe(403);
    expect(typed.json().error.message).toBe(RosterMessages.inviteRequired);
    // A stranger hears the same: a link-only exam does not say which IDs are on its roster.
    const stranger = await admit(examId, { studentId: 'S-99', name: 'Eve' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().error.message).toBe(RosterMessages.inviteRequired);
    const wrong = await admit(examId, { studentId: 'S-1', name: 'Ada', inviteToken: `${token.slice(0, -2)}xx` });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.message).toBe(RosterMessages.inviteInvalid);
    // Another candidate's link (or a candidate never invited) does not open Grace's seat.
    const borrowed = await admit(examId, { studentId: 'S-2', name: 'Grace', inviteToken: token });
    expect(borrowed.statusCode).toBe(403);

    const right = await admit(examId, { studentId: 'S-1', name: 'A. L.', inviteToken: token });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ name: 'Ada Lovelace' });
  });

  it('lets the owner choose the mode either way, and keeps their choice when invitations are sent again', async () => {
    const { creator, examId, adaEmail } = await rosterExam();
    const linkOnly = await setMode(examId, creator.headers, 'invitation-link');
    expect(linkOnly.statusCode).toBe(200);
    expect(linkOnly.json().rosterAdmission).toBe('invitation-link');
    expect((await admit(examId, { studentId: 'S-2', name: 'G' })).json().error.message).toBe(
      RosterMessages.inviteRequired,
    );

    expect((await setMode(examId, creator.headers, 'candidate-id')).json().rosterAdmission).toBe('candidate-id');
    await inviteAda(examId, creator.headers, adaEmail);
    expect(await modeOf(examId, creator.headers)).toBe('candidate-id');
    expect((await admit(examId, { studentId: 'S-2', name: 'G' })).statusCode).toBe(200);
  });

  it('refuses a bad mode with 400 on the field, and another creator’s change with 404, changing nothing', async () => {
    const { creator, examId } = await rosterExam();
    const bad = await setMode(examId, creator.headers, 'anyone');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().error.issues)).toContain('rosterAdmission');
    const other = await createCreator(app);
    expect((await setMode(examId, other.headers, 'invitation-link')).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/exams/${examId}/roster`, headers: other.headers })).statusCode).toBe(404);
    expect(await modeOf(examId, creator.headers)).toBe('candidate-id');
    expect((await admit(examId, { studentId: 'S-2', name: 'G' })).statusCode).toBe(200);
  });
});
