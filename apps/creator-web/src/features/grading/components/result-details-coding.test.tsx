import type { TestGrading, TestVerdict } from '@exam/domain/coding';
import { ResultDetailSchema, type ResultDetail } from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeQuestionAnswer, makeResultDetail } from '../../../testing/result-factories.ts';
import { makeVerdict } from '@exam/domain/testing';

const verdict = (overrides: Partial<TestVerdict>): TestVerdict => makeVerdict({ timeMs: 30, ...overrides });

const doneTests: TestGrading = {
  state: 'done',
  runId: 'run-1',
  verdicts: [
    verdict({ stdin: '1 2', expected: '3', actual: '3' }),
    verdict({
      testId: 'b',
      name: 'Large input',
      visible: false,
      outcome: 'failed',
      points: 0,
      maxPoints: 2,
      expected: '3000',
      actual: '2999',
      stdin: '1000 2000',
    }),
    verdict({
      testId: 'c',
      name: '',
      visible: false,
      outcome: 'runtime-error',
      points: 0,
      maxPoints: 1,
      stderr: 'IndexError: list index out of range',
    }),
  ],
};

/** A result with one coding question graded by tests (1 of 4 points). */
function codingResult(tests: TestGrading, points: number | null): ResultDetail {
  const base = makeResultDetail();
  return ResultDetailSchema.parse({
    ...base,
    score: points ?? 0,
    maxScore: 4,
    status: points === null ? 'pending' : 'graded',
    pendingCount: points === null ? 1 : 0,
    isGraded: points !== null,
    questionAnswers: [
      makeQuestionAnswer({
        questionIndex: 0,
        question: 'Add two numbers',
        questionType: 'coding',
        answer: 'print(sum(map(int, input().split())))',
        points,
        maxPoints: 4,
        autoScored: points !== null,
        isGraded: points !== null,
        tests,
      }),
    ],
  });
}

function open(detail: ResultDetail) {
  const fake = fakeResultService(detail);
  server.use(...fake.handlers);
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  return { ...view, fake };
}

const question = () => screen.getByRole('group', { name: 'Question 1' });

describe('result of a coding question graded by tests', () => {
  it('says which language the candidate answered in', async () => {
    const detail = codingResult(doneTests, 1);
    open({ ...detail, questionAnswers: detail.questionAnswers.map((qa) => ({ ...qa, language: 'javascript' })) });
    expect(
      await within(await screen.findByRole('group', { name: 'Question 1' })).findByTestId('answer-language-0'),
    ).toHaveTextContent('Answered in JavaScript');
  });

  it('lists every verdict for the creator: hidden tests marked, expected against actual, error output, points', async () => {
    open({
      ...codingResult(doneTests, 1),
      history: [
        {
          at: '2025-01-05T14:31:00.000Z',
          by: 'runner',
          kind: 'tests',
          questionIndex: 0,
          before: { points: null, feedback: '' },
          after: { points: 1, feedback: '' },
        },
      ],
    });
    const list = await screen.findByRole('list', { name: 'Tests of question 1' });
    expect(screen.getByRole('list', { name: 'Grade history' })).toHaveTextContent('runner · Q1 tests: — → 1 point');
    expect(within(question()).getByText('2 of 3 tests fail: Large input, Test 3')).toBeInTheDocument();
    const large = within(list).getByRole('listitem', { name: 'Large input: Wrong output' });
    expect(within(large).getByText('Hidden')).toBeInTheDocument();
    expect(within(large).getByTestId('verdict-1-expected')).toHaveTextContent('3000');
    expect(within(large).getByTestId('verdict-1-actual')).toHaveTextContent('2999');
    expect(within(large).getByText('0 / 2 points')).toBeInTheDocument();
    const crashed = within(list).getByRole('listitem', { name: 'Test 3: Runtime error' });
    expect(within(crashed).getByTestId('verdict-2-stderr')).toHaveTextContent('IndexError');
    expect(within(list).getByRole('listitem', { name: 'Small: Passed' })).toBeInTheDocument();
    expect(within(question()).getByText('Scored by tests')).toBeInTheDocument();
    expect(within(question()).getByTestId('question-points-0')).toHaveTextContent('1 / 4 points');
  });

  it('says the tests are running and picks up their points when the run finishes', async () => {
    const { fake } = open(codingResult({ state: 'running', runId: 'run-1', verdicts: [] }, null));
    expect(await screen.findByTestId('tests-state-0')).toHaveTextContent('Tests running…');
    expect(within(question()).getByTestId('question-points-0')).toHaveTextContent('— / 4 points');
    fake.setQuestion(0, { tests: doneTests, points: 1, autoScored: true, isGraded: true });
    await waitFor(() => expect(within(question()).getByTestId('question-points-0')).toHaveTextContent('1 / 4 points'), {
      timeout: 8000,
    });
    expect(screen.getByRole('list', { name: 'Tests of question 1' })).toBeInTheDocument();
  });

  it('says why a question fell back to a grader', async () => {
    open(
      codingResult(
        { state: 'unavailable', runId: null, verdicts: [], reason: 'No code sandbox is available on this server' },
        null,
      ),
    );
    expect(await screen.findByTestId('tests-state-0')).toHaveTextContent(
      'Graded by hand: No code sandbox is available on this server',
    );
  });

  it("requires a reason to override the tests' points, shows the server's refusal, and keeps the reason in the history", async () => {
    const { user, fake } = open(codingResult(doneTests, 1));
    await screen.findByRole('list', { name: 'Tests of question 1' });
    await user.click(within(question()).getByRole('button', { name: 'Full marks' }));
    const reason = within(question()).getByLabelText('Reason for overriding the tests of question 1');
    expect(reason).toHaveAccessibleDescription('A reason is required to change the points the tests gave.');
    // The autosave goes out without a reason and the server refuses it, naming the field.
    await waitFor(() => expect(reason).toHaveAccessibleDescription('Say why you change the points the tests gave'));
    expect(fake.patches[0]?.grading).toEqual([{ questionIndex: 0, points: 4, feedback: '', criteria: [] }]);
    await user.type(reason, 'The hidden test expects a trailing space');
    await waitFor(() => expect(fake.current().questionAnswers[0]?.points).toBe(4));
    expect(fake.patches.at(-1)?.grading).toEqual([
      { questionIndex: 0, points: 4, feedback: '', criteria: [], reason: 'The hidden test expects a trailing space' },
    ]);
    const history = await screen.findByRole('list', { name: 'Grade history' });
    await waitFor(() =>
      expect(history).toHaveTextContent('Q1: 1 → 4 points · Reason: The hidden test expects a trailing space'),
    );
  });
});
