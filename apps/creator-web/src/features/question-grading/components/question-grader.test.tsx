import { QuestionSchema } from '@exam/domain/question';
import { SuggestionMessages } from '@exam/domain/question-grading';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { serveQuestionGrading } from '../../../testing/fake-question-grading.ts';
import { seedExams } from '../../../testing/handlers.ts';
import {
  makeAgreement,
  makeAnswerRow,
  makeBatch,
  makeQuestionAnswers,
  makeSuggestion,
} from '../../../testing/question-grading-factories.ts';
import { renderApp } from '../../../testing/render.tsx';

/** Question 2 of exam-qg, as the screen's URL numbers it. */
const PATH = '/creator/grade/exam-qg/question/2';

/** Keys go to the page, not to the button the last click left focused (Enter would press it). */
const unfocus = () => (document.activeElement as HTMLElement | null)?.blur();

async function openScreen(path = PATH) {
  signInAs();
  const view = renderApp(path);
  await screen.findByTestId('current-answer');
  return view;
}

const heading = () => screen.getByTestId('answer-candidate');

describe('grading by question', () => {
  it('hides names until the grader shows them, then fetches them, and N hides them again', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, { answer: 'The median' }),
        makeAnswerRow(2, { answer: 'The mean' }),
        makeAnswerRow(3, { answer: 'The mode', points: 2 }),
      ]),
      { names: { 'result-1': { name: 'Ada Lovelace', studentId: 'S-1' } } },
    );
    const { user } = await openScreen();
    expect(heading()).toHaveTextContent('Candidate 1');
    expect(screen.getByTestId('grading-progress')).toHaveTextContent('1 of 3 marked');
    expect(screen.getByRole('heading', { name: 'Q2: Which measure resists outliers?' })).toBeInTheDocument();
    expect(screen.queryByText(/Ada Lovelace/)).not.toBeInTheDocument();
    expect(fake.answerRequests).toEqual([{ names: false }]);

    await user.click(screen.getByRole('switch', { name: 'Show names' }));
    await waitFor(() => expect(heading()).toHaveTextContent('Ada Lovelace (S-1)'));
    expect(fake.answerRequests.at(-1)).toEqual({ names: true });

    unfocus();
    await user.keyboard('n');
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 1'));
    expect(screen.getByRole('switch', { name: 'Show names' })).not.toBeChecked();
  });

  it('marks a whole group with two keys: one request with every member, then the next unmarked answer', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, { answer: 'the median', groupId: 'g-median' }),
        makeAnswerRow(2, { answer: 'the mean' }),
        makeAnswerRow(3, { answer: 'the median', groupId: 'g-median' }),
        makeAnswerRow(4, { answer: 'the median', groupId: 'g-median' }),
      ]),
    );
    const { user } = await openScreen();
    expect(heading()).toHaveTextContent('Candidate 1 and 2 more');
    expect(screen.getByTestId('group-banner')).toHaveTextContent(
      'This answer is shared by 3 candidates — your mark applies to all 3',
    );

    await user.keyboard('f');
    expect(screen.getByRole('spinbutton', { name: 'Points (0–4)' })).toHaveValue(4);
    await user.keyboard('{Enter}');

    await waitFor(() =>
      expect(fake.marks).toEqual([
        { resultIds: ['result-1', 'result-3', 'result-4'], points: 4, feedback: '', criteria: [] },
      ]),
    );
    expect(await screen.findByText('Mark saved for 3 answers')).toBeInTheDocument();
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 2'));
    await waitFor(() => expect(screen.getByTestId('grading-progress')).toHaveTextContent('3 of 4 marked'));
    expect(screen.queryByTestId('group-banner')).not.toBeInTheDocument();
  });

  it('ticks rubric criteria with digits, moves with J and K, and saves from the feedback box with Ctrl+Enter', async () => {
    const rubric = {
      id: 'r1',
      title: 'Marking scheme',
      criteria: [
        { id: 'names', description: 'Names the median', points: 2 },
        { id: 'why', description: 'Says why', points: 1 },
        { id: 'example', description: 'Gives an example', points: 1 },
      ],
    };
    const fake = serveQuestionGrading(
      makeQuestionAnswers([makeAnswerRow(1), makeAnswerRow(2), makeAnswerRow(3)], { rubric }),
    );
    const { user } = await openScreen();
    await user.keyboard('j');
    expect(heading()).toHaveTextContent('Candidate 2');
    await user.keyboard('{ArrowDown}');
    expect(heading()).toHaveTextContent('Candidate 3');
    await user.keyboard('kK');
    expect(heading()).toHaveTextContent('Candidate 1');

    await user.keyboard('13');
    expect(screen.getByRole('checkbox', { name: /Names the median/ })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Says why/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Gives an example/ })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Points (0–4)' })).toHaveValue(3);

    // Letters typed into the feedback are feedback, not shortcuts.
    await user.type(screen.getByRole('textbox', { name: 'Feedback' }), 'Good, just no j or k');
    expect(heading()).toHaveTextContent('Candidate 1');
    await user.keyboard('{Control>}{Enter}{/Control}');

    await waitFor(() =>
      expect(fake.marks).toEqual([
        { resultIds: ['result-1'], points: 3, feedback: 'Good, just no j or k', criteria: ['names', 'example'] },
      ]),
    );
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 2'));
  });

  it('shows only ungraded answers, flagged ones, or one group, and keeps the filter in the URL', async () => {
    serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, { points: 4 }),
        makeAnswerRow(2, { flagged: true, suggestion: makeSuggestion('result-2', { uncertain: true }) }),
        makeAnswerRow(3),
        makeAnswerRow(4, { answer: 'the median, it ignores extremes', groupId: 'g-m' }),
        makeAnswerRow(5, { answer: 'the median, it ignores extremes', groupId: 'g-m' }),
      ]),
    );
    const { user, router } = await openScreen();
    // The screen opens on the first answer still to mark, largest group first: one mark covers the most answers.
    expect(heading()).toHaveTextContent('Candidate 4 and 1 more');
    expect(screen.getByTestId('answer-position')).toHaveTextContent('1 of 4');

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Ungraded (3)' }));
    await waitFor(() => expect(screen.getByTestId('answer-position')).toHaveTextContent('1 of 3'));
    expect(router.state.location.search).toBe('?show=ungraded');

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Flagged by the AI (1)' }));
    await waitFor(() => expect(screen.getByTestId('answer-position')).toHaveTextContent('1 of 1'));
    expect(heading()).toHaveTextContent('Candidate 2');
    expect(screen.getByText('Flagged: the AI was unsure')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(
      await screen.findByRole('option', { name: 'Group “the median, it ignores extremes” (2 answers)' }),
    );
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 4 and 1 more'));
    expect(screen.getByTestId('answer-position')).toHaveTextContent('1 of 1');
    expect(router.state.location.search).toBe('?show=group%3Ag-m');
  });

  it('accepts a suggestion with A (saved with its id) and edits another before saving it with its id', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, {
          answer: 'The median, because extreme values do not move it.',
          suggestion: makeSuggestion('result-1', {
            points: 3,
            uncertain: true,
            samplePoints: [3, 4, 3],
            quote: 'extreme values do not move it',
            rationale: 'Names the median and gives the reason.',
          }),
        }),
        makeAnswerRow(2, { suggestion: makeSuggestion('result-2', { points: 2 }) }),
      ]),
    );
    const { user } = await openScreen();
    const panel = screen.getByRole('region', { name: 'AI suggestion' });
    expect(within(panel).getByTestId('suggested-points')).toHaveTextContent('Suggested: 3 / 4 points');
    expect(within(panel).getByText('Uncertain: the samples disagreed (3, 4, 3)')).toBeInTheDocument();
    expect(within(panel).getByText('Names the median and gives the reason.')).toBeInTheDocument();
    expect(screen.getByTestId('answer-quote')).toHaveTextContent('extreme values do not move it');

    await user.keyboard('a');
    await waitFor(() =>
      expect(fake.marks).toEqual([
        { resultIds: ['result-1'], points: 3, feedback: '', criteria: [], suggestionId: 'suggestion-result-1' },
      ]),
    );
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 2'));

    await user.click(
      within(screen.getByRole('region', { name: 'AI suggestion' })).getByRole('button', { name: 'Edit' }),
    );
    const points = screen.getByRole('spinbutton', { name: 'Points (0–4)' });
    expect(points).toHaveValue(2);
    expect(screen.getByTestId('taking-suggestion')).toBeInTheDocument();
    await user.clear(points);
    await user.type(points, '2.5');
    await user.click(screen.getByRole('button', { name: 'Save and next' }));
    await waitFor(() =>
      expect(fake.marks[1]).toEqual({
        resultIds: ['result-2'],
        points: 2.5,
        feedback: '',
        criteria: [],
        suggestionId: 'suggestion-result-2',
      }),
    );
  });

  it("asks for one suggestion with the group's representative answer and shows the budget", async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, { answer: 'median', groupId: 'g-a' }),
        makeAnswerRow(2, { answer: 'median', groupId: 'g-a' }),
      ]),
    );
    const { user } = await openScreen();
    const panel = screen.getByRole('region', { name: 'AI suggestion' });
    expect(within(panel).getByTestId('grading-budget')).toHaveTextContent(
      'Grading budget: 1,500 of 200,000 tokens used',
    );
    expect(within(panel).getByText("Asked for the group's answer; the mark applies to all 2.")).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Suggest a mark' }));
    await waitFor(() => expect(fake.suggestionRequests).toEqual(['result-1']));
    expect(await within(panel).findByTestId('suggested-points')).toHaveTextContent('Suggested: 3 / 4 points');
  });

  it('starts a batch for the unmarked answers, follows its progress, cancels it and shows how it ended', async () => {
    const fake = serveQuestionGrading(makeQuestionAnswers([makeAnswerRow(1), makeAnswerRow(2)]));
    const { user } = await openScreen();
    const batch = screen.getByRole('region', { name: 'Suggestions for every unmarked answer' });
    await user.click(within(batch).getByRole('button', { name: 'Suggest marks for all unmarked answers' }));
    await waitFor(() => expect(fake.batchStarts).toEqual([{ scope: 'unmarked' }]));
    expect(await within(batch).findByTestId('batch-progress')).toHaveTextContent('Suggested 0 of 2 · 0 failed');
    expect(within(batch).getByRole('progressbar', { name: 'Suggestions made' })).toBeInTheDocument();

    fake.batch = makeBatch({ progress: { done: 1, failed: 1, total: 2 } });
    expect(
      await within(batch).findByText('Suggested 1 of 2 · 1 failed', undefined, { timeout: 5000 }),
    ).toBeInTheDocument();

    await user.click(within(batch).getByRole('button', { name: 'Cancel suggestions' }));
    await waitFor(() => expect(fake.cancels).toEqual(['batch-1']));
    expect(await within(batch).findByRole('button', { name: 'Cancelling…' })).toBeDisabled();

    const asked = fake.answerRequests.length;
    fake.batch = makeBatch({ status: 'cancelled', progress: { done: 1, failed: 1, total: 2 }, cancelRequested: true });
    expect(await within(batch).findByTestId('batch-status', undefined, { timeout: 5000 })).toHaveTextContent(
      'Cancelled after 1 of 2 (1 failed).',
    );
    // The suggestions the batch made are fetched with the answers once it stops.
    await waitFor(() => expect(fake.answerRequests.length).toBeGreaterThan(asked));
  });

  it('says why suggestions are unavailable and keeps marking working', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([makeAnswerRow(1), makeAnswerRow(2)], {
        suggestions: {
          available: false,
          reason: SuggestionMessages.noProvider,
          provider: null,
          model: null,
          budgetTokens: 0,
          usedTokens: 0,
        },
      }),
    );
    const { user } = await openScreen();
    const panel = screen.getByRole('region', { name: 'AI suggestion' });
    expect(within(panel).getByTestId('suggestions-unavailable')).toHaveTextContent(SuggestionMessages.noProvider);
    expect(within(panel).queryByRole('button', { name: 'Suggest a mark' })).not.toBeInTheDocument();
    expect(
      within(panel).queryByRole('button', { name: 'Suggest marks for all unmarked answers' }),
    ).not.toBeInTheDocument();

    await user.keyboard('0{Enter}');
    await waitFor(() =>
      expect(fake.marks).toEqual([{ resultIds: ['result-1'], points: 0, feedback: '', criteria: [] }]),
    );
  });

  it('takes an answer out of its group to mark it alone, and puts it back', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([
        makeAnswerRow(1, { answer: 'median', groupId: 'g-a' }),
        makeAnswerRow(2, { answer: 'median', groupId: 'g-a' }),
        makeAnswerRow(3, { answer: 'median', groupId: 'g-a' }),
      ]),
    );
    const { user } = await openScreen();
    await user.click(screen.getByRole('button', { name: 'Mark this answer alone' }));
    await waitFor(() => expect(fake.detachments).toEqual([{ resultId: 'result-1', detached: true }]));
    await waitFor(() => expect(heading()).toHaveTextContent(/^Candidate 1$/));
    expect(screen.getByText('Taken out of its group: this answer is marked alone.')).toBeInTheDocument();
    expect(screen.queryByTestId('group-banner')).not.toBeInTheDocument();

    // The group of two now comes before the answer marked alone.
    expect(screen.getByTestId('answer-position')).toHaveTextContent('2 of 2');
    unfocus();
    await user.keyboard('k');
    expect(heading()).toHaveTextContent('Candidate 2 and 1 more');
    await user.click(screen.getByText('Show the 2 answers in this group'));
    await user.click(screen.getByRole('button', { name: "Mark Candidate 3's answer alone" }));
    await waitFor(() => expect(fake.detachments.at(-1)).toEqual({ resultId: 'result-3', detached: true }));
    await waitFor(() => expect(heading()).toHaveTextContent(/^Candidate 3$/));

    await user.click(screen.getByRole('button', { name: 'Put back in its group' }));
    await waitFor(() => expect(fake.detachments.at(-1)).toEqual({ resultId: 'result-3', detached: false }));
    await waitFor(() => expect(heading()).toHaveTextContent('Candidate 2 and 1 more'));
  });

  it('shows a file upload by its name and the text read from it', async () => {
    serveQuestionGrading(
      makeQuestionAnswers(
        [
          makeAnswerRow(1, {
            answer: '',
            file: { fileName: 'essay.pdf', size: 2048 },
            fileText: 'My essay on medians.',
          }),
          makeAnswerRow(2, { answer: '', file: { fileName: 'scan.png', size: 10 }, fileText: null }),
        ],
        { type: 'file-upload' },
      ),
    );
    const { user } = await openScreen();
    expect(screen.getByTestId('answer-file')).toHaveTextContent('File: essay.pdf (2.0 KB)');
    expect(screen.getByTestId('answer-text')).toHaveTextContent('My essay on medians.');
    await user.keyboard('j');
    expect(screen.getByTestId('answer-file')).toHaveTextContent('File: scan.png (10 B)');
    expect(screen.getByText(/No text could be read from this file/)).toBeInTheDocument();
  });

  it('picks a previous comment from the comment bank into the feedback', async () => {
    const fake = serveQuestionGrading(
      makeQuestionAnswers([makeAnswerRow(1)], {
        commentBank: [{ text: 'Say why the median resists outliers.', uses: 4 }],
      }),
    );
    const { user } = await openScreen();
    await user.click(screen.getByRole('combobox', { name: 'Comment bank' }));
    await user.click(
      await screen.findByRole('option', { name: 'Say why the median resists outliers. (used 4 times)' }),
    );
    expect(screen.getByRole('textbox', { name: 'Feedback' })).toHaveValue('Say why the median resists outliers.');
    unfocus();
    await user.keyboard('f{Enter}');
    await waitFor(() => expect(fake.marks[0]?.feedback).toBe('Say why the median resists outliers.'));
  });

  it('shows the agreement of suggestions and graders on this question, with the notes of missing figures', async () => {
    serveQuestionGrading(makeQuestionAnswers([makeAnswerRow(1)]), {
      agreement: [
        makeAgreement({
          kappa: null,
          notes: { kappa: 'both raters gave every answer the same points: κ is 0/0 and undefined' },
        }),
      ],
    });
    await openScreen();
    const region = screen.getByRole('region', { name: 'AI–human agreement' });
    const figures = await within(region).findByTestId('agreement-figures');
    const read = (term: string) => within(figures).getByText(term).nextElementSibling?.textContent;
    expect(read('Answers compared')).toBe('24');
    expect(read('Exact agreement')).toBe('75%');
    expect(read("Cohen's κ")).toBe('—');
    expect(read('Weighted κ (quadratic)')).toBe('0.78 (95% CI 0.65–0.90)');
    expect(read('Mean absolute difference')).toBe('0.42 points');
    expect(
      within(region).getByText('κ: both raters gave every answer the same points: κ is 0/0 and undefined'),
    ).toBeInTheDocument();
  });

  it('lists every question of the exam in the picker, marking those a grader marks, and switches question', async () => {
    seedExams(
      makeExam({
        id: 'exam-qg',
        questions: [
          QuestionSchema.parse({
            id: 'q1',
            type: 'mcq',
            title: 'Pick the median',
            options: ['1', '2'],
            correctAnswer: '2',
          }),
          QuestionSchema.parse({ id: 'q2', type: 'short-answer', title: 'Which measure resists outliers?' }),
          QuestionSchema.parse({ id: 'q3', type: 'file-upload', title: 'Upload your essay' }),
        ],
      }),
    );
    serveQuestionGrading(makeQuestionAnswers([makeAnswerRow(1)]));
    const { user, router } = await openScreen();
    await user.click(screen.getByRole('combobox', { name: 'Question' }));
    expect(await screen.findByRole('option', { name: 'Q1: Pick the median' })).toBeInTheDocument();
    expect(
      screen.getByRole('option', { name: 'Q2: Which measure resists outliers? · marked by a grader' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Q3: Upload your essay · marked by a grader' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/grade/exam-qg/question/3'));
  });

  it('says the question does not exist for a number out of range', async () => {
    serveQuestionGrading(makeQuestionAnswers([makeAnswerRow(1)]));
    signInAs();
    renderApp('/creator/grade/exam-qg/question/0');
    expect(await screen.findByText('This exam has no such question')).toBeInTheDocument();
  });

  it("shows another creator's exam (404) as a question that does not exist", async () => {
    serveQuestionGrading(makeQuestionAnswers([makeAnswerRow(1)]));
    signInAs();
    renderApp('/creator/grade/someone-elses/question/2');
    expect(await screen.findByText('This exam has no such question')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Submissions' })).toHaveAttribute(
      'href',
      '/creator/exam-insights/someone-elses/submissions',
    );
  });
});
