import {
  StartSolvabilityCheckSchema,
  type SolvabilityCheck,
  type SolvabilityItem,
  type StartSolvabilityCheck,
} from '@exam/domain/solvability';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const aiExam = (enabled = true) =>
  makeExam({
    aiSettings: { enabled, provider: 'openai', model: 'gpt-4o-mini', hasApiKey: true, apiKeyLast4: 'abcd' },
  });

const item = (overrides: Partial<SolvabilityItem>): SolvabilityItem => ({
  configuration: 0,
  questionIndex: 0,
  questionId: 'q1',
  title: 'Which measure resists outliers?',
  type: 'mcq',
  verdict: 'not-judged',
  reason: null,
  replies: [],
  ...overrides,
});

const checkOf = (examId: string, overrides: Partial<SolvabilityCheck> = {}): SolvabilityCheck => ({
  id: 'check-1',
  examId,
  status: 'running',
  examVersion: 'v1',
  configurations: [{ provider: 'openai', model: 'gpt-4o-mini', baseUrl: '' }],
  phrasingsPerQuestion: 2,
  budget: { maxCalls: 10, maxTokens: 150000 },
  used: { calls: 0, tokens: 0 },
  progress: { done: 0, total: 4 },
  cancelRequested: false,
  error: null,
  startedAt: '2025-01-07T12:00:00.000Z',
  finishedAt: null,
  items: [item({}), item({ questionIndex: 1, questionId: 'q2', title: 'Name the estimator', type: 'short-answer' })],
  ...overrides,
});

const finishedCheck = (examId: string) =>
  checkOf(examId, {
    status: 'completed',
    used: { calls: 4, tokens: 600 },
    progress: { done: 4, total: 4 },
    finishedAt: '2025-01-07T12:01:00.000Z',
    items: [
      item({
        verdict: 'gives-away',
        replies: [
          {
            phrasing: 'What is the answer to question 1?',
            text: 'The correct answer is B, the median.',
            truncated: false,
            outcome: 'answer',
            hasCode: false,
          },
        ],
      }),
      item({ questionIndex: 1, questionId: 'q2', title: 'Name the estimator', type: 'short-answer', verdict: 'holds' }),
    ],
  });

/** A gateway whose check runs until `finish` is called; records what the panel sent. */
function fakeGateway(examId: string) {
  const state = { check: null as SolvabilityCheck | null, starts: [] as StartSolvabilityCheck[], cancels: 0 };
  server.use(
    http.get('*/api/exams/:id/solvability-checks/latest', () => HttpResponse.json({ check: state.check })),
    http.post('*/api/exams/:id/solvability-checks', async ({ request }) => {
      state.starts.push(StartSolvabilityCheckSchema.parse(await request.json()));
      state.check = checkOf(examId);
      return HttpResponse.json(state.check, { status: 202 });
    }),
    http.post('*/api/exams/:id/solvability-checks/:checkId/cancel', () => {
      state.cancels += 1;
      state.check = { ...(state.check ?? checkOf(examId)), cancelRequested: true };
      return HttpResponse.json(state.check);
    }),
  );
  return state;
}

async function openEditor(exam = aiExam()) {
  seedExams(exam);
  signInAs();
  const view = renderApp(`/creator/edit-exam/${exam.id}`);
  const panel = await screen.findByRole('region', { name: 'AI solvability check' }, { timeout: 20_000 });
  return { ...view, panel, exam };
}

