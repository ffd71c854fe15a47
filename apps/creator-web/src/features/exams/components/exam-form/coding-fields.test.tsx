import type { RunReport, TestVerdict } from '@exam/domain/coding';
import { QuestionSchema } from '@exam/domain/question';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';
import { makeVerdict } from '@exam/domain/testing';

// jsdom has no layout; CodeMirror measures text ranges for the cursor.
beforeAll(() => {
  Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
});

type Written = { questions: Array<Record<string, unknown>> };
const lastBody = () => examStore.writes.at(-1)?.body as Written;

const verdict = (overrides: Partial<TestVerdict>): TestVerdict => makeVerdict({ timeMs: 25, ...overrides });

const report = (overrides: Partial<RunReport>): RunReport => ({
  runId: 'ref-1',
  state: 'done',
  verdicts: [],
  points: 0,
  maxPoints: 3,
  queuedAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:00:02.000Z',
  ...overrides,
});

/** A draft with one Python question graded by two tests and a reference solution. */
function seedCodingExam() {
  const exam = makeExam({
    title: 'Python basics',
    questions: [
      QuestionSchema.parse({
        id: 'q1',
        type: 'coding',
        title: 'Add',
        language: 'python',
        starterCode: 'a, b = map(int, input().split())\n',
        referenceSolution: 'a, b = map(int, input().split())\nprint(a + b)\n',
        limits: { cpuSeconds: 3, memoryMb: 128 },
        tests: [
          { id: 'a', name: 'Small', stdin: '1 2', expected: '3', points: 1, visible: true },
          { id: 'b', name: 'Big', stdin: '1000 2000', expected: '3000', points: 2, visible: false },
        ],
      }),
    ],
  });
  seedExams(exam);
  return exam;
}

