import { CAPABILITY_REFUSALS, type ExamCapability } from '@exam/domain/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';
import { shareExam } from '../../testing/sharing.ts';

type Creator = Awaited<ReturnType<typeof createCreator>>;
type Who = 'owner' | 'editor' | 'grader' | 'proctor' | 'viewer' | 'stranger';
const WHO: Who[] = ['owner', 'editor', 'grader', 'proctor', 'viewer', 'stranger'];

const KEY = 'sk-roles-test-key-1234';

/**
 * What each role may do on exam-service's creator routes (@exam/domain/roles): 'ok' is the route's success,
 * a capability is the 403 that names it, 'hidden' is the 404 of an exam the caller has no role on.
 */
type Expect = 'ok' | 'hidden' | ExamCapability;
type Route = {
  name: string;
  request: (examId: string) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
  expected: Record<Who, Expect>;
};

const onlyOwner = (capability: ExamCapability): Record<Who, Expect> => ({
  owner: 'ok',
  editor: capability,
  grader: capability,
  proctor: capability,
  viewer: capability,
  stranger: 'hidden',
});
const editors: Record<Who, Expect> = {
  owner: 'ok',
  editor: 'ok',
  grader: 'exam:edit',
  proctor: 'exam:edit',
  viewer: 'exam:edit',
  stranger: 'hidden',
};
const everyRole: Record<Who, Expect> = { ...editors, grader: 'ok', proctor: 'ok', viewer: 'ok' };

const routes: Route[] = [
  { name: 'read the exam', request: (id) => ({ method: 'GET', url: `/api/exams/${id}` }), expected: everyRole },
  {
    name: 'edit the exam',
    request: (id) => ({ method: 'PUT', url: `/api/exams/${id}`, payload: { title: 'Renamed' } }),
    expected: editors,
  },
  {
    name: 'switch it live',
    request: (id) => ({ method: 'PUT', url: `/api/exams/${id}`, payload: { isLive: false } }),
    expected: editors,
  },
  {
    name: 'read the roster',
    request: (id) => ({ method: 'GET', url: `/api/exams/${id}/roster` }),
    expected: everyRole,
  },
  {
    name: 'add to the roster',
    request: (id) => ({
      method: 'POST',
      url: `/api/exams/${id}/roster`,
      payload: { name: 'Grace Hopper', candidateId: `S-${Math.random()}`, email: 'grace@example.test' },
    }),
    expected: editors,
  },
  {
    name: 'invite candidates',
    request: (id) => ({ method: 'POST', url: `/api/exams/${id}/invitations/preview`, payload: {} }),
    expected: editors,
  },
  { name: 'preview', request: (id) => ({ method: 'POST', url: `/api/exams/${id}/preview-token` }), expected: editors },
  { name: 'export QTI', request: (id) => ({ method: 'GET', url: `/api/exams/${id}/export.qti` }), expected: editors },
  {
    name: 'export Moodle XML',
    request: (id) => ({ method: 'GET', url: `/api/exams/${id}/export.moodle-xml` }),
    expected: editors,
  },
  {
    name: 'copy a question into their own bank',
    request: (id) => ({ method: 'POST', url: '/api/bank/questions', payload: { examId: id, questionId: 'q1' } }),
    expected: { ...everyRole, proctor: 'exam:read-content' },
  },
  {
    name: 'list members',
    request: (id) => ({ method: 'GET', url: `/api/exams/${id}/members` }),
    expected: onlyOwner('exam:share'),
  },
  {
    name: 'share the exam',
    request: (id) => ({
      method: 'POST',
      url: `/api/exams/${id}/members`,
      payload: { email: `new-${Math.random()}@example.test`, role: 'viewer' },
    }),
    expected: onlyOwner('exam:share'),
  },
  {
    name: 'read the audit log',
    request: (id) => ({ method: 'GET', url: `/api/exams/${id}/audit` }),
    expected: onlyOwner('audit:read'),
  },
  { name: 'LMS roster', request: (id) => ({ method: 'GET', url: `/api/exams/${id}/roster/lms` }), expected: editors },
  {
    name: 'delete the exam',
    request: (id) => ({ method: 'DELETE', url: `/api/exams/${id}` }),
    expected: onlyOwner('exam:delete'),
  },
];

