import { QuestionSchema } from '@exam/domain/question';
import { encodeMatches } from '@exam/domain/question-kinds';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import {
  kindAnswer,
  makeKindsExam,
  makeKindsQuestions,
  makeKindsResultDetail,
} from '../../../testing/kinds-factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

async function openKindsResult({ withExam = true } = {}) {
  const detail = makeKindsResultDetail();
  const fake = fakeResultService(detail, withExam ? { exam: makeKindsExam() } : {});
  server.use(...fake.handlers);
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return { ...view, fake };
}

const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });

describe('a result with the further question types', () => {
  it('lays each answer out with its parts right or wrong and the partial credit they earned', async () => {
    await openKindsResult();
    expect(await screen.findByTestId('partial-credit-0')).toHaveTextContent('2 of 3 pairs kept · 2 / 3 points');
    expect(screen.getByTestId('partial-credit-1')).toHaveTextContent('2 of 3 pairs right · 1.33 / 2 points');
    expect(screen.getByTestId('partial-credit-2')).toHaveTextContent('2 of 3 gaps right · 1.33 / 2 points');
    expect(within(question(2)).getByRole('table', { name: 'Matching answer' })).toBeInTheDocument();
    expect(within(question(4)).getByTestId('quantity-key')).toHaveTextContent('0.125 m ± 1%');
    expect(within(question(5)).getByTestId('quantity-key')).toHaveTextContent('12 ± 0.01');
    expect(within(question(5)).getByTestId('calculated-values')).toHaveTextContent('a = 3b = 4.0');
    expect(within(question(6)).getByTestId('true-false-given')).toHaveTextContent('False');
    expect(within(question(7)).getByText('Awaiting grading')).toBeInTheDocument();
    expect(within(question(7)).getByTestId('essay-words')).toHaveTextContent('8 words · limit 5–20 words');
  });

  it('links the essay to its shared passage, whose text is on the exam', async () => {
    const { user } = await openKindsResult();
    const passage = await within(question(7)).findByTestId('passage');
    await user.click(within(passage).getByText('Passage: The leaf'));
    expect(await within(passage).findByText('green', { selector: 'strong' })).toBeVisible();
  });

  it('lets the grader override a partly right answer like any other, the parts staying as the key saw them', async () => {
    const { user, fake } = await openKindsResult();
    await screen.findByTestId('partial-credit-1');
    await user.click(within(question(2)).getByRole('button', { name: 'Full marks' }));
    expect(screen.getByTestId('partial-credit-1')).toHaveTextContent('2 of 3 pairs right · 2 / 2 points');
    expect(within(question(2)).getByText('Marked by grader')).toBeInTheDocument();
    await waitFor(() =>
      expect(fake.patches.at(-1)?.grading).toEqual([expect.objectContaining({ questionIndex: 1, points: 2 })]),
    );
  });

  it('lays out a matching choice that holds "→" and "; " in its own row, as the candidate saved it', async () => {
    const questions = makeKindsQuestions();
    const matching = QuestionSchema.parse({
      ...questions[1]!,
      pairs: [
        { prompt: 'France', answer: 'Paris; Spain → Madrid' },
        { prompt: 'Spain', answer: 'Madrid' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
    });
    const base = makeKindsResultDetail();
    const detail = {
      ...base,
      questionAnswers: base.questionAnswers.map((qa, i) =>
        i === 1 ? kindAnswer(matching, 1, encodeMatches(['Paris; Spain → Madrid', '', 'Rome'])) : qa,
      ),
    };
    const exam = makeKindsExam({ questions: questions.map((q, i) => (i === 1 ? matching : q)) });
    server.use(...fakeResultService(detail, { exam }).handlers);
    signInAs();
    renderApp(`/creator/result/${detail.id}`);
    const table = await within(await screen.findByRole('group', { name: 'Question 2' })).findByRole('table', {
      name: 'Matching answer',
    });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => Array.from(row.children).map((cell) => cell.textContent)),
    ).toEqual([
      ['France', 'Paris; Spain → Madrid', 'Paris; Spain → Madrid', '✓right'],
      ['Spain', '—', 'Madrid', '✗wrong'],
      ['Italy', 'Rome', 'Rome', '✓right'],
    ]);
    expect(screen.getByTestId('partial-credit-1')).toHaveTextContent('2 of 3 pairs right');
  });

  it('shows the answers as text while the exam cannot be read', async () => {
    await openKindsResult({ withExam: false });
    expect(await within(question(2)).findByText('France → Paris; Spain → Lisbon; Italy → Rome')).toBeInTheDocument();
    expect(
      within(question(2)).getByText('Answer key: France → Paris; Spain → Madrid; Italy → Rome'),
    ).toBeInTheDocument();
    expect(within(question(7)).getByText('Passage: The leaf')).toBeInTheDocument();
    expect(screen.queryByTestId('partial-credit-1')).not.toBeInTheDocument();
  });
});
