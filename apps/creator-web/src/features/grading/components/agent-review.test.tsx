import type { WorkspaceFile } from '@exam/domain/internal';
import type { ResultDetail } from '@exam/domain/result';
import type { Timeline } from '@exam/domain/timeline';
import type { AgentCall } from '@exam/domain/workspace-agents';
import { screen, within } from '@testing-library/react';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeQuestionAnswer, makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';
import { makeProcessSummary, makeTimeline } from '../../../testing/timeline-factories.ts';

const T0 = Date.parse('2030-01-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const LONG_PATCH = `*** Begin Patch\n*** Update File: app.py\n${'+print(1)\n'.repeat(40)}*** End Patch`;

const call = (id: string, start: number, extra: Partial<AgentCall> = {}): AgentCall => ({
  id,
  kind: 'agent',
  attemptId: 'attempt-1',
  agent: 'codex',
  wire: 'openai-responses',
  model: 'gpt-test',
  status: 'ok',
  reason: null,
  input: `input of ${id}`,
  toolResults: [],
  reply: `reply of ${id}`,
  toolCalls: [],
  inputTokens: 100,
  outputTokens: 20,
  startedAt: at(start),
  finishedAt: at(start + 2),
  ...extra,
});

const file = (content: string, extra: Partial<WorkspaceFile> = {}): WorkspaceFile => ({
  content,
  lastModified: at(100),
  size: content.length,
  type: 'text/plain',
  isBinary: false,
  truncated: false,
  ...extra,
});

function serve(detail: ResultDetail, timeline: Timeline) {
  const fake = fakeResultService(detail, { timeline, record: makeProcessSummary({ attemptId: detail.attemptId }) });
  server.use(...fake.handlers);
}

async function openResult(detail: ResultDetail) {
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

describe("the grader's view of the workspace agent", () => {
  const agentTimeline = (resultId: string) =>
    makeTimeline({
      resultId,
      startedAt: at(0),
      events: [
        { at: at(10), kind: 'agent-call', messageId: 'c1', detail: 'ok; tools: apply_patch' },
        { at: at(13), kind: 'workspace-change', path: 'app.py', change: 1 },
        { at: at(30), kind: 'agent-call', messageId: 'c2', detail: 'refused: budget' },
      ],
      agentCalls: [
        call('c1', 10, {
          toolResults: [{ callId: 'call_0', output: '3 passed' }],
          toolCalls: [
            { id: 'call_1', name: 'apply_patch', arguments: LONG_PATCH },
            { id: 'call_2', name: 'shell', arguments: '{"cmd":["pytest"]}' },
          ],
        }),
        call('c2', 30, { status: 'refused', reason: 'The attempt’s AI budget is spent', reply: '' }),
      ],
      workspaceFiles: [
        {
          path: 'app.py',
          changes: [
            { at: at(5), content: 'print(0)\n', source: 'typed', deleted: false, agentCallId: null },
            { at: at(13), content: 'print(1)\n', source: null, deleted: false, agentCallId: 'c1' },
          ],
        },
      ],
    });

  it('lists each call with its agent, status, reason, input, reply, tool calls and results beside the changes it caused', async () => {
    const detail = makeResultDetail();
    serve(detail, agentTimeline(detail.id));
    const { user } = await openResult(detail);

    const activity = await screen.findByRole('region', { name: 'The workspace agent' });
    const calls = within(activity).getByRole('list', { name: 'Agent calls' });
    const [first, second] = within(calls).getAllByRole('article');
    expect(first).toHaveAccessibleName('Call 1');
    expect(first).toHaveTextContent('Codex CLI');
    expect(first).toHaveTextContent('ok');
    expect(within(first!).getByRole('region', { name: 'Input' })).toHaveTextContent('input of c1');
    expect(within(first!).getByRole('region', { name: 'Reply' })).toHaveTextContent('reply of c1');
    expect(within(first!).getByRole('region', { name: 'Tool results' })).toHaveTextContent('call_03 passed');
    const tools = within(first!).getByRole('region', { name: 'Tool calls' });
    // The short arguments show; the long patch is folded until asked for.
    expect(tools).toHaveTextContent('{"cmd":["pytest"]}');
    const folded = within(tools).getByText(/^Arguments \(\d+ characters\): show$/);
    expect(folded.closest('details')).not.toHaveAttribute('open');
    await user.click(folded);
    expect(folded.closest('details')).toHaveAttribute('open');
    expect(second).toHaveTextContent('refused');
    expect(within(second!).getByTestId('agent-call-reason')).toHaveTextContent('Why: The attempt’s AI budget is spent');
    expect(within(second!).getByRole('region', { name: 'Reply' })).toHaveTextContent('No reply reached the agent.');

    // The call links to the change it made, and the change back to the call.
    const made = within(first!).getByRole('link', { name: 'app.py' });
    const changes = within(activity).getAllByTestId('file-change');
    expect(changes).toHaveLength(2);
    expect(made).toHaveAttribute('href', `#${changes[1]!.id}`);
    expect(changes[0]).toHaveTextContent("the candidate's own");
    const back = within(changes[1]!).getByRole('link', { name: 'by agent call 1' });
    expect(back).toHaveAttribute('href', `#${first!.id}`);

    // The change opens the diff from the snapshot before it.
    await user.click(within(changes[1]!).getByRole('button', { name: 'Show the diff of app.py at 00:13' }));
    const diff = within(changes[1]!).getByRole('table');
    expect(diff).toHaveTextContent('Before (left) and After (right): 1 lines differ');
    expect(diff).toHaveTextContent('print(0)');
    expect(diff).toHaveTextContent('print(1)');
  });

  it('says the calls could not be read when the assistant service was down', async () => {
    const detail = makeResultDetail();
    serve(detail, makeTimeline({ resultId: detail.id, agentCalls: [], unavailable: ['assistant'] }));
    await openResult(detail);
    const activity = await screen.findByRole('region', { name: 'The workspace agent' });
    expect(within(activity).getByRole('note')).toHaveTextContent('could not be read from the assistant service');
  });

  it('shows no agent section when the workspace had no agent and no question is an agentic task', async () => {
    const plain = makeResultDetail();
    serve(plain, makeTimeline({ resultId: plain.id }));
    await openResult(plain);
    await screen.findByRole('heading', { name: 'Replay of the attempt' });
    expect(screen.queryByRole('region', { name: 'The workspace agent' })).not.toBeInTheDocument();
  });

  it('shows an agentic task’s diff from its starter repository to the collected workspace under its tests', async () => {
    const detail = makeResultDetail({
      questionAnswers: [
        makeQuestionAnswer({
          questionIndex: 0,
          question: 'Fix the parser',
          questionType: 'coding',
          starterFiles: [
            { path: 'src/parse.py', content: 'def parse():\n    pass\n' },
            { path: 'README.md', content: 'Task\n' },
            { path: 'old.py', content: 'x = 1\n' },
          ],
          tests: {
            state: 'done',
            runId: 'run-1',
            verdicts: [
              {
                testId: 't1',
                name: 'parses',
                outcome: 'passed',
                points: 1,
                maxPoints: 1,
                visible: false,
                timeMs: 12,
                exitCode: 0,
              },
            ],
          },
        }),
      ],
      workspace_files: {
        'src/parse.py': file('def parse():\n    return 1\n'),
        'README.md': file('Task\n'),
        'tests/test_parse.py': file('assert parse() == 1\n'),
      },
    });
    serve(detail, makeTimeline({ resultId: detail.id, agentCalls: [] }));
    const { user } = await openResult(detail);

    const question = screen.getByRole('group', { name: 'Question 1' });
    const task = within(question).getByRole('region', { name: 'Agentic task: changes to the starter repository' });
    expect(task).toHaveTextContent('3 of 4 files differ from the starter repository');
    const files = within(task).getByRole('list', { name: 'Repository files' });
    expect(
      within(files)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^old\.pydeleted/),
      expect.stringMatching(/^README\.mdunchanged$/),
      expect.stringMatching(/^src\/parse\.pychanged/),
      expect.stringMatching(/^tests\/test_parse\.pyadded/),
    ]);
    await user.click(within(task).getByRole('button', { name: 'Show the diff of src/parse.py from the starter' }));
    const diff = within(task).getByRole('table');
    expect(diff).toHaveTextContent('Starter repository (left) and Collected workspace (right): 1 lines differ');
    expect(diff).toHaveTextContent('return 1');
    expect(within(task).getByRole('link', { name: /agent's calls/ })).toHaveAttribute('href', '#agent-activity');
    expect(within(question).getByTestId('tests-state-0')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'The workspace agent' })).toHaveAttribute('id', 'agent-activity');
  });
});

describe('collected workbooks and query logs', () => {
  async function workbookBase64() {
    const workbook = new ExcelJS.Workbook();
    const sales = workbook.addWorksheet('Sales');
    sales.getCell('A1').value = 'Item';
    sales.getCell('B1').value = 'Amount';
    sales.getCell('A2').value = 'Pens';
    sales.getCell('B2').value = 4;
    sales.getCell('A3').value = 'Ink';
    sales.getCell('B3').value = 6;
    sales.getCell('B4').value = { formula: 'SUM(B2:B3)', result: 10 };
    workbook.addWorksheet('Notes').getCell('A1').value = 'checked';
    return Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
  }

  it('opens a collected .xlsx as a grid with its sheets and shows a selected cell’s formula', async () => {
    const detail = makeResultDetail({
      workspace_files: {
        'workbook.xlsx': file('', {
          type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          isBinary: true,
          contentBase64: await workbookBase64(),
        }),
      },
    });
    serve(detail, makeTimeline({ resultId: detail.id }));
    const { user } = await openResult(detail);
    await user.click(screen.getByRole('button', { name: 'Open workbook.xlsx' }));
    const dialog = await screen.findByRole('dialog');
    const grid = await within(dialog).findByRole('table', { name: 'Sheet Sales' }, { timeout: 5000 });
    expect(within(grid).getByRole('button', { name: 'A2: Pens' })).toBeInTheDocument();
    await user.click(within(grid).getByRole('button', { name: 'B4: 10' }));
    expect(within(dialog).getByTestId('workbook-formula-bar')).toHaveTextContent('B4: =SUM(B2:B3) → 10');
    await user.click(within(dialog).getByRole('button', { name: 'Notes' }));
    const notes = within(dialog).getByRole('table', { name: 'Sheet Notes' });
    expect(within(notes).getByRole('button', { name: 'A1: checked' })).toBeInTheDocument();
  });

  it('says a workbook whose contents were not collected cannot be opened', async () => {
    const detail = makeResultDetail({
      workspace_files: { 'workbook.xlsx': file('', { size: 5000, isBinary: true, type: 'application/octet-stream' }) },
    });
    serve(detail, makeTimeline({ resultId: detail.id }));
    await openResult(detail);
    expect(screen.getByRole('button', { name: 'Open workbook.xlsx' })).toBeDisabled();
    expect(screen.getByText(/its contents were not collected/)).toBeInTheDocument();
  });

  it('lists the statements of a SQL workbench’s query log', async () => {
    const log = [
      '-- 2030-01-01T09:05:00Z',
      'SELECT * FROM orders;',
      '-- 2030-01-01T09:06:00Z',
      'SELECT customer, SUM(total)',
      '  FROM orders GROUP BY customer;',
      '',
    ].join('\n');
    const detail = makeResultDetail({ workspace_files: { 'queries.sql': file(log) } });
    serve(detail, makeTimeline({ resultId: detail.id }));
    const { user } = await openResult(detail);
    await user.click(screen.getByRole('button', { name: 'Open queries.sql' }));
    const dialog = await screen.findByRole('dialog');
    const list = await within(dialog).findByRole('list', { name: 'Statements run' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Statement 1 · 2030-01-01T09:05:00ZSELECT * FROM orders;');
    expect(items[1]).toHaveTextContent('SELECT customer, SUM(total) FROM orders GROUP BY customer;');
    expect(dialog).toHaveTextContent('2 statements were run.');
  });
});