describe('coding question editor', () => {
  it('builds the question from the test list: added, duplicated, removed and edited tests, limits and points as their sum', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Python basics');
    await user.click(screen.getByRole('button', { name: 'Add Coding Question' }));
    await user.click(screen.getByRole('button', { name: 'Question 1 add test' }));

    const first = screen.getByRole('group', { name: 'Question 1 test 1' });
    expect(within(first).getByRole('checkbox', { name: 'Visible to candidates' })).toBeChecked();
    await user.type(within(first).getByLabelText('Name'), 'Small');
    await user.type(within(first).getByLabelText('Input (stdin)'), '1 2');
    await user.type(within(first).getByLabelText('Expected output'), '3');
    await user.type(within(first).getByLabelText('Arguments'), '--fast{enter}-v');

    await user.click(screen.getByRole('button', { name: 'Duplicate question 1 test 1' }));
    const copy = screen.getByRole('group', { name: 'Question 1 test 2' });
    expect(within(copy).getByLabelText('Name')).toHaveValue('Small (copy)');

    await user.click(screen.getByRole('button', { name: 'Question 1 add test' }));
    const third = screen.getByRole('group', { name: 'Question 1 test 3' });
    expect(within(third).getByRole('checkbox', { name: 'Visible to candidates' })).not.toBeChecked();
    await user.type(within(third).getByLabelText('Name'), 'Precise');
    await user.type(within(third).getByLabelText('Expected output'), '0.333');
    const points = within(third).getByLabelText('Points');
    await user.clear(points);
    await user.type(points, '2.5');
    await user.click(within(third).getByRole('combobox', { name: 'Comparison' }));
    await user.click(await screen.findByRole('option', { name: 'Numbers within a tolerance' }));
    const tolerance = within(third).getByLabelText('Tolerance');
    await user.clear(tolerance);
    await user.type(tolerance, '0.01');

    await user.click(screen.getByRole('button', { name: 'Remove question 1 test 2' }));
    expect(screen.queryByRole('group', { name: 'Question 1 test 3' })).not.toBeInTheDocument();
    expect(screen.getByTestId('question-points-0')).toHaveValue('3.5');
    expect(screen.getByTestId('question-points-0')).toHaveAttribute('readonly');

    const cpu = screen.getByLabelText('CPU time limit (seconds)');
    await user.clear(cpu);
    await user.type(cpu, '1.5');
    // The exam has no coding workspace and the question is not SQL: neither field is offered.
    expect(screen.queryByLabelText('Question 1 workspace file')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Question 1 setup script')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    const question = lastBody().questions[0];
    expect(question).toMatchObject({
      type: 'coding',
      language: 'python',
      points: 3.5,
      limits: { cpuSeconds: 1.5, memoryMb: 256 },
      workspaceFile: null,
    });
    expect(question?.tests).toEqual([
      expect.objectContaining({
        name: 'Small',
        stdin: '1 2',
        expected: '3',
        args: ['--fast', '-v'],
        comparison: 'trimmed',
        points: 1,
        visible: true,
      }),
      expect.objectContaining({
        name: 'Precise',
        expected: '0.333',
        comparison: 'numeric',
        tolerance: 0.01,
        points: 2.5,
        visible: false,
      }),
    ]);
    const ids = (question?.tests as Array<{ id: string }>).map((t) => t.id);
    expect(new Set(ids).size).toBe(2);
  });

  it('offers the workspace file when the coding workspace is on, and the setup script for SQL', async () => {
    const exam = makeExam({
      codingWorkspace: {
        enabled: true,
        workspaceType: 'vscode',
        saveFilesInResults: true,
        allowPackageRegistries: false,
      },
      questions: [QuestionSchema.parse({ id: 'q1', type: 'coding', title: 'Top customers', language: 'sql' })],
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    await user.type(await screen.findByLabelText('Question 1 workspace file'), 'q1/answer.sql');
    await user.type(screen.getByLabelText('Question 1 setup script'), 'CREATE TABLE t (x int);');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    expect(lastBody().questions[0]).toMatchObject({
      workspaceFile: 'q1/answer.sql',
      setupScript: 'CREATE TABLE t (x int);',
    });
  });

  it('lets the candidate choose among the languages ticked, each with its starter code, and not for SQL', async () => {
    const exam = seedCodingExam();
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    const languages = await screen.findByRole('group', { name: 'Languages the candidate may choose' });
    expect(within(languages).queryByLabelText('SQL')).not.toBeInTheDocument();
    await user.click(within(languages).getByLabelText('JavaScript'));
    await user.type(screen.getByLabelText('Starter code in JavaScript'), 'const x = 1;');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    expect(lastBody().questions[0]).toMatchObject({
      language: 'python',
      languages: ['python', 'javascript'],
      starterCodes: { javascript: 'const x = 1;' },
    });
  });

  it('runs the reference solution against the tests and shows which fail with expected against actual', async () => {
    const exam = seedCodingExam();
    signInAs();
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/runner/reference', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          report({
            verdicts: [
              verdict({}),
              verdict({
                testId: 'b',
                name: 'Big',
                visible: false,
                outcome: 'failed',
                points: 0,
                maxPoints: 2,
                expected: '3000',
                actual: '2999',
              }),
            ],
            points: 1,
          }),
        );
      }),
    );
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    await user.click(await screen.findByRole('button', { name: 'Question 1 run reference' }));
    expect(await screen.findByText('1 of 2 tests fail: Big')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        language: 'python',
        code: 'a, b = map(int, input().split())\nprint(a + b)\n',
        tests: [
          expect.objectContaining({ id: 'a', stdin: '1 2', expected: '3', points: 1, visible: true }),
          expect.objectContaining({ id: 'b', stdin: '1000 2000', expected: '3000', points: 2, visible: false }),
        ],
        limits: { cpuSeconds: 3, memoryMb: 128 },
        setupScript: '',
        examId: exam.id,
      },
    ]);
    const list = screen.getByRole('list', { name: 'Question 1 reference verdicts' });
    const big = within(list).getByRole('listitem', { name: 'Big: Wrong output' });
    expect(within(big).getByTestId('verdict-1-expected')).toHaveTextContent('3000');
    expect(within(big).getByTestId('verdict-1-actual')).toHaveTextContent('2999');
    expect(within(list).getByRole('listitem', { name: 'Small: Passed' })).toBeInTheDocument();
  });

  it('polls a reference run that has not finished, then says every test passes', async () => {
    const exam = seedCodingExam();
    signInAs();
    const polled: string[] = [];
    server.use(
      http.post('*/api/runner/reference', () => HttpResponse.json(report({ state: 'running', finishedAt: null }))),
      http.get('*/api/runner/runs/:runId', ({ params, request }) => {
        polled.push(`${String(params.runId)}?${new URL(request.url).searchParams.toString()}`);
        return HttpResponse.json(
          report({ verdicts: [verdict({}), verdict({ testId: 'b', name: 'Big', visible: false })] }),
        );
      }),
    );
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    await user.click(await screen.findByRole('button', { name: 'Question 1 run reference' }));
    expect(await screen.findByText('All 2 tests pass')).toBeInTheDocument();
    expect(polled).toEqual(['ref-1?waitMs=20000']);
  });

  it('shows the compiler output, a runtime error and the runner being unavailable', async () => {
    const exam = seedCodingExam();
    signInAs();
    let call = 0;
    server.use(
      http.post('*/api/runner/reference', () => {
        call += 1;
        if (call === 2)
          return HttpResponse.json(
            errorBody('RUNNER_UNAVAILABLE', 'Tests cannot run here: no Docker engine is reachable.'),
            { status: 503 },
          );
        return HttpResponse.json(
          report({
            compileOutput: 'SyntaxError: invalid syntax (main.py, line 2)',
            verdicts: [
              verdict({ outcome: 'runtime-error', points: 0, stderr: 'NameError: name x is not defined' }),
              verdict({ testId: 'b', name: 'Big', visible: false, outcome: 'memory', points: 0, maxPoints: 2 }),
            ],
          }),
        );
      }),
    );
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    const run = await screen.findByRole('button', { name: 'Question 1 run reference' });
    await user.click(run);
    expect(await screen.findByText('2 of 2 tests fail: Small, Big')).toBeInTheDocument();
    expect(screen.getByTestId('compile-output')).toHaveTextContent('SyntaxError');
    expect(screen.getByTestId('verdict-0-stderr')).toHaveTextContent('NameError');
    expect(screen.getByRole('listitem', { name: 'Big: Memory limit exceeded' })).toBeInTheDocument();
    await user.click(run);
    expect(await screen.findByText('Tests cannot run here: no Docker engine is reachable.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Question 1 reference verdicts' })).not.toBeInTheDocument();
  });

  it("puts the server's field error for a test next to that test", async () => {
    const exam = seedCodingExam();
    signInAs();
    server.use(
      http.put('*/api/exams/:id', () =>
        HttpResponse.json(
          errorBody('VALIDATION_FAILED', 'Invalid request', [
            { path: 'body.questions.0.tests.1.id', message: 'Each test needs its own id' },
            { path: 'body.questions.0.tests.0.expected', message: 'Too long' },
          ]),
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    const second = await screen.findByRole('group', { name: 'Question 1 test 2' });
    await waitFor(() => expect(within(second).getByRole('alert')).toHaveTextContent('Each test needs its own id'));
    const first = screen.getByRole('group', { name: 'Question 1 test 1' });
    expect(within(first).getByLabelText('Expected output')).toHaveAccessibleDescription('Too long');
  });
});
