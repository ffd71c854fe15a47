import type { FollowUpForGrader } from '@exam/domain/follow-up';
import { FollowUpMessages } from '@exam/domain/follow-up';
import type { ResultDetail } from '@exam/domain/result';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeFollowUpService, makeFollowUp, makeFollowUpQuestion } from '../../../testing/fake-follow-up.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

/** A shuffled attempt: the candidate's questions 1, 2, 3 are the exam's 3, 2, 1. */
function shuffledResult(): ResultDetail {
  const base = makeResultDetail();
  return {
    ...base,
    questionAnswers: base.questionAnswers.map((qa, i) => ({ ...qa, examQuestionIndex: [2, 1, 0][i]! })),
  };
}

/** Two follow-ups: one about the exam's question 1, one about its question 2 whose time ran out unanswered. */
const twoFollowUps = (overrides: Partial<FollowUpForGrader> = {}) =>
  makeFollowUp({
    questions: [
      makeFollowUpQuestion({ n: 1, questionIndex: 0, text: 'Why is binary search logarithmic?' }),
      makeFollowUpQuestion({
        n: 2,
        questionIndex: 1,
        text: 'What stops your recursion?',
        answer: '',
        answeredAt: '2025-01-05T14:36:00.000Z',
        timedOut: true,
      }),
    ],
    ...overrides,
  });

function serve(detail: ResultDetail, followUp: FollowUpForGrader) {
  const result = fakeResultService(detail);
  const followUps = fakeFollowUpService(detail.id, followUp);
  server.use(...result.handlers, ...followUps.handlers);
  return followUps;
}

