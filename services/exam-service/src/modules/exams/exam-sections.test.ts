import { InternalExamSchema } from '@exam/domain/internal';
import { SectionMessages } from '@exam/domain/sections';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createCreator, createExam, examBody, type TestApp } from '../../testing/app.ts';

const sections = [
  { id: 'alone', title: 'On your own', assistant: false, timeLimitMinutes: 15 },
  { id: 'aided', title: 'With the assistant', assistant: true, timeLimitMinutes: null },
];

/** examBody's three questions: the MCQ alone, the short answer and the upload with the assistant. */
function sectionedBody(overrides: Record<string, unknown> = {}) {
  const body = examBody();
  return examBody({
    sections,
    questions: body.questions.map((q, i) => ({ ...q, sectionId: i === 0 ? 'alone' : 'aided' })),
    ...overrides,
  });
}

describe('exam sections', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<typeof createCreator>>;
  beforeAll(async () => {
    app = await buildTestApp();
    owner = await createCreator(app);
  });
  afterAll(() => app.close());

  const create = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/exams', headers: owner.headers, payload });
  const put = (id: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'PUT', url: `/api/exams/${id}`, headers: owner.headers, payload });
  const issuesOf = (response: { json(): unknown }) =>
    (response.json() as { error: { issues: Array<{ path: string; message: string }> } }).error.issues;

  it('stores the sections and each question’s section, and answers them on every read', async () => {
    const created = await create(sectionedBody());
    expect(created.statusCode).toBe(201);
    const exam = created.json().exam;
    expect(exam.sections).toEqual(sections);
    expect(exam.questions.map((q: { sectionId: string | null }) => q.sectionId)).toEqual(['alone', 'aided', 'aided']);

    const read = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}`, headers: owner.headers });
    expect(read.json().sections).toEqual(sections);
    const internal = await app.inject({
      method: 'GET',
      url: `/internal/exams/${exam.id}`,
      headers: { 'x-internal-token': TEST_SECRETS.INTERNAL_TOKEN },
    });
    expect(InternalExamSchema.parse(internal.json()).sections).toEqual(sections);

    // What a candidate reads before starting, and the owner's preview: the sections with their question counts.
    const published = await put(exam.id, { isDraft: false, isLive: true });
    expect(published.statusCode).toBe(200);
    const summary = await app.inject({ method: 'GET', url: `/api/public/exams/${exam.id}` });
    expect(summary.json().sections).toEqual([
      { ...sections[0], questionCount: 1 },
      { ...sections[1], questionCount: 2 },
    ]);
    const token = (
      await app.inject({ method: 'POST', url: `/api/exams/${exam.id}/preview-token`, headers: owner.headers })
    ).json().token;
    const preview = await app.inject({
      method: 'GET',
      url: `/api/public/exams/${exam.id}/preview`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(preview.json().sections).toHaveLength(2);
    expect(preview.json().questions.map((q: { sectionId: string | null }) => q.sectionId)).toEqual([
      'alone',
      'aided',
      'aided',
    ]);

    // Sections are optional: an exam without them has none.
    expect((await createExam(app, owner.headers)).sections).toEqual([]);
  });

  it('refuses bad sections with 400 naming the field', async () => {
    const duplicate = await create(sectionedBody({ sections: [sections[0], { ...sections[1], id: 'alone' }] }));
    expect(duplicate.statusCode).toBe(400);
    expect(issuesOf(duplicate)).toContainEqual({ path: 'sections.1.id', message: SectionMessages.duplicateSection });

    const unknown = await create(
      sectionedBody({
        questions: examBody().questions.map((q, i) => ({ ...q, sectionId: i === 1 ? 'nowhere' : null })),
      }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(issuesOf(unknown)).toEqual([{ path: 'questions.1.sectionId', message: SectionMessages.unknownSection }]);

    const badLimit = await create(sectionedBody({ sections: [{ ...sections[0], timeLimitMinutes: 0 }, sections[1]] }));
    expect(badLimit.statusCode).toBe(400);
    expect(issuesOf(badLimit)[0]!.path).toBe('sections.0.timeLimitMinutes');

    const pooled = await create(
      sectionedBody({
        pools: [{ id: 'p', title: 'Mixed', draw: 1, points: 1 }],
        questions: examBody().questions.map((q, i) => ({
          ...q,
          poolId: i < 2 ? 'p' : null,
          sectionId: i === 0 ? 'alone' : 'aided',
        })),
      }),
    );
    expect(pooled.statusCode).toBe(400);
    expect(issuesOf(pooled)).toContainEqual({
      path: 'questions.1.sectionId',
      message: SectionMessages.poolAcrossSections,
    });
  });

  it('checks a partial update against the stored other side: sections alone, or questions alone', async () => {
    const exam = (await create(sectionedBody())).json().exam;
    // Dropping a section the stored questions still name.
    const dropped = await put(exam.id, { sections: [sections[0]] });
    expect(dropped.statusCode).toBe(400);
    expect(issuesOf(dropped)[0]).toEqual({ path: 'questions.1.sectionId', message: SectionMessages.unknownSection });
    // Questions naming a section the stored ones do not have.
    const moved = await put(exam.id, {
      questions: exam.questions.map((q: Record<string, unknown>) => ({ ...q, sectionId: 'later' })),
    });
    expect(moved.statusCode).toBe(400);
    expect(issuesOf(moved)[0]!.path).toBe('questions.0.sectionId');

    const renamed = await put(exam.id, { sections: [{ ...sections[0], title: 'Closed book' }, sections[1]] });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().sections[0].title).toBe('Closed book');
    const cleared = await put(exam.id, {
      sections: [],
      questions: exam.questions.map((q: Record<string, unknown>) => ({ ...q, sectionId: null })),
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().sections).toEqual([]);
  });

  it('keeps sections through a QTI export and import, and puts questions imported into a draft in its first section', async () => {
    const exam = (await create(sectionedBody())).json().exam;
    const exported = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/export.qti`,
      headers: owner.headers,
    });
    expect(exported.statusCode).toBe(200);
    const data = exported.rawPayload.toString('base64');
    const imported = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'qti', fileName: 'x.zip', data },
    });
    expect(imported.statusCode).toBe(201);
    const copy = imported.json().exam;
    expect(copy.sections).toEqual(sections);
    expect(copy.questions.map((q: { sectionId: string | null }) => q.sectionId)).toEqual(['alone', 'aided', 'aided']);

    const draft = await createExam(app, owner.headers, { sections: [{ id: 'only', title: 'Only' }] });
    const appended = await app.inject({
      method: 'POST',
      url: '/api/exams/import',
      headers: owner.headers,
      payload: { format: 'qti', fileName: 'x.zip', data, examId: draft.id },
    });
    expect(appended.statusCode).toBe(201);
    expect(appended.json().exam.sections).toEqual([
      { id: 'only', title: 'Only', assistant: true, timeLimitMinutes: null },
    ]);
    expect(appended.json().exam.questions.every((q: { sectionId: string | null }) => q.sectionId === null)).toBe(true);
  });
});
