import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, type TestApp } from '../../testing/app.ts';
import { minimalDocx, minimalPdf, multipartBody } from '../../testing/files.ts';

const INTERNAL = { 'x-internal-token': 'test-internal-token-that-is-long-enough-0123456789' };

describe('course materials', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  let other: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp({
      env: { MATERIAL_MAX_BYTES: '4096', MATERIAL_MAX_DECOMPRESSED_BYTES: '65536', MATERIAL_MAX_TEXT_CHARS: '2000' },
    });
    owner = await createCreator(app);
    other = await createCreator(app);
  });
  afterAll(() => app.close());

  async function upload(headers: Record<string, string>, files: { name: string; content: Buffer }[]) {
    const form = multipartBody(files);
    return app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
  }
  const internalTexts = async (examId: string) =>
    (await app.inject({ method: 'GET', url: `/internal/exams/${examId}`, headers: INTERNAL })).json().materialTexts as {
      name: string;
      text: string;
    }[];

  it('extracts the text of a real pdf, docx and txt uploaded together', async () => {
    const response = await upload(owner.headers, [
      { name: 'cells.pdf', content: minimalPdf('Mitochondria produce ATP for the cell.') },
      { name: 'plants.docx', content: minimalDocx('Chlorophyll absorbs red and blue light.') },
      { name: 'notes.txt', content: Buffer.from('Osmosis moves water across membranes. Ünïcödé ok.') },
    ]);
    expect(response.statusCode).toBe(201);
    const { materials } = response.json();
    expect(materials.map((m: { name: string }) => m.name)).toEqual(['cells.pdf', 'plants.docx', 'notes.txt']);
    expect(materials[0]).toMatchObject({
      mimeType: 'application/pdf',
      textLength: 'Mitochondria produce ATP for the cell.'.length,
    });
    expect(materials[1].mimeType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');

    const exam = await createExam(app, owner.headers, {
      aiSettings: { courseMaterialIds: materials.map((m: { id: string }) => m.id) },
    });
    expect((exam.aiSettings as { courseMaterials: unknown[] }).courseMaterials).toEqual(materials);
    expect(await internalTexts(exam.id)).toEqual([
      { name: 'cells.pdf', text: 'Mitochondria produce ATP for the cell.' },
      { name: 'plants.docx', text: 'Chlorophyll absorbs red and blue light.' },
      { name: 'notes.txt', text: 'Osmosis moves water across membranes. Ünïcödé ok.' },
    ]);
  });

  it('lists the caller’s materials only', async () => {
    const mine = (await upload(owner.headers, [{ name: 'mine.txt', content: Buffer.from('mine') }])).json()
      .materials[0];
    const list = (await app.inject({ method: 'GET', url: '/api/materials', headers: other.headers })).json();
    expect(list.materials.map((m: { id: string }) => m.id)).not.toContain(mine.id);
  });

  it('refuses another file type with 400 and a clear reason, storing none of the batch', async () => {
    const creator = await createCreator(app);
    const response = await upload(creator.headers, [
      { name: 'ok.txt', content: Buffer.from('fine') },
      { name: 'slides.pptx', content: Buffer.from('PK') },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(
      '"slides.pptx" is not a supported course material; upload pdf, doc, docx, txt files',
    );
    expect(
      (await app.inject({ method: 'GET', url: '/api/materials', headers: creator.headers })).json().materials,
    ).toEqual([]);
  });

  it('answers 400 when a file’s content does not match its extension', async () => {
    for (const name of ['broken.pdf', 'broken.docx', 'broken.doc']) {
      const response = await upload(owner.headers, [{ name, content: Buffer.from('this is not really a document') }]);
      expect(response.statusCode, name).toBe(400);
      expect(response.json().error.message).toContain(name);
    }
  });

  it('answers 400 when no file is attached', async () => {
    expect((await upload(owner.headers, [])).statusCode).toBe(400);
  });

  it('answers 413 when a file is larger than MATERIAL_MAX_BYTES', async () => {
    const response = await upload(owner.headers, [{ name: 'big.txt', content: Buffer.alloc(5000, 'a') }]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  const listOf = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/api/materials', headers })).json().materials;

  it('refuses with 413 a docx that inflates past MATERIAL_MAX_DECOMPRESSED_BYTES, storing none of the batch', async () => {
    const creator = await createCreator(app);
    const bomb = minimalDocx('Looks harmless.', { padding: 200_000 });
    expect(bomb.length).toBeLessThan(4096);
    const response = await upload(creator.headers, [
      { name: 'ok.txt', content: Buffer.from('fine') },
      { name: 'bomb.docx', content: bomb },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: '"bomb.docx" unpacks to more than 65536 bytes (MATERIAL_MAX_DECOMPRESSED_BYTES)',
      issues: [{ path: 'files' }],
    });
    expect(await listOf(creator.headers)).toEqual([]);
  });

  it('refuses with 413 a docx whose zip understates the sizes it inflates to', async () => {
    const creator = await createCreator(app);
    const bomb = minimalDocx('Looks harmless.', { padding: 200_000, understateSizes: true });
    const response = await upload(creator.headers, [{ name: 'liar.docx', content: bomb }]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toBe(
      '"liar.docx" unpacks to more than 65536 bytes (MATERIAL_MAX_DECOMPRESSED_BYTES)',
    );
    expect(await listOf(creator.headers)).toEqual([]);
  });

  it('refuses with 413 a txt or docx whose text is longer than MATERIAL_MAX_TEXT_CHARS', async () => {
    const creator = await createCreator(app);
    for (const [name, content] of [
      ['long.txt', Buffer.from('a'.repeat(2001))],
      ['long.docx', minimalDocx('b'.repeat(2001))],
    ] as const) {
      const response = await upload(creator.headers, [{ name, content }]);
      expect(response.statusCode, name).toBe(413);
      expect(response.json().error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: `"${name}" has more than 2000 characters of text (MATERIAL_MAX_TEXT_CHARS)`,
      });
    }
    expect(await listOf(creator.headers)).toEqual([]);
  });

  it('accepts text exactly at MATERIAL_MAX_TEXT_CHARS', async () => {
    const response = await upload(owner.headers, [{ name: 'full.docx', content: minimalDocx('c'.repeat(2000)) }]);
    expect(response.statusCode).toBe(201);
    expect(response.json().materials[0].textLength).toBe(2000);
  });

  it('answers 401 without a token', async () => {
    const form = multipartBody([{ name: 'a.txt', content: Buffer.from('a') }]);
    expect(
      (await app.inject({ method: 'POST', url: '/api/materials', headers: form.headers, payload: form.payload }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses an exam that references another creator’s material', async () => {
    const theirs = (await upload(other.headers, [{ name: 'theirs.txt', content: Buffer.from('private notes') }])).json()
      .materials[0];
    const response = await app.inject({
      method: 'POST',
      url: '/api/exams',
      headers: owner.headers,
      payload: { title: 'x', aiSettings: { courseMaterialIds: [theirs.id] } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.issues[0].path).toBe('aiSettings.courseMaterialIds');
  });

  it('lets only the owner delete a material, and exams then stop listing it', async () => {
    const material = (await upload(owner.headers, [{ name: 'old.txt', content: Buffer.from('old') }])).json()
      .materials[0];
    const exam = await createExam(app, owner.headers, { aiSettings: { courseMaterialIds: [material.id] } });
    const refused = await app.inject({
      method: 'DELETE',
      url: `/api/materials/${material.id}`,
      headers: other.headers,
    });
    expect(refused.statusCode).toBe(404);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/materials/${material.id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id: material.id });
    const after = (await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers })).json();
    expect(after.aiSettings.courseMaterials).toEqual([]);
    expect(await internalTexts(exam.id)).toEqual([]);
  });
});
