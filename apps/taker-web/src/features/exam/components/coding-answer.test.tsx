import type { ConsoleRun, RunAnswer, RunReport } from '@exam/domain/coding';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildQuestion } from '../../../testing/factories.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { QuestionCard, type QuestionCardProps } from './question-card.tsx';

// jsdom has no layout; CodeMirror measures text ranges for the cursor.
beforeAll(() => {
  Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
});

const attempt = { attemptId: 'attempt-9', token: 'attempt-token' };
const consoleUrl = '/api/attempts/attempt-9/questions/0/console-runs';
const testsUrl = '/api/attempts/attempt-9/questions/0/test-runs';

const question = (fields: Record<string, unknown> = {}) =>
  buildQuestion({
    type: 'coding',
    title: 'Echo',
    language: 'python',
    starterCode: '# python starter',
    visibleTests: [{ id: 't1', name: 'Small', stdin: 'a', args: [], expected: 'a', points: 1 }],
    hiddenTestCount: 1,
    limits: { cpuSeconds: 2, memoryMb: 256 },
    ...fields,
  });

const ran = (overrides: Partial<RunAnswer> = {}): RunAnswer => ({
  code: 'print(input())',
  from: 'inline',
  workspaceFile: null,
  workspaceUnreachable: false,
  language: 'python',
  ...overrides,
});

const consoleRun = (overrides: Partial<ConsoleRun> = {}): ConsoleRun => ({
  runId: 'c1',
  state: 'done',
  outcome: 'ok',
  stdout: 'hello\n',
  stderr: '',
  exitCode: 0,
  timeMs: 12,
  ...overrides,
});

const testsReport = (answer: RunAnswer): RunReport & { answer: RunAnswer } => ({
  runId: 'r1',
  state: 'done',
  verdicts: [],
  points: 0,
  maxPoints: 1,
  queuedAt: '2026-01-01T10:00:00.000Z',
  finishedAt: '2026-01-01T10:00:01.000Z',
  answer,
});

function renderCard(props: Partial<QuestionCardProps> = {}) {
  const onAnswer = vi.fn();
  renderWithProviders(
    <QuestionCard
      index={0}
      question={question()}
      answer=""
      onAnswer={onAnswer}
      files={{ status: new Map(), choose: () => Promise.resolve(), remove: () => Promise.resolve() }}
      uploadMaxBytes={1024}
      flagged={false}
      onToggleFlag={() => undefined}
      onCommit={() => undefined}
      onActive={() => undefined}
      attempt={attempt}
      {...props}
    />,
  );
  return { user: userEvent.setup(), onAnswer };
}

describe("a coding question's console", () => {
  it('runs the code on the custom input and shows the output, exit code and time', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(consoleUrl, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ ...consoleRun(), answer: ran({ code: 'print(input())' }) });
      }),
    );
    const { user } = renderCard({ answer: 'print(input())' });
    await user.type(await screen.findByRole('textbox', { name: 'Custom input for Q1' }), 'hello');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByTestId('console-stdout-0')).toHaveTextContent('hello');
    expect(screen.getByTestId('console-status-0')).toHaveTextContent('Exit code 0 · 12 ms');
    expect(bodies).toEqual([{ code: 'print(input())', stdin: 'hello' }]);
    // "Run" sits beside "Run tests".
    expect(screen.getByRole('button', { name: 'Run tests' })).toBeInTheDocument();
  });

  it('names the limit a run hit and shows its errors', async () => {
    server.use(
      http.post(consoleUrl, () =>
        HttpResponse.json(consoleRun({ outcome: 'runtime-error', stdout: '', stderr: 'Traceback: boom', exitCode: 1 })),
      ),
    );
    const { user } = renderCard({ answer: 'raise' });
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    expect(await screen.findByTestId('console-stderr-0')).toHaveTextContent('Traceback: boom');
    expect(screen.getByTestId('console-status-0')).toHaveTextContent('Runtime error · Exit code 1');
    expect(screen.getByTestId('console-stdout-0')).toHaveTextContent('(no output)');
  });
});

describe('a coding question answered in the workspace', () => {
  it('saves the workspace file the server ran as the answer', async () => {
    server.use(
      http.post(testsUrl, () =>
        HttpResponse.json(
          testsReport(ran({ from: 'workspace', code: 'print(1)\n', workspaceFile: 'q1-echo/main.py' })),
        ),
      ),
    );
    const { user, onAnswer } = renderCard({
      question: question({ workspaceFile: 'q1-echo/main.py' }),
      inWorkspace: true,
    });
    expect(screen.queryByRole('textbox', { name: 'Code for Q1' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Run tests' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(0, 'print(1)\n', { source: 'restored', whole: true }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('keeps the last saved answer and says so when the workspace could not be reached', async () => {
    server.use(
      http.post(consoleUrl, () =>
        HttpResponse.json({ ...consoleRun(), answer: ran({ code: 'saved', workspaceUnreachable: true }) }),
      ),
    );
    const { user, onAnswer } = renderCard({
      question: question({ workspaceFile: 'q1-echo/main.py' }),
      inWorkspace: true,
      answer: 'saved',
    });
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('your last saved answer ran and stays your answer');
    expect(onAnswer).not.toHaveBeenCalled();
  });
});

describe('a coding question whose candidate chooses the language', () => {
  it("offers the creator's languages, opens the chosen one's starter code, keeps the choice and runs in it", async () => {
    const bodies: unknown[] = [];
    const choices: unknown[] = [];
    server.use(
      http.get('/api/attempts/attempt-9/languages', () => HttpResponse.json({ languages: {} })),
      http.put('/api/attempts/attempt-9/questions/0/language', async ({ request }) => {
        const body = (await request.json()) as { language: string };
        choices.push(body);
        return HttpResponse.json({ questionIndex: 0, language: body.language });
      }),
      http.post(testsUrl, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(testsReport(ran({ language: 'javascript' })));
      }),
    );
    const { user } = renderCard({
      question: question({ languages: ['python', 'javascript'], starterCodes: { javascript: '// js starter' } }),
    });
    const select = await screen.findByRole('combobox', { name: 'Language for Q1' });
    expect(select).toHaveValue('python');
    expect(await screen.findByRole('textbox', { name: 'Code for Q1' })).toHaveTextContent('# python starter');
    await user.selectOptions(select, 'javascript');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Code for Q1' })).toHaveTextContent('// js starter'),
    );
    await waitFor(() => expect(choices).toEqual([{ language: 'javascript' }]));
    await user.click(screen.getByRole('button', { name: 'Run tests' }));
    await waitFor(() => expect(bodies).toEqual([{ code: '// js starter', language: 'javascript' }]));
  });

  it('shows the choice kept with the attempt after a reload', async () => {
    server.use(
      http.get('/api/attempts/attempt-9/languages', () => HttpResponse.json({ languages: { '0': 'javascript' } })),
    );
    renderCard({ question: question({ languages: ['python', 'javascript'] }) });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Language for Q1' })).toHaveValue('javascript'));
  });

  it('shows no language choice for a question with one language', () => {
    renderCard();
    expect(screen.queryByRole('combobox', { name: 'Language for Q1' })).not.toBeInTheDocument();
  });
});
