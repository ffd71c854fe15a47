import { QuestionSchema } from '@exam/domain/question';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const GIFT = '::Sodium:: Symbol of sodium?{=Na}\n\n::Pairs:: Match{=a -> b =c -> d}';
const question = QuestionSchema.parse({ id: 'q1', type: 'short-answer', title: 'Sodium', acceptedAnswers: ['Na'] });
const preview = {
  format: 'gift',
  title: 'bank',
  questions: [question],
  notImported: [
    { ref: '#2 Pairs', title: 'Pairs', reason: 'A drag-and-drop question: dragging onto a picture is not read' },
  ],
  warnings: [
    { ref: '#1 Sodium', title: 'Sodium', reason: 'Its feedback for particular wrong answers is not carried over' },
  ],
};
const decode = (data: string) => new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));

describe('importing questions from the dashboard', () => {
  it('previews the file with the not-importable reasons, then imports into a new draft on confirm', async () => {
    seedExams();
    const bodies: Array<{ path: string; body: Record<string, string> }> = [];
    server.use(
      http.post('*/api/exams/import/preview', async ({ request }) => {
        bodies.push({ path: 'preview', body: (await request.json()) as Record<string, string> });
        return HttpResponse.json(preview);
      }),
      http.post('*/api/exams/import', async ({ request }) => {
        bodies.push({ path: 'import', body: (await request.json()) as Record<string, string> });
        const exam = makeExam({ title: 'bank', isDraft: true, questions: [question] });
        examStore.exams.push(exam);
        return HttpResponse.json({ ...preview, exam }, { status: 201 });
      }),
    );
    signInAs();
    const { user, router } = renderApp('/creator/dashboard');
    const visited: string[] = [];
    router.subscribe((state) => visited.push(state.location.pathname));
    await user.click(await screen.findByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.upload(
      within(dialog).getByLabelText('File to import'),
      new File([GIFT], 'bank.gift', { type: 'text/plain' }),
    );
    expect(within(dialog).getByRole('radio', { name: 'GIFT (Moodle text format)' })).toBeChecked();
    expect(bodies).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const toImport = await within(dialog).findByRole('region', { name: 'Questions to import' }, { timeout: 5000 });
    expect(toImport).toHaveTextContent('1 question will be imported');
    expect(toImport).toHaveTextContent('Sodium (short answer)');
    expect(within(dialog).getByRole('region', { name: 'Questions that cannot be imported' })).toHaveTextContent(
      'Pairs: A drag-and-drop question: dragging onto a picture is not read',
    );
    expect(
      within(dialog).getByRole('region', { name: 'Questions imported with something left out' }),
    ).toHaveTextContent(
      '1 question is imported but loses somethingSodiumIts feedback for particular wrong answers is not carried over',
    );
    expect(bodies.map((b) => b.path)).toEqual(['preview']);
    expect(bodies[0]?.body).toMatchObject({ format: 'gift', fileName: 'bank.gift' });
    expect(decode(bodies[0]?.body.data ?? '')).toBe(GIFT);

    await user.click(within(dialog).getByRole('button', { name: 'Import 1 question' }));
    // The edit page loads under a busy machine: give the toast and the navigation time.
    expect(await screen.findByText('1 question imported', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(bodies.map((b) => b.path)).toEqual(['preview', 'import']);
    expect(bodies[1]?.body).not.toHaveProperty('examId');
    await waitFor(() => expect(visited).toContain(`/creator/edit-exam/${examStore.exams[0]?.id}`), { timeout: 5000 });
  });

  it('lists the passages the file brings and, apart from what cannot be imported, what an imported question loses', async () => {
    seedExams();
    const onPassage = QuestionSchema.parse({
      id: 'q1',
      type: 'mcq',
      title: 'Clouds',
      options: ['Rivers', 'Vapour'],
      correctAnswer: 'Vapour',
      passageId: 'water',
    });
    const calculated = QuestionSchema.parse({
      id: 'q2',
      type: 'calculated',
      title: 'Area',
      content: 'A plate {w} by {h}: its area?',
      calculated: {
        formula: 'w * h',
        variables: [
          { name: 'w', min: 2, max: 9, decimals: 0 },
          { name: 'h', min: 2, max: 9, decimals: 0 },
        ],
        answerDecimals: null,
      },
    });
    server.use(
      http.post('*/api/exams/import/preview', () =>
        HttpResponse.json({
          format: 'qti',
          title: 'Package',
          questions: [onPassage, calculated],
          passages: [
            { id: 'water', title: 'The water cycle', content: 'Water evaporates.' },
            { id: 'table', title: '', content: '| a | b |' },
          ],
          warnings: [
            { ref: 'pairs1', title: 'Pairs', reason: 'Its feedback blocks in the text are not carried over' },
            { ref: 'pairs1', title: 'Pairs', reason: 'Its gaps are filled by choosing from a list' },
            { ref: 'area1', title: 'Area', reason: 'It refers to several passages; the first is shown beside it' },
          ],
          notImported: [{ ref: 'hot1', title: 'Hotspot', reason: 'qti-hotspot-interaction is not read' }],
        }),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.upload(within(dialog).getByLabelText('File to import'), new File(['PK'], 'package.zip'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));

    const toImport = await within(dialog).findByRole('region', { name: 'Questions to import' }, { timeout: 5000 });
    expect(toImport).toHaveTextContent('Clouds (multiple choice) on the passage “The water cycle”');
    expect(toImport).toHaveTextContent('Area (calculated)');
    expect(within(dialog).getByRole('region', { name: 'Shared passages' })).toHaveTextContent(
      '2 passages: The water cycle, Untitled passage',
    );
    const losses = within(dialog).getByRole('region', { name: 'Questions imported with something left out' });
    expect(losses).toHaveTextContent('2 questions are imported but lose something');
    const items = within(losses).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'PairsIts feedback blocks in the text are not carried overIts gaps are filled by choosing from a list',
      'Its feedback blocks in the text are not carried over',
      'Its gaps are filled by choosing from a list',
      'AreaIt refers to several passages; the first is shown beside it',
      'It refers to several passages; the first is shown beside it',
    ]);
    const cannot = within(dialog).getByRole('region', { name: 'Questions that cannot be imported' });
    expect(cannot).toHaveTextContent('1 question cannot be imported');
    expect(cannot).toHaveTextContent('Hotspot: qti-hotspot-interaction is not read');
    expect(cannot).not.toHaveTextContent('Pairs');
    expect(within(dialog).getByRole('button', { name: 'Import 2 questions' })).toBeEnabled();
  });

  it('shows no passage or loss list when the file brings none', async () => {
    seedExams();
    server.use(http.post('*/api/exams/import/preview', () => HttpResponse.json({ ...preview, warnings: [] })));
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.upload(within(dialog).getByLabelText('File to import'), new File([GIFT], 'bank.gift'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByRole('region', { name: 'Questions to import' }, { timeout: 5000 });
    expect(within(dialog).queryByRole('region', { name: 'Shared passages' })).toBeNull();
    expect(within(dialog).queryByRole('region', { name: 'Questions imported with something left out' })).toBeNull();
  });

  it('shows why a file cannot be read and imports nothing', async () => {
    seedExams();
    let imports = 0;
    server.use(
      http.post('*/api/exams/import/preview', () =>
        HttpResponse.json(
          errorBody('VALIDATION', 'This is not a readable moodle-xml file: Not well-formed XML (line 1)', [
            { path: 'data', message: 'This is not a readable moodle-xml file: Not well-formed XML (line 1)' },
          ]),
          { status: 400 },
        ),
      ),
      http.post('*/api/exams/import', () => {
        imports += 1;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'Import questions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.upload(within(dialog).getByLabelText('File to import'), new File(['<quiz'], 'export.xml'));
    expect(within(dialog).getByRole('radio', { name: 'Moodle XML' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not well-formed XML');
    expect(within(dialog).queryByRole('button', { name: /^Import \d/ })).toBeNull();
    expect(imports).toBe(0);
  });

  it('adds questions to a draft from its row, sending the exam id', async () => {
    const draft = makeExam({ title: 'Draft Quiz', isDraft: true });
    seedExams(draft);
    let sent: Record<string, string> | null = null;
    server.use(
      http.post('*/api/exams/import/preview', () => HttpResponse.json(preview)),
      http.post('*/api/exams/import', async ({ request }) => {
        sent = (await request.json()) as Record<string, string>;
        return HttpResponse.json(
          { ...preview, exam: { ...draft, questions: [...draft.questions, question] } },
          {
            status: 201,
          },
        );
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Import questions into this draft' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import questions' });
    await user.upload(within(dialog).getByLabelText('File to import'), new File([GIFT], 'bank.txt'));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Import 1 question' }));
    await waitFor(() => expect(sent).toMatchObject({ examId: draft.id, format: 'gift' }));
  });

  it('downloads an exam as a QTI package with the creator token', async () => {
    const draft = makeExam({ title: 'Draft Quiz', isDraft: true });
    seedExams(draft);
    let authorization: string | null = null;
    server.use(
      http.get('*/api/exams/:id/export.qti', ({ request }) => {
        authorization = request.headers.get('authorization');
        return new HttpResponse(new Uint8Array([0x50, 0x4b, 3, 4]), {
          headers: {
            'content-type': 'application/zip',
            'content-disposition': `attachment; filename="Draft Quiz.qti.zip"; filename*=UTF-8''Draft%20Quiz.qti.zip`,
          },
        });
      }),
    );
    URL.createObjectURL = vi.fn(() => 'blob:qti');
    URL.revokeObjectURL = vi.fn();
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const token = signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export QTI' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(names).toEqual(['Draft Quiz.qti.zip']);
    expect(authorization).toBe(`Bearer ${token}`);
    expect(await screen.findByText('Downloaded Draft Quiz.qti.zip')).toBeInTheDocument();
    click.mockRestore();
  });

  it('downloads an exam as Moodle XML and says how many things Moodle cannot hold', async () => {
    const draft = makeExam({ title: 'Draft Quiz', isDraft: true });
    seedExams(draft);
    let authorization: string | null = null;
    server.use(
      http.get('*/api/exams/:id/export.moodle-xml', ({ request, params }) => {
        authorization = request.headers.get('authorization');
        expect(params.id).toBe(draft.id);
        return new HttpResponse('<?xml version="1.0"?><quiz></quiz>', {
          headers: {
            'content-type': 'application/xml; charset=utf-8',
            'content-disposition': `attachment; filename="Draft Quiz.moodle.xml"; filename*=UTF-8''Draft%20Quiz.moodle.xml`,
            'x-export-losses': '2',
          },
        });
      }),
    );
    URL.createObjectURL = vi.fn(() => 'blob:moodle');
    URL.revokeObjectURL = vi.fn();
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const token = signInAs();
    const { user } = renderApp('/creator/dashboard');
    await user.click(await screen.findByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Export Moodle XML' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(names).toEqual(['Draft Quiz.moodle.xml']);
    expect(authorization).toBe(`Bearer ${token}`);
    expect(
      await screen.findByText(
        'Downloaded Draft Quiz.moodle.xml. 2 things Moodle cannot hold are listed at the top of the file.',
      ),
    ).toBeInTheDocument();
    click.mockRestore();
  });
});