async function openResult(detail: ResultDetail) {
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const followUp = (n: number) => screen.getByRole('region', { name: `Follow-up question ${n}` });
const summary = () => screen.getByTestId('follow-up-summary');

describe('follow-up questions on the grading page', () => {
  it("shows each follow-up inside the card of the answer it probes, by the exam's own order", async () => {
    const detail = shuffledResult();
    serve(detail, twoFollowUps());
    await openResult(detail);

    // The exam's question 1 (the candidate's question 3) is the first card; its question 2 stays the second.
    const first = await within(question(1)).findByRole('region', { name: 'Follow-up question 1' });
    expect(first).toHaveTextContent('Why is binary search logarithmic?');
    expect(first).toHaveTextContent('Because it halves the range each step.');
    expect(first).toHaveTextContent('Asked Jan 5, 2025');
    expect(within(first).queryByText('Time ran out')).not.toBeInTheDocument();
    const second = within(question(2)).getByRole('region', { name: 'Follow-up question 2' });
    expect(second).toHaveTextContent('What stops your recursion?');
    expect(within(second).getByText('No answer')).toBeInTheDocument();
    expect(within(second).getByText('Time ran out')).toBeInTheDocument();
    expect(within(question(3)).queryByRole('region', { name: /Follow-up question/ })).not.toBeInTheDocument();

    expect(summary()).toHaveTextContent('Follow-up: 0 of 4 points (0 of 2 marked)');
    expect(summary()).toHaveTextContent('never added to it');
    expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3 points');
  });

  it('marks a follow-up with a rubric level and feedback, says who marked it, and the summary follows', async () => {
    const detail = makeResultDetail();
    const fake = serve(detail, twoFollowUps());
    const { user } = await openResult(detail);
    const first = await screen.findByRole('region', { name: 'Follow-up question 1' });
    const levels = within(first).getByRole('radiogroup', { name: 'Rubric level for follow-up question 1' });
    expect(
      within(levels)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual([
      'Explains their answer correctly and fully (2 points)',
      'Explains part of it, or with errors (1 point)',
      'Cannot explain it (0 points)',
    ]);
    const save = within(first).getByRole('button', { name: 'Save follow-up mark' });
    expect(save).toBeDisabled();

    await user.click(within(levels).getByRole('radio', { name: 'Explains part of it, or with errors (1 point)' }));
    await user.type(within(first).getByLabelText('Feedback on follow-up question 1'), 'Missed the halving.');
    await user.click(save);

    expect(await within(followUp(1)).findByText(/^Marked by grader@example.com on Jan 6, 2025/)).toHaveTextContent(
      'Explains part of it, or with errors (1 point)',
    );
    expect(fake.marks).toEqual([{ n: 1, body: { level: 1, feedback: 'Missed the halving.' } }]);
    expect(summary()).toHaveTextContent('Follow-up: 1 of 4 points (1 of 2 marked)');
    // The exam's own score does not move.
    expect(screen.getByTestId('result-score')).toHaveTextContent('1 / 3 points');
    expect(within(followUp(1)).getByLabelText('Feedback on follow-up question 1')).toHaveValue('Missed the halving.');

    await user.click(within(followUp(2)).getByRole('radio', { name: 'Cannot explain it (0 points)' }));
    await user.click(within(followUp(2)).getByRole('button', { name: 'Save follow-up mark' }));
    expect(await screen.findByText('Follow-up: 1 of 4 points (2 of 2 marked)')).toBeInTheDocument();

    await user.click(within(followUp(1)).getByRole('button', { name: 'Clear follow-up mark' }));
    expect(await screen.findByText('Follow-up: 0 of 4 points (1 of 2 marked)')).toBeInTheDocument();
    expect(fake.marks.at(-1)).toEqual({ n: 1, body: { level: null, feedback: '' } });
    expect(within(followUp(1)).getByRole('radio', { name: /Explains part of it/ })).not.toBeChecked();
    expect(within(followUp(1)).queryByText(/^Marked by/)).not.toBeInTheDocument();
  });

  it("shows the service's 400 at the rubric when the level is no longer in it, and keeps the summary", async () => {
    const detail = makeResultDetail();
    const fake = serve(detail, twoFollowUps());
    const { user } = await openResult(detail);
    const first = await screen.findByRole('region', { name: 'Follow-up question 1' });
    // The creator cut the rubric to two levels after this page loaded.
    fake.setRubric([
      { label: 'Explains it', points: 1 },
      { label: 'Does not', points: 0 },
    ]);
    await user.click(within(first).getByRole('radio', { name: 'Cannot explain it (0 points)' }));
    await user.click(within(first).getByRole('button', { name: 'Save follow-up mark' }));

    expect(await within(first).findByRole('alert')).toHaveTextContent("Choose one of the rubric's 2 levels");
    const levels = within(first).getByRole('radiogroup', { name: 'Rubric level for follow-up question 1' });
    expect(levels).toHaveAttribute('aria-invalid', 'true');
    expect(fake.marks).toEqual([{ n: 1, body: { level: 2, feedback: '' } }]);
    expect(summary()).toHaveTextContent('Follow-up: 0 of 4 points (0 of 2 marked)');
  });

  it('says why the follow-up was skipped and shows no follow-up questions', async () => {
    const detail = makeResultDetail();
    serve(detail, makeFollowUp({ status: 'skipped', note: FollowUpMessages.skippedProvider }));
    await openResult(detail);
    expect(await screen.findByText('Follow-up skipped')).toBeInTheDocument();
    expect(summary()).toHaveTextContent(FollowUpMessages.skippedProvider);
    expect(screen.queryByRole('region', { name: /Follow-up question/ })).not.toBeInTheDocument();
  });

  it('says the candidate has not finished, and offers no mark for a question still open', async () => {
    const detail = makeResultDetail();
    serve(
      detail,
      makeFollowUp({
        status: 'asking',
        questions: [
          makeFollowUpQuestion({ n: 1, questionIndex: 0 }),
          makeFollowUpQuestion({ n: 2, questionIndex: 1, answer: 'I think', answeredAt: null }),
        ],
      }),
    );
    await openResult(detail);
    expect(await screen.findByText('The candidate has not finished the follow-up yet')).toBeInTheDocument();
    const open = await screen.findByRole('region', { name: 'Follow-up question 2' });
    expect(open).toHaveTextContent('The candidate has not answered this question yet.');
    expect(within(open).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(followUp(1)).getAllByRole('radio')).toHaveLength(3);
  });

  it('shows nothing of follow-ups for an exam without them', async () => {
    const detail = makeResultDetail();
    server.use(...fakeResultService(detail).handlers);
    await openResult(detail);
    expect(await within(question(2)).findByText('A function calling itself')).toBeInTheDocument();
    expect(screen.queryByTestId('follow-up-summary')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Follow-up question/ })).not.toBeInTheDocument();
  });

  it("shows the follow-ups and their summary on the grader's page too", async () => {
    const detail = makeResultDetail({ studentId: 'S-90' });
    serve(detail, twoFollowUps());
    signInAs();
    renderApp(`/creator/grade/${detail.examId}/candidate/S-90`);
    await screen.findByLabelText('Candidate Info');
    expect(await within(question(1)).findByRole('region', { name: 'Follow-up question 1' })).toBeInTheDocument();
    expect(within(question(2)).getByRole('region', { name: 'Follow-up question 2' })).toBeInTheDocument();
    expect(summary()).toHaveTextContent('Follow-up: 0 of 4 points (0 of 2 marked)');
  });
});
