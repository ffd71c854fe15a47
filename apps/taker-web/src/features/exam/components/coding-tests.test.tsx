import { RunnerMessages, type RunReport, type TestVerdict } from '@exam/domain/coding';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildQuestion } from '../../../testing/factories.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { QuestionCard } from './question-card.tsx';

// jsdom has no layout; CodeMirror measures text ranges for the cursor.
beforeAll(() => {
  Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
});

const attempt = { attemptId: 'attempt-7', token: 'attempt-token' };
/** What a coding question's card needs besides its own props: no files, no mark for review. */
const fileAndFlagProps = {
  files: { status: new Map(), choose: () => Promise.resolve(), remove: () => Promise.resolve() },
  uploadMaxBytes: 1024,
  flagged: false,
  onToggleFlag: () => undefined,
};

const codingQuestion = () =>
  buildQuestion({
    type: 'coding',
    title: 'Sum two numbers',
    language: 'python',
    points: 5,
    starterCode: 'def solve():\n    pass\n',
    visibleTests: [
      { id: 't1', name: 'Small', stdin: '1 2', args: [], expected: '3', points: 1 },
      { id: 't2', name: '', stdin: '5 5', args: [], expected: '10', points: 1 },
    ],
    hiddenTestCount: 3,
    limits: { cpuSeconds: 2, memoryMb: 256 },
  });

const verdict = (overrides: Partial<TestVerdict>): TestVerdict => ({
  testId: 't1',
  name: 'Small',
  visible: true,
  outcome: 'passed',
  points: 1,
  maxPoints: 1,
  timeMs: 40,
  exitCode: 0,
  ...overrides,
});

const report = (overrides: Partial<RunReport>): RunReport => ({
  runId: 'run-1',
  state: 'done',
  verdicts: [],
  points: 0,
  maxPoints: 2,
  queuedAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:00:01.000Z',
  ...overrides,
});

const runsUrl = '/api/attempts/attempt-7/questions/0/test-runs';

function renderCard(answer = '', onAnswer = vi.fn()) {
  renderWithProviders(
    <QuestionCard
      index={0}
      question={codingQuestion()}
      answer={answer}
      onAnswer={onAnswer}
      {...fileAndFlagProps}
      onCommit={() => undefined}
      onActive={() => undefined}
      attempt={attempt}
    />,
  );
  return { user: userEvent.setup(), onAnswer };
}