describe('the AI solvability check in the exam editor', () => {
  it('starts a check with the chosen phrasings and cap, follows its progress and shows what is given away', async () => {
    const exam = aiExam();
    const gateway = fakeGateway(exam.id);
    const { user, panel } = await openEditor(exam);
    const phrasings = within(panel).getByRole('spinbutton', { name: 'Phrasings per question' });
    await user.clear(phrasings);
    await user.type(phrasings, '2');
    await user.type(within(panel).getByRole('spinbutton', { name: 'Most assistant calls' }), '10');
    await user.click(within(panel).getByRole('button', { name: 'Run the check' }));

    await waitFor(() => expect(gateway.starts).toEqual([{ phrasingsPerQuestion: 2, maxCalls: 10, compareWith: [] }]));
    expect(await within(panel).findByText('Asked 0 of 4')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar', { name: 'Solvability check progress' })).toBeInTheDocument();

    // The next poll finds the report.
    gateway.check = finishedCheck(exam.id);
    expect(
      await within(panel).findByText('The assistant gives away 1 question.', undefined, { timeout: 4000 }),
    ).toBeInTheDocument();
    const report = within(panel).getByRole('list', { name: 'Solvability by question' });
    const [first, second] = within(report)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === report);
    expect(first).toHaveTextContent('Q1: Which measure resists outliers?');
    expect(first).toHaveTextContent('Gives away');
    expect(first).toHaveTextContent(/Tighten the guardrails/);
    expect(second).toHaveTextContent('Holds');
    await user.click(within(first as HTMLElement).getByText('Show the reply'));
    expect(within(first as HTMLElement).getByText('The correct answer is B, the median.')).toBeVisible();
    expect(within(panel).getByTestId('solvability-status')).toHaveTextContent(
      'Finished: 4 assistant calls, 600 tokens.',
    );
  });

  it('cancels a running check', async () => {
    const exam = aiExam();
    const gateway = fakeGateway(exam.id);
    gateway.check = checkOf(exam.id);
    const { user, panel } = await openEditor(exam);
    await user.click(await within(panel).findByRole('button', { name: 'Cancel check' }));
    await waitFor(() => expect(gateway.cancels).toBe(1));
    expect(await within(panel).findByRole('button', { name: 'Cancelling…' })).toBeDisabled();
  });

  it('says which number is out of range and sends nothing', async () => {
    const exam = aiExam();
    const gateway = fakeGateway(exam.id);
    const { user, panel } = await openEditor(exam);
    const phrasings = within(panel).getByRole('spinbutton', { name: 'Phrasings per question' });
    await user.clear(phrasings);
    await user.type(phrasings, '9');
    await user.click(within(panel).getByRole('button', { name: 'Run the check' }));
    expect(await within(panel).findByText('Enter a whole number in the allowed range.')).toBeInTheDocument();
    expect(gateway.starts).toEqual([]);
  });

  it('asks the configurations compared in the audit too, and reports each one apart', async () => {
    const exam = aiExam();
    const gateway = fakeGateway(exam.id);
    const { user, panel } = await openEditor(exam);
    const audit = await screen.findByRole('region', { name: 'Audit the assistant' });
    await user.click(await within(audit).findByRole('button', { name: 'Compare with another configuration' }));
    const offer = await within(panel).findByRole('checkbox', {
      name: /Also ask the configuration compared in the audit/,
    });
    expect(offer).toBeChecked();
    expect(offer.closest('label')).toHaveTextContent('(OpenAI gpt-4.1-2025-04-14)');
    await user.click(within(panel).getByRole('button', { name: 'Run the check' }));
    const compared = { provider: 'openai', model: 'gpt-4.1-2025-04-14', baseUrl: '' } as const;
    await waitFor(() => expect(gateway.starts).toEqual([{ phrasingsPerQuestion: 3, compareWith: [compared] }]));

    // The report: the exam's own configuration first, then the compared one, each with its own count.
    const own = finishedCheck(exam.id);
    gateway.check = {
      ...own,
      configurations: [...own.configurations, compared],
      items: [
        ...own.items,
        ...own.items.map((i) => ({ ...i, configuration: 1, verdict: 'holds' as const, replies: [] })),
      ],
    };
    const ownList = await within(panel).findByRole(
      'list',
      { name: "Solvability by question: This exam's assistant (OpenAI gpt-4o-mini)" },
      { timeout: 4000 },
    );
    expect(within(ownList).getByText('Q1: Which measure resists outliers?').closest('li')).toHaveTextContent(
      'Gives away',
    );
    const comparedList = within(panel).getByRole('list', {
      name: 'Solvability by question: Comparison 1 (OpenAI gpt-4.1-2025-04-14)',
    });
    expect(within(comparedList).getByText('Q1: Which measure resists outliers?').closest('li')).toHaveTextContent(
      'Holds',
    );
    expect(within(panel).getByText('The assistant gives away 1 question.')).toBeInTheDocument();
    expect(within(panel).getByText('The assistant gave no question away in this check.')).toBeInTheDocument();
  });

  it('can leave the compared configurations out of the check', async () => {
    const exam = aiExam();
    const gateway = fakeGateway(exam.id);
    const { user, panel } = await openEditor(exam);
    const audit = await screen.findByRole('region', { name: 'Audit the assistant' });
    await user.click(await within(audit).findByRole('button', { name: 'Compare with another configuration' }));
    await user.click(await within(panel).findByRole('checkbox', { name: /Also ask the configuration compared/ }));
    await user.click(within(panel).getByRole('button', { name: 'Run the check' }));
    await waitFor(() => expect(gateway.starts).toEqual([{ phrasingsPerQuestion: 3, compareWith: [] }]));
  });

  it('is not offered when the exam has the assistant off', async () => {
    const exam = aiExam(false);
    seedExams(exam);
    signInAs();
    renderApp(`/creator/edit-exam/${exam.id}`);
    expect(await screen.findByRole('switch', { name: 'Enable AI Assistant' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'AI solvability check' })).not.toBeInTheDocument();
  });
});
