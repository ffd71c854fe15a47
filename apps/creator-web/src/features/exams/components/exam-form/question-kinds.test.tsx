import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { addQuestionOfType, lastQuestions, openNewExam, saveDraft } from '../../../../testing/exam-editor.ts';

describe('exam editor: essay and true/false', { timeout: 90_000 }, () => {
  it('authors an essay with word limits and the formatted editor, and says a person marks it', async () => {
    const { user } = await openNewExam('Essays');
    await addQuestionOfType(user, 'Essay');
    expect(screen.getByText(/Essays are marked by a person/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Question 1 title'), 'Causes of the war');
    await user.type(screen.getByLabelText('Question 1 minimum words'), '300');
    await user.type(screen.getByLabelText('Question 1 maximum words'), '200');
    await user.click(screen.getByLabelText('Formatted editor (bold, lists, code, headings)'));
    await saveDraft(user);
    // The domain's rule (questionKindIssues) shows at the maximum.
    expect(await screen.findByText('The word limit is below the minimum')).toBeInTheDocument();
    expect(screen.getByLabelText('Question 1 maximum words')).toHaveAttribute('aria-invalid', 'true');
    expect(examStore.writes).toHaveLength(0);

    await user.clear(screen.getByLabelText('Question 1 maximum words'));
    await user.type(screen.getByLabelText('Question 1 maximum words'), '600');
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'essay',
      title: 'Causes of the war',
      essay: { minWords: 300, maxWords: 600, formatted: true },
    });
  });

  it('keys a true/false statement and keeps per-option feedback for True and False', async () => {
    const { user } = await openNewExam('Statements');
    await addQuestionOfType(user, 'True/false');
    await user.type(screen.getByLabelText('Question 1 content'), 'Water boils at 100 °C at sea level.');
    await saveDraft(user);
    expect(await screen.findByText('Choose whether the statement is true or false')).toBeInTheDocument();

    const key = screen.getByRole('radiogroup', { name: 'Question 1: the statement is' });
    await user.click(within(key).getByRole('radio', { name: 'True' }));
    await user.click(screen.getByText('Question 1 feedback'));
    await user.type(screen.getByLabelText('Question 1 general feedback'), 'At 1 atm.');
    await user.type(screen.getByLabelText('Feedback for option 2 (False)'), 'It does boil at 100 °C.');
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'true-false',
      content: 'Water boils at 100 °C at sea level.',
      correctAnswer: 'true',
      feedback: { general: 'At 1 atm.', correct: '', partial: '', incorrect: '' },
      optionFeedback: ['', 'It does boil at 100 °C.'],
    });
  });
});

describe('exam editor: ordering and matching', { timeout: 90_000 }, () => {
  it('writes ordering items in order, moves them with buttons and chooses partial credit', async () => {
    const { user } = await openNewExam('Orders');
    await addQuestionOfType(user, 'Ordering');
    await user.type(screen.getByLabelText('Question 1 item 1'), 'Mercury');
    await user.type(screen.getByLabelText('Question 1 item 2'), 'Mercury');
    await saveDraft(user);
    expect(await screen.findByText('Each item appears once')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Question 1 item 2'));
    await user.type(screen.getByLabelText('Question 1 item 2'), 'Earth');
    await user.click(screen.getByRole('button', { name: 'Question 1 add item' }));
    await user.type(screen.getByLabelText('Question 1 item 3'), 'Venus');
    // Venus belongs second: up one, by the keyboard-reachable button.
    await user.click(screen.getByRole('button', { name: 'Move item 3 of question 1 up' }));
    expect(screen.getByLabelText('Question 1 item 2')).toHaveValue('Venus');
    await user.click(screen.getByRole('combobox', { name: 'Question 1 scoring' }));
    await user.click(await screen.findByRole('option', { name: 'Partial credit' }));
    expect(screen.getByText(/each pair of neighbouring items left in the right order/)).toBeInTheDocument();
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'ordering',
      items: ['Mercury', 'Venus', 'Earth'],
      scoring: 'partial',
    });
  });

  it('writes matching pairs and distractors, with the schema’s messages at the fields', async () => {
    const { user } = await openNewExam('Capitals');
    await addQuestionOfType(user, 'Matching');
    await user.type(screen.getByLabelText('Question 1 prompt 1'), 'France');
    await user.type(screen.getByLabelText('Question 1 answer 1'), 'Paris');
    await user.type(screen.getByLabelText('Question 1 prompt 2'), 'Italy');
    await user.click(screen.getByRole('button', { name: 'Question 1 add distractor' }));
    await user.type(screen.getByLabelText('Question 1 distractor 1'), 'Paris');
    await saveDraft(user);
    expect(await screen.findByText('Write the answer')).toBeInTheDocument();
    expect(screen.getByText('A distractor is not also a right answer')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Question 1 answer 2'), 'Rome');
    await user.clear(screen.getByLabelText('Question 1 distractor 1'));
    await user.type(screen.getByLabelText('Question 1 distractor 1'), 'Madrid');
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'matching',
      pairs: [
        { prompt: 'France', answer: 'Paris' },
        { prompt: 'Italy', answer: 'Rome' },
      ],
      distractors: ['Madrid'],
      scoring: 'all-or-nothing',
    });
  });

  it('opens a saved exam with its new-type questions as they were authored', async () => {
    const exam = makeExam({
      title: 'Saved kinds',
      questions: [
        { id: 'q1', type: 'ordering', title: 'Planets', items: ['Mercury', 'Venus'], scoring: 'partial' },
        { id: 'q2', type: 'true-false', title: 'Sky', content: 'The sky is green.', correctAnswer: 'false' },
      ] as never,
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    expect(await screen.findByLabelText('Question 1 item 2')).toHaveValue('Venus');
    const key = screen.getByRole('radiogroup', { name: 'Question 2: the statement is' });
    expect(within(key).getByRole('radio', { name: 'False' })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions().map((q) => q.type)).toEqual(['ordering', 'true-false']);
  });
});
