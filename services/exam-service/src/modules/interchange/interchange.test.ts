import { fixture } from '@exam/interchange/testing';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';

const b64 = (data: Uint8Array | string) => Buffer.from(data).toString('base64');
const gift = (text: string) => ({ format: 'gift', fileName: 'chemistry.gift', data: b64(text) });

describe('question import and QTI export', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let other: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  const listExams = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/api/exams', headers })).json().exams as Array<{ id: string }>;

  it('previews a Moodle GIFT file: the questions and the not-importable list, saving nothing', async () => {
    const before = await listExams(owner.headers);
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams/import/preview',
      headers: owner.headers,
      payload: { format: 'gift', fileName: 'kinds.gift.txt', data: b64(fixture('gift/kinds.gift.txt')) },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.questions).toHaveLength(8);
    expect(body.notImported.map((n: { title: string }) => n.title)).toEqual(['Fruit']);
    expect(body.title).toBe('kinds');
    expect(await listExams(owner.headers)).toEqual(before);
  });

  it('answers 400 with the field and the reason for a file that is not its format, and saves nothing', async () => {
    const before = await listExams(owner.headers);
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'moodle-xml', data: b64('<quiz><question') },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0]).toMatchObject({
      path: 'data',
      message: expect.stringMatching(/^This is not a readable moodle-xml file: Not well-formed XML/),
    });
    const badFormat = await app.inject({
      method: 'POST',
      url: '/api/exams/import/preview',
      headers: owner.headers,
      payload: { format: 'docx', data: b64('x') },
    });
    expect(badFormat.statusCode).toBe(400);
    const nothing = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: gift('::Intro:: Only a description.'),
    });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.issues[0].path).toBe('data');
    expect(await listExams(owner.headers)).toEqual(before);
  });

  it('refuses a file over the size limit', async () => {
    const big = b64(Buffer.alloc(5 * 1024 * 1024 + 10, 'a'));
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams/import/preview',
      headers: owner.headers,
      payload: { format: 'gift', data: big },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0]).toMatchObject({ path: 'data', message: 'The file is larger than 5 MB' });
  });

  it('imports into a new draft exam, then appends to a draft the creator owns with fresh ids', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: gift('::Na:: Symbol of sodium?{=Na}\n\n::Gas:: A noble gas?{=Neon ~Nitrogen}'),
    });
    expect(created.statusCode).toBe(201);
    const { exam } = created.json();
    expect(exam).toMatchObject({ title: 'chemistry', isDraft: true, ownerId: owner.user.id });
    expect(exam.questions.map((q: { title: string }) => q.title)).toEqual(['Na', 'Gas']);

    const appended = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { ...gift('::Gas:: Another noble gas?{=Argon ~Oxygen}'), examId: exam.id },
    });
    expect(appended.statusCode).toBe(201);
    const questions = appended.json().exam.questions as Array<{ id: string; title: string }>;
    expect(questions.map((q) => q.title)).toEqual(['Na', 'Gas', 'Gas']);
    expect(new Set(questions.map((q) => q.id)).size).toBe(3);
  });

  it("imports a QTI stimulus as the exam's passage, and gives it a fresh id when appended to a draft", async () => {
    const manifest = `<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><organizations/><resources>
<resource identifier="s" type="imsqti_stimulus_xmlv3p0" href="stimulus.xml"><file href="stimulus.xml"/></resource>
<resource identifier="i" type="imsqti_item_xmlv3p0" href="stimulus-ref.xml"><file href="stimulus-ref.xml"/></resource>
</resources></manifest>`;
    const zip = zipSync({
      'imsmanifest.xml': new TextEncoder().encode(manifest),
      'stimulus.xml': fixture('qti/question-kinds/stimulus.xml'),
      'stimulus-ref.xml': fixture('qti/question-kinds/stimulus-ref.xml'),
    });
    const payload = { format: 'qti', fileName: 'water.zip', data: b64(zip) };
    const preview = await app.inject({
      method: 'POST',
      url: '/api/exams/import/preview',
      headers: owner.headers,
      payload,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().passages).toEqual([expect.objectContaining({ id: 'passage1', title: 'The water cycle' })]);

    const created = await app.inject({ method: 'POST', url: '/api/exams/import', headers: owner.headers, payload });
    expect(created.statusCode).toBe(201);
    const { exam } = created.json();
    expect(exam.passages).toEqual([expect.objectContaining({ id: 'passage1', title: 'The water cycle' })]);
    expect(exam.questions[0].passageId).toBe('passage1');

    const appended = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { ...payload, examId: exam.id },
    });
    expect(appended.statusCode).toBe(201);
    const after = appended.json().exam as { passages: Array<{ id: string }>; questions: Array<{ passageId: string }> };
    expect(after.passages).toHaveLength(2);
    expect(after.passages[1]?.id).not.toBe('passage1');
    expect(after.questions.map((q) => q.passageId)).toEqual(after.passages.map((p) => p.id));
  });

  it("never imports into another creator's exam or into a published one", async () => {
    const theirs = await createExam(app, other.headers);
    const intoTheirs = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { ...gift('::A:: a?{=a}'), examId: theirs.id },
    });
    expect(intoTheirs.statusCode).toBe(404);
    const published = await createExam(app, owner.headers, { isDraft: false });
    const intoPublished = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { ...gift('::A:: a?{=a}'), examId: published.id },
    });
    expect(intoPublished.statusCode).toBe(409);
    const after = await app.inject({ method: 'GET', url: `/api/exams/${published.id}`, headers: owner.headers });
    expect(after.json().questions).toHaveLength(3);
  });

  it('exports an exam as a QTI package only to its owner, and importing the package gives the exam back', async () => {
    const exam = await createExam(app, owner.headers, { title: 'Cells / "quiz"', shuffleOptions: true });
    const foreign = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/export.qti`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/export.qti`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain('Cells - -quiz-.qti.zip');
    expect(Object.keys(unzipSync(response.rawPayload))).toContain('imsmanifest.xml');

    const imported = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'qti', fileName: 'x.zip', data: response.rawPayload.toString('base64') },
    });
    expect(imported.statusCode).toBe(201);
    const copy = imported.json().exam;
    const strip = (e: Record<string, unknown>) => {
      const { id: _i, createdAt: _c, lastEditedAt: _l, updatedAt: _u, ...rest } = e;
      return rest;
    };
    expect(strip(copy)).toEqual(strip(exam));
  });

  it('exports Moodle XML only to its owner, and importing it gives the questions and their passage back', async () => {
    const questions = [
      {
        id: 'q1',
        type: 'true-false',
        title: 'Pivot',
        content: 'A lever turns on a pivot.',
        correctAnswer: 'true',
        passageId: 'p1',
      },
      {
        id: 'q2',
        type: 'ordering',
        title: 'Order',
        items: ['one', 'two', 'three'],
        scoring: 'partial',
        passageId: 'p1',
      },
      { id: 'q3', type: 'coding', title: 'Code', language: 'python' },
    ];
    const passages = [{ id: 'p1', title: 'Levers', content: 'A lever trades force for distance.' }];
    const exam = await createExam(app, owner.headers, { title: 'Levers', questions, passages });
    const url = `/api/exams/${exam.id}/export.moodle-xml`;
    expect((await app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    const response = await app.inject({ method: 'GET', url, headers: owner.headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('Levers.moodle.xml');
    // The coding question's tests and language cannot go to Moodle: counted here, named in the file.
    expect(response.headers['x-export-losses']).toBe('1');
    expect(response.body).toContain('Not carried over to Moodle XML');

    const imported = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'moodle-xml', fileName: 'Levers.moodle.xml', data: b64(response.body) },
    });
    expect(imported.statusCode).toBe(201);
    const copy = imported.json().exam;
    expect(copy.passages).toEqual([{ id: 'p1', title: 'Levers', content: 'A lever trades force for distance.' }]);
    expect(copy.questions.map((q: { type: string; passageId: string | null }) => [q.type, q.passageId])).toEqual([
      ['true-false', 'p1'],
      ['ordering', 'p1'],
      ['essay', null],
    ]);

    const appended = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'moodle-xml', data: b64(response.body), examId: copy.id },
    });
    expect(appended.statusCode).toBe(201);
    const twice = appended.json().exam;
    expect(twice.passages).toHaveLength(2);
    const fresh = twice.passages[1].id;
    expect(fresh).not.toBe('p1');
    expect(twice.questions.slice(3).map((q: { passageId: string | null }) => q.passageId)).toEqual([
      fresh,
      fresh,
      null,
    ]);
  });
});
