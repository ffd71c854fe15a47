import { QuestionSchema } from '@exam/domain/question';
import { encodeBlanks, encodeMatches } from '@exam/domain/question-kinds';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { serveQuestionGrading } from '../../../testing/fake-question-grading.ts';
import { seedExams } from '../../../testing/handlers.ts';
import { KINDS_ANSWERS, asAttempted, makeKindsExam, makeKindsQuestions } from '../../../testing/kinds-factories.ts';
import { groupsOf, makeQuestionAnswersOf, makeSuggestion } from '../../../testing/question-grading-factories.ts';
import { renderApp } from '../../../testing/render.tsx';

const questions = makeKindsQuestions();

async function openQuestion(number: number) {
  seedExams(makeKindsExam());
  signInAs();
  const view = renderApp(`/creator/grade/exam-kinds/question/${number}`);
  await screen.findByTestId('current-answer');
  return view;
}

describe('grading the further question types by question', () => {
  it('lays out a group’s fill-in-the-blanks answer gap by gap, and a member written differently too', async () => {
    const data = makeQuestionAnswersOf('exam-kinds', 2, questions[2]!, [
      KINDS_ANSWERS[2]!,
      encodeBlanks(['paris', 'Barcelona', 'roma']),
      encodeBlanks(['Paris', 'Madrid', 'Rome']),
    ]);
    // The first two are near-identical: one group.
    const answers = data.answers.map((row) => (row.resultId === 'result-2' ? { ...row, groupId: 'g-1' } : row));
    const fake = serveQuestionGrading({ ...data, answers, groups: groupsOf(answers) });
    const { user } = await openQuestion(3);

    const current = screen.getByTestId('current-answer');
    const shown = await within(current).findByTestId('answer-structured');
    const gaps = within(shown).getByRole('group', { name: 'Answer with its gaps' });
    expect(gaps).toHaveTextContent('Gap 1: Paris, right');
    expect(gaps).toHaveTextContent('Gap 2: Barcelona, wrong');
    expect(within(shown).getByTestId('answer-partial-credit')).toHaveTextContent('2 of 3 gaps right · 1.33 / 2 points');
    const banner = within(current).getByTestId('group-banner');
    await user.click(within(banner).getByText('Show the 2 answers in this group'));
    const member = within(banner).getAllByRole('group', { name: 'Answer with its gaps' });
    expect(member).toHaveLength(1);
    expect(member[0]).toHaveTextContent('Gap 1: paris, right');

    // Overriding the key's points works as for any question.
    await user.click(screen.getByRole('button', { name: 'Full marks' }));
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() =>
      expect(fake.marks).toEqual([expect.objectContaining({ resultIds: ['result-1', 'result-2'], points: 2 })]),
    );
  });

  it('shows each candidate’s own key and values of a calculated question', async () => {
    const calculated = questions[4]!;
    serveQuestionGrading(
      makeQuestionAnswersOf(
        'exam-kinds',
        4,
        [asAttempted(calculated, { a: 3, b: 4 }), asAttempted(calculated, { a: 7, b: 2.5 })],
        ['12.001', '12'],
      ),
    );
    const { user } = await openQuestion(5);

    const current = screen.getByTestId('current-answer');
    expect(within(current).getByTestId('answer-candidate')).toHaveTextContent('Candidate 1');
    expect(await within(current).findByTestId('quantity-given')).toHaveTextContent('12.001✓right');
    expect(within(current).getByTestId('quantity-key')).toHaveTextContent('12 ± 0.01');
    expect(within(current).getByTestId('calculated-values')).toHaveTextContent('a = 3b = 4.0');

    await user.keyboard('j');
    await waitFor(() => expect(within(current).getByTestId('answer-candidate')).toHaveTextContent('Candidate 2'));
    expect(within(current).getByTestId('quantity-given')).toHaveTextContent('12✗wrong');
    expect(within(current).getByTestId('quantity-key')).toHaveTextContent('17.5 ± 0.01');
    expect(within(current).getByTestId('calculated-values')).toHaveTextContent('a = 7b = 2.5');
  });

  it('lays out a matching answer whose choices hold "→" and "; " prompt by prompt', async () => {
    const matching = QuestionSchema.parse({
      ...questions[1]!,
      pairs: [
        { prompt: 'France', answer: 'Paris; Spain → Madrid' },
        { prompt: 'Spain', answer: 'Madrid' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
    });
    seedExams(makeKindsExam({ questions: questions.map((q, i) => (i === 1 ? matching : q)) }));
    serveQuestionGrading(
      makeQuestionAnswersOf('exam-kinds', 1, matching, [encodeMatches(['Paris; Spain → Madrid', '', 'Rome'])]),
    );
    signInAs();
    renderApp('/creator/grade/exam-kinds/question/2');
    const table = await screen.findByRole('table', { name: 'Matching answer' });
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
  });

  it('offers AI-suggested marks for essays, marks the quote in the essay and shows the passage', async () => {
    const quote = 'turns light, water and air';
    const data = makeQuestionAnswersOf('exam-kinds', 6, questions[6]!, [KINDS_ANSWERS[6]!]);
    expect(data.humanGraded).toBe(true);
    const fake = serveQuestionGrading(data, {
      suggestionFor: (resultId) => makeSuggestion(resultId, { questionIndex: 6, points: 4, quote }),
    });
    const { user } = await openQuestion(7);

    expect(await screen.findByTestId('essay-words')).toHaveTextContent('8 words · limit 5–20 words');
    expect(await screen.findByText('Photosynthesis', { selector: 'strong' })).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: /Question 7/ });
    await user.click(within(summary).getByText('Passage: The leaf'));
    expect(await within(summary).findByText('green', { selector: 'strong' })).toBeVisible();

    const panel = screen.getByRole('region', { name: 'AI suggestion' });
    await user.click(within(panel).getByRole('button', { name: 'Suggest a mark' }));
    await waitFor(() => expect(fake.suggestionRequests).toEqual(['result-1']));
    expect(await screen.findByTestId('answer-quote')).toHaveTextContent(quote);
  });
});