describe('Run tests on a coding question', () => {
  it('opens the editor on the starter code without making it the answer, and says the limits and test counts', async () => {
    const { onAnswer } = renderCard('');
    const editor = await screen.findByRole('textbox', { name: 'Code for Q1' });
    expect(editor).toHaveTextContent('def solve():');
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
    expect(screen.getByTestId('limits-0')).toHaveTextContent('2 s · 256 MB');
    expect(screen.getByTestId('test-counts-0')).toHaveTextContent(
      '2 visible tests · 3 hidden tests (run when you submit)',
    );
  });

  it('shows the workspace file that is graded instead of a second editor when the exam has a workspace', async () => {
    const first = renderWithProviders(
      <QuestionCard
        index={0}
        question={{ ...codingQuestion(), workspaceFile: 'q1-sum/main.py' }}
        answer=""
        onAnswer={() => undefined}
        {...fileAndFlagProps}
        onCommit={() => undefined}
        onActive={() => undefined}
        attempt={attempt}
        inWorkspace
      />,
    );
    expect(screen.getByTestId('workspace-file-0')).toHaveTextContent(
      'Edit this answer in the workspace — this file is what is graded: q1-sum/main.py',
    );
    expect(screen.queryByRole('textbox', { name: 'Code for Q1' })).not.toBeInTheDocument();
    expect(screen.queryByText('Loading editor…')).not.toBeInTheDocument();
    first.unmount();
    renderWithProviders(
      <QuestionCard
        index={0}
        question={{ ...codingQuestion(), workspaceFile: 'q1-sum/main.py' }}
        answer=""
        onAnswer={() => undefined}
        {...fileAndFlagProps}
        onCommit={() => undefined}
        onActive={() => undefined}
        attempt={attempt}
        inWorkspace={false}
      />,
    );
    expect(await screen.findByRole('textbox', { name: 'Code for Q1' })).toBeInTheDocument();
    expect(screen.queryByTestId('workspace-file-0')).not.toBeInTheDocument();
  });

  it('keeps the code the candidate typed rather than the starter code', async () => {
    renderCard('print(42)');
    const editor = await screen.findByRole('textbox', { name: 'Code for Q1' });
    expect(editor).toHaveTextContent('print(42)');
    expect(editor).not.toHaveTextContent('def solve');
  });

  it('sends the editor code with the attempt token and shows each verdict, expected against actual for a wrong one', async () => {
    const bodies: unknown[] = [];
    const auth: Array<string | null> = [];
    server.use(
      http.post(runsUrl, async ({ request }) => {
        bodies.push(await request.json());
        auth.push(request.headers.get('authorization'));
        return HttpResponse.json(
          report({
            verdicts: [
              verdict({}),
              verdict({
                testId: 't2',
                name: '',
                outcome: 'failed',
                points: 0,
                expected: '10',
                actual: '11',
                stdin: '5 5',
              }),
            ],
            points: 1,
          }),
        );
      }),
    );
    const { user } = renderCard('print(sum())');
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));

    expect(await screen.findByTestId('run-summary-0')).toHaveTextContent('1 of 2 visible tests passed');
    expect(bodies).toEqual([{ code: 'print(sum())' }]);
    expect(auth).toEqual(['Bearer attempt-token']);
    const list = screen.getByRole('list', { name: 'Test results for Q1' });
    expect(within(list).getByRole('listitem', { name: 'Small: Passed' })).toBeInTheDocument();
    const failed = within(list).getByRole('listitem', { name: 'Test 2: Wrong output' });
    expect(within(failed).getByTestId('verdict-1-expected')).toHaveTextContent('10');
    expect(within(failed).getByTestId('verdict-1-actual')).toHaveTextContent('11');
  });

  it('runs the starter code when the candidate has not edited it', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(runsUrl, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(report({ verdicts: [verdict({})] }));
      }),
    );
    const { user } = renderCard('');
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));
    await screen.findByText('1 of 1 visible test passed');
    expect(bodies).toEqual([{ code: 'def solve():\n    pass\n' }]);
  });

  it('polls a run the server answered 202 for until it is done, and shows runtime errors and compiler output', async () => {
    const waits: Array<string | null> = [];
    server.use(
      http.post(runsUrl, () => HttpResponse.json(report({ state: 'queued', finishedAt: null }), { status: 202 })),
      http.get('/api/attempts/attempt-7/test-runs/run-1', ({ request }) => {
        waits.push(new URL(request.url).searchParams.get('waitMs'));
        if (waits.length === 1) return HttpResponse.json(report({ state: 'running', finishedAt: null }));
        return HttpResponse.json(
          report({
            compileOutput: 'SyntaxError: invalid syntax',
            verdicts: [
              verdict({ outcome: 'runtime-error', points: 0, stderr: 'ZeroDivisionError: division by zero' }),
              verdict({ testId: 't2', name: 'Big', outcome: 'timeout', points: 0, timeMs: 2000 }),
            ],
          }),
        );
      }),
    );
    const { user } = renderCard('x = 1/0');
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));
    expect(await screen.findByText('0 of 2 visible tests passed')).toBeInTheDocument();
    expect(waits).toEqual(['10000', '10000']);
    expect(screen.getByTestId('verdict-0-stderr')).toHaveTextContent('ZeroDivisionError');
    expect(screen.getByTestId('compile-output')).toHaveTextContent('SyntaxError');
    expect(screen.getByRole('listitem', { name: 'Big: Time limit exceeded' })).toBeInTheDocument();
  });

  it('marks the button busy while the run is on its way', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(runsUrl, async () => {
        await held;
        return HttpResponse.json(report({ verdicts: [verdict({})] }));
      }),
    );
    const { user } = renderCard('print(3)');
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));
    const busy = await screen.findByRole('button', { name: 'Running tests…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('run-summary-0')).toHaveTextContent('Running the visible tests…');
    release();
    await screen.findByText('1 of 1 visible test passed');
    expect(screen.getByRole('button', { name: 'Run tests' })).toBeEnabled();
  });

  it.each([
    [429, 'RATE_LIMITED', RunnerMessages.rateLimited],
    [503, 'RUNNER_UNAVAILABLE', RunnerMessages.unavailable],
    [400, 'BAD_REQUEST', RunnerMessages.noVisibleTests],
    [409, 'ATTEMPT_CLOSED', 'This exam has already been submitted. Changes are no longer accepted.'],
  ])('shows the message of a %s refusal', async (status, code, message) => {
    server.use(http.post(runsUrl, () => HttpResponse.json({ error: { code, message } }, { status })));
    const { user } = renderCard('print(1)');
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));
    await waitFor(() => expect(screen.getByTestId('run-summary-0')).toHaveTextContent(message));
    expect(screen.queryByRole('list', { name: 'Test results for Q1' })).not.toBeInTheDocument();
  });

  it('cannot run tests without an attempt (the creator preview)', async () => {
    renderWithProviders(
      <QuestionCard
        index={0}
        question={codingQuestion()}
        answer=""
        onAnswer={() => undefined}
        {...fileAndFlagProps}
        onCommit={() => undefined}
        onActive={() => undefined}
        attempt={null}
      />,
    );
    expect(await screen.findByRole('button', { name: 'Run tests' })).toBeDisabled();
  });
});