describe('what each role on a shared exam can and cannot do in exam-service', () => {
  let app: TestApp;
  const people = {} as Record<Who, Creator>;

  /** A fresh exam shared with one creator in each role, with a provider key and a roster entry with an e-mail. */
  async function sharedExam() {
    const exam = await createExam(app, people.owner.headers, { aiSettings: { enabled: true, apiKey: KEY } });
    for (const role of ['editor', 'grader', 'proctor', 'viewer'] as const)
      await shareExam(app, people.owner.headers, exam.id, { email: people[role].email, role });
    const entry = await app.inject({
      method: 'POST',
      url: `/api/exams/${exam.id}/roster`,
      headers: people.owner.headers,
      payload: { name: 'Ada Lovelace', candidateId: 'S-1', email: 'ada@example.test' },
    });
    expect(entry.statusCode).toBe(201);
    return exam.id;
  }

  beforeAll(async () => {
    app = await buildTestApp();
    for (const who of WHO) people[who] = await createCreator(app);
  });
  afterAll(() => app.close());

  for (const who of WHO) {
    it(`${who}: every route answers as the role allows (success, 403 naming the capability, or 404)`, async () => {
      for (const route of routes) {
        // A fresh exam per route, so a rename or a deletion does not change what the next route sees.
        const examId = await sharedExam();
        const response = await app.inject({ ...route.request(examId), headers: people[who].headers });
        const expected = route.expected[who];
        const label = `${who} may ${route.name}? ${response.body.slice(0, 200)}`;
        if (expected === 'ok') expect(response.statusCode, label).toBeLessThan(300);
        else if (expected === 'hidden') {
          expect(response.statusCode, label).toBe(404);
          expect(response.json().error.message).toBe('Exam not found');
        } else {
          expect(response.statusCode, label).toBe(403);
          expect(response.json().error.message).toBe(CAPABILITY_REFUSALS[expected]);
        }
      }
    });
  }

  it('a refused change changes nothing: the title and the exam stay', async () => {
    const examId = await sharedExam();
    for (const who of ['grader', 'proctor', 'viewer', 'stranger'] as const) {
      await app.inject({
        method: 'PUT',
        url: `/api/exams/${examId}`,
        headers: people[who].headers,
        payload: { title: who },
      });
      await app.inject({ method: 'DELETE', url: `/api/exams/${examId}`, headers: people[who].headers });
    }
    await app.inject({ method: 'DELETE', url: `/api/exams/${examId}`, headers: people.editor.headers });
    const still = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: people.owner.headers });
    expect(still.json().title).toBe('Cell biology midterm');
  });

  it('only the owner changes how long candidates’ data is kept; an editor’s form may send it back unchanged', async () => {
    const examId = await sharedExam();
    const put = (who: Who, retentionDays: number | null) =>
      app.inject({
        method: 'PUT',
        url: `/api/exams/${examId}`,
        headers: people[who].headers,
        payload: { retentionDays, title: `Kept by ${who}` },
      });
    const refused = await put('editor', 30);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(CAPABILITY_REFUSALS['candidates:data']);
    expect((await put('editor', null)).statusCode).toBe(200);
    expect((await put('owner', 30)).statusCode).toBe(200);
    expect((await put('editor', 30)).statusCode).toBe(200);
    const exam = (
      await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: people.owner.headers })
    ).json();
    expect(exam).toMatchObject({ retentionDays: 30, title: 'Kept by editor' });
    const audit = (
      await app.inject({ method: 'GET', url: `/api/exams/${examId}/audit`, headers: people.owner.headers })
    ).json();
    expect(audit.events.filter((e: { action: string }) => e.action === 'retention.changed')).toEqual([
      expect.objectContaining({ actorId: people.owner.user.id, detail: { from: null, to: 30 } }),
    ]);
  });

  it('each role reads the exam with its role and capabilities, and only what the role needs', async () => {
    const examId = await sharedExam();
    const read = async (who: Who) =>
      (await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: people[who].headers })).json();
    const owner = await read('owner');
    expect(owner).toMatchObject({ role: 'owner', aiSettings: { hasApiKey: true, apiKeyLast4: '1234' } });
    expect(owner.capabilities).toContain('exam:share');
    const editor = await read('editor');
    expect(editor).toMatchObject({ role: 'editor', aiSettings: { apiKeyLast4: '1234' } });
    expect(editor.capabilities).not.toContain('exam:delete');
    const grader = await read('grader');
    expect(grader.role).toBe('grader');
    expect(grader.questions).toHaveLength(3);
    expect(grader.aiSettings.apiKeyLast4).toBeNull();
    expect(grader.capabilities).toEqual(['exam:view', 'exam:read-content', 'results:read', 'results:grade']);
    const proctor = await read('proctor');
    expect(proctor.questions).toEqual([]);
    expect(JSON.stringify(proctor)).not.toContain('CANARY');
    expect(proctor.capabilities).toEqual(['exam:view', 'live:view', 'live:control']);
    const viewer = await read('viewer');
    expect(viewer.capabilities).toContain('insights:read');
    expect(viewer.capabilities).not.toContain('results:read');
  });

  it("the roster's e-mails go only to roles that edit the exam", async () => {
    const examId = await sharedExam();
    const emails = async (who: Who) =>
      (await app.inject({ method: 'GET', url: `/api/exams/${examId}/roster`, headers: people[who].headers }))
        .json()
        .entries.map((e: { email: string | null }) => e.email);
    expect(await emails('owner')).toEqual(['ada@example.test']);
    expect(await emails('editor')).toEqual(['ada@example.test']);
    for (const who of ['grader', 'proctor', 'viewer'] as const) expect(await emails(who)).toEqual([null]);
  });

  it("the exam list holds the creator's own exams and those shared with them, each with the role", async () => {
    const examId = await sharedExam();
    for (const who of WHO) {
      const list = (await app.inject({ method: 'GET', url: '/api/exams', headers: people[who].headers })).json();
      const found = list.exams.find((e: { id: string }) => e.id === examId);
      if (who === 'stranger') expect(found).toBeUndefined();
      else expect(found, who).toMatchObject({ role: who });
    }
  });

  it('an editor keeps the owner’s course materials and the exam stays the owner’s', async () => {
    const examId = await sharedExam();
    const edited = await app.inject({
      method: 'PUT',
      url: `/api/exams/${examId}`,
      headers: people.editor.headers,
      payload: { title: 'Edited by the editor', isDraft: false },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ ownerId: people.owner.user.id, role: 'editor', isDraft: false });
  });

  it('a removed member loses the exam at once (404 again)', async () => {
    const examId = await sharedExam();
    const removed = await app.inject({
      method: 'DELETE',
      url: `/api/exams/${examId}/members/${people.editor.user.id}`,
      headers: people.owner.headers,
    });
    expect(removed.statusCode).toBe(200);
    const read = await app.inject({ method: 'GET', url: `/api/exams/${examId}`, headers: people.editor.headers });
    expect(read.statusCode).toBe(404);
  });
});
