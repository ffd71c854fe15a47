import { QuestionSchema } from '@exam/domain/question';
import { buildZip, deflated, stored } from '@exam/interchange/zip-bombs.testing';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

// jsdom has no layout; CodeMirror measures text ranges for the cursor.
beforeAll(() => {
  Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
});

type Repository = {
  files: Array<{ path: string; content: string }>;
  hiddenFiles: Array<{ path: string; content: string }>;
};
const lastRepository = () =>
  (examStore.writes.at(-1)?.body as { questions: Array<{ repository?: Repository | null }> }).questions[0]!.repository;

const text = (s: string) => new TextEncoder().encode(s);
const upload = (name: string, bytes: Uint8Array | string) =>
  new File([(typeof bytes === 'string' ? text(bytes) : bytes) as Uint8Array<ArrayBuffer>], name);

/** A draft with one agentic Python task, its hidden driver and one starter file, open in the editor. */
async function openTask() {
  const exam = makeExam({
    title: 'Agentic',
    codingWorkspace: {
      enabled: true,
      saveFilesInResults: true,
      workspaceType: 'vscode',
      allowPackageRegistries: false,
    },
    questions: [
      QuestionSchema.parse({
        id: 'q1',
        type: 'coding',
        title: 'Fix the parser',
        content: 'Make **parse()** accept negative numbers.',
        language: 'python',
        tests: [{ id: 't1', stdin: '-1', expected: '-1', points: 1 }],
        repository: {
          files: [{ path: 'parser.py', content: 'def parse(s):\n    return int(s)\n' }],
          hiddenFiles: [{ path: 'main.py', content: 'from parser import parse\nprint(parse(input()))\n' }],
        },
      }),
    ],
  });
  seedExams(exam);
  signInAs();
  const rendered = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
  const starter = await screen.findByRole('region', { name: 'Question 1 starter repository' }, { timeout: 15_000 });
  return { ...rendered, starter, hidden: screen.getByRole('region', { name: 'Question 1 hidden files' }) };
}

const preview = () => screen.getByRole('region', { name: 'Question 1: what the candidate sees' });

describe('agentic task: starter repository and hidden files', () => {
  it('adds, renames, uploads (files and a .zip) and removes files, and sends the repository with the question', async () => {
    const { user, starter, hidden } = await openTask();
    expect(within(preview()).getByText('parser.py')).toBeInTheDocument();
    expect(within(preview()).queryByText('main.py')).not.toBeInTheDocument();

    // A file typed in: its path, then renamed.
    await user.click(within(starter).getByRole('button', { name: 'Add starter file' }));
    const added = within(starter).getByRole('group', { name: 'Question 1 starter file 2' });
    await user.type(within(added).getByLabelText('Path'), 'notes.txt');
    await user.clear(within(added).getByLabelText('Path'));
    await user.type(within(added).getByLabelText('Path'), 'docs/NOTES.md');

    // Several files at once, and a zip downloaded from a repository host (one top folder, a binary, junk).
    await user.upload(within(starter).getByLabelText('Upload starter files or a .zip to question 1'), [
      upload('util.py', 'def helper():\n    pass\n'),
      upload('parser.py', 'def parse(s):\n    raise NotImplementedError\n'),
    ]);
    const zip = buildZip([
      stored('project-main/', new Uint8Array()),
      deflated('project-main/src/app.py', text('print("app")\n')),
      stored('project-main/README.md', text('# Task\n')),
      stored('project-main/logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00])),
      stored('__MACOSX/project-main/._app.py', text('junk')),
    ]);
    await user.upload(within(starter).getByLabelText('Upload starter files or a .zip to question 1'), [
      upload('project.zip', zip),
    ]);
    expect(
      await within(starter).findByText(
        'logo.png was not added: only text files can be part of a repository',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(preview()).getByText('src/app.py')).toBeInTheDocument(), { timeout: 10_000 });

    await user.click(within(starter).getByRole('button', { name: 'Remove Question 1 starter file 2' }));
    // A hidden fixture, uploaded.
    await user.upload(within(hidden).getByLabelText('Upload hidden files or a .zip to question 1'), [
      upload('expected.txt', '-1\n'),
    ]);
    expect(
      await within(hidden).findByRole('group', { name: 'Question 1 hidden file 2' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(within(preview()).queryByText('expected.txt')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastRepository()).toEqual({
      files: [
        { path: 'docs/NOTES.md', content: '' },
        { path: 'parser.py', content: 'def parse(s):\n    raise NotImplementedError\n' },
        { path: 'src/app.py', content: 'print("app")\n' },
        { path: 'README.md', content: '# Task\n' },
      ],
      hiddenFiles: [
        { path: 'main.py', content: 'from parser import parse\nprint(parse(input()))\n' },
        { path: 'expected.txt', content: '-1\n' },
      ],
    });
    // The first render loads the editor's lazy chunks, and CodeMirror mounts once per file: slow on a busy machine.
  }, 90_000);

  it('refuses a zip it cannot read, with the reason, and adds nothing', async () => {
    const { user, starter } = await openTask();
    await user.upload(within(starter).getByLabelText('Upload starter files or a .zip to question 1'), [
      upload('broken.zip', 'not a zip at all'),
    ]);
    expect(
      await within(starter).findByText(/broken\.zip was not added: the zip could not be read/),
    ).toBeInTheDocument();
    expect(within(starter).getAllByRole('group')).toHaveLength(1);
  });

  it("shows a path the runner keeps for itself at the field before saving, and the server's issues beside theirs", async () => {
    const reason = 'Each file needs its own path';
    server.use(
      http.put('*/api/exams/:id', () =>
        HttpResponse.json(
          errorBody('VALIDATION', reason, [{ path: 'questions.0.repository.hiddenFiles.0.path', message: reason }]),
          { status: 400 },
        ),
      ),
    );
    const { user, starter, hidden } = await openTask();
    const path = within(within(starter).getByRole('group', { name: 'Question 1 starter file 1' })).getByLabelText(
      'Path',
    );
    await user.clear(path);
    await user.type(path, 'tests/fixture.txt');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(path).toHaveAccessibleDescription('"tests" is kept for the test runner'));
    expect(examStore.writes).toHaveLength(0);

    await user.clear(path);
    await user.type(path, 'parser.py');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const hiddenPath = within(within(hidden).getByRole('group', { name: 'Question 1 hidden file 1' })).getByLabelText(
      'Path',
    );
    await waitFor(() => expect(hiddenPath).toHaveAccessibleDescription(reason));
    // Typing into CodeMirror-backed fields of a whole task: as slow as the test above on a busy machine.
  }, 90_000);

  it('turns a coding question into an agentic task and back', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Agentic');
    await user.click(screen.getByRole('button', { name: 'Add Coding Question' }));
    const toggle = screen.getByRole('switch', { name: 'Question 1 is an agentic task (starter repository)' });
    await user.click(toggle);
    expect(screen.getByRole('region', { name: 'Question 1 starter repository' })).toBeInTheDocument();
    expect(within(preview()).getByText('No starter files yet.')).toBeInTheDocument();
    await user.click(toggle);
    expect(screen.queryByRole('region', { name: 'Question 1 starter repository' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastRepository()).toBeNull();
  });
});
