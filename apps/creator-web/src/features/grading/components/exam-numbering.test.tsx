import type { TranscriptMessage } from '@exam/domain/internal';
import type { ResultDetail } from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeMessage, makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

/**
 * A shuffled attempt listed in the candidate's order: their questions 1, 2, 3 are the exam's 3, 2, 1 (the binary
 * search MCQ is the exam's third question, the uploaded report its first).
 */
function shuffledResult(): ResultDetail {
  const base = makeResultDetail();
  return {
    ...base,
    questionAnswers: base.questionAnswers.map((qa, i) => ({ ...qa, examQuestionIndex: [2, 1, 0][i]! })),
    history: [
      {
        at: '2025-01-06T08:00:00.000Z',
        by: 'grader@example.com',
        kind: 'grade',
        questionIndex: 2,
        before: { points: null, feedback: '' },
        after: { points: 1, feedback: '' },
      },
    ],
  };
}

function serve(detail: ResultDetail, messages: TranscriptMessage[] = []) {
  const fake = fakeResultService(detail);
  // Ahead of the fake result service's own (empty) transcript: the first matching handler answers.
  server.use(
    http.get('*/api/llm/attempts/:attemptId/transcript', () => HttpResponse.json({ messages })),
    ...fake.handlers,
  );
  return fake;
}

async function openResult(detail: ResultDetail) {
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

const cards = () =>
  within(screen.getByRole('region', { name: 'Answers' })).getAllByRole('group', { name: /^Question/ });

describe("a shuffled candidate's result in the exam's order and numbering", () => {
  it('lists and numbers the questions as the exam does, saying only beside each where the candidate saw it', async () => {
    const detail = shuffledResult();
    serve(detail);
    await openResult(detail);

    expect(cards().map((card) => card.getAttribute('aria-label'))).toEqual(['Question 1', 'Question 2', 'Question 3']);
    expect(cards().map((card) => within(card).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Q1: Upload your report',
      'Q2: Explain recursion',
      'Q3: Big-O of binary search',
    ]);
    const [first, second, third] = cards();
    expect(first).toHaveTextContent('seen by the candidate as question 3');
    expect(third).toHaveTextContent('seen by the candidate as question 1');
    // The candidate's question 2 is the exam's question 2: nothing to add.
    expect(second).not.toHaveTextContent('seen by the candidate');
  });

  it("lands a mark given on the exam's question 1 on the candidate's question 3", async () => {
    const detail = shuffledResult();
    const fake = serve(detail);
    const { user } = await openResult(detail);
    const upload = screen.getByRole('group', { name: 'Question 1' });
    expect(within(upload).getByLabelText('Points for question 1')).toHaveValue(null);

    await user.click(within(upload).getByRole('button', { name: 'Full marks' }));
    await waitFor(() => expect(fake.patches).toHaveLength(1));
    expect(fake.patches[0]!.grading).toEqual([{ questionIndex: 2, points: 1, feedback: '', criteria: [] }]);
    expect(within(screen.getByRole('group', { name: 'Question 1' })).getByText('1 / 1 point')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Question 3' })).getByText('1 / 1 point')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'Question 2' })).getByText('— / 1 point')).toBeInTheDocument();
  });

  it("tags the transcript and the grade history with the exam's numbers, not the candidate's", async () => {
    const detail = shuffledResult();
    serve(detail, [
      makeMessage({ id: 'u1', role: 'user', content: 'How do I upload?', questionIndex: 2 }),
      makeMessage({ id: 'a1', role: 'assistant', content: 'Use the upload button.', questionIndex: 2 }),
      makeMessage({ id: 'u2', role: 'user', content: 'What is recursion?', questionIndex: 1 }),
    ]);
    await openResult(detail);

    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    const tags = within(conversation)
      .getAllByRole('listitem')
      .map((item) => /Question \d+/.exec(item.textContent ?? '')?.[0]);
    expect(tags).toEqual(['Question 1', 'Question 1', 'Question 2']);
    const history = screen.getByRole('list', { name: 'Grade history' });
    expect(history).toHaveTextContent('grader@example.com · Q1: — → 1 point');
  });
});
