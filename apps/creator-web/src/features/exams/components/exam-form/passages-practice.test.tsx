import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { lastQuestions, openNewExam, saveDraft } from '../../../../testing/exam-editor.ts';

type Body = {
  passages: Array<{ id: string; title: string; content: string }>;
  practice: boolean;
  review: { enabled: boolean; closesAt: string | null; showFeedback: boolean };
  attemptsAllowed: number;
};
const lastBody = () => examStore.writes.at(-1)?.body as Body;

describe('exam editor: passages', { timeout: 120_000 }, () => {
  it('adds a passage with a Markdown preview and shows it beside a question chosen in its Passage select', async () => {
    const { user } = await openNewExam('Reading');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    // No passage select until the exam has a passage.
    expect(screen.queryByRole('combobox', { name: 'Question 1 passage' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add passage' }));
    await user.type(screen.getByLabelText('Passage 1 title'), 'The water cycle');
    await user.type(screen.getByLabelText('Passage 1 content'), 'Water **evaporates** from the sea.');
    const preview = screen.getByRole('region', { name: 'Passage 1 content preview' });
    expect(await within(preview).findByText('evaporates')).toHaveProperty('tagName', 'STRONG');

    await user.click(screen.getByRole('combobox', { name: 'Question 1 passage' }));
    await user.click(await screen.findByRole('option', { name: 'The water cycle' }));
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    const [passage] = lastBody().passages;
    expect(passage).toMatchObject({ title: 'The water cycle', content: 'Water **evaporates** from the sea.' });
    expect(lastQuestions()[0]).toMatchObject({ passageId: passage!.id });
  });

  it('asks before removing a passage questions use, and clears their passage when confirmed', async () => {
    const exam = makeExam({
      title: 'Shared reading',
      passages: [{ id: 'p1', title: 'Case', content: 'A case study.' }],
      questions: [
        { id: 'q1', type: 'short-answer', title: 'One', passageId: 'p1' },
        { id: 'q2', type: 'essay', title: 'Two', passageId: 'p1' },
      ] as never,
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    expect(await screen.findByRole('combobox', { name: 'Question 2 passage' })).toHaveTextContent('Case');
    await user.click(screen.getByRole('button', { name: 'Remove passage 1' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove passage 1?' });
    expect(confirm).toHaveTextContent('2 questions show this passage.');
    await user.click(within(confirm).getByRole('button', { name: 'Remove passage' }));
    expect(screen.queryByLabelText('Passage 1 title')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody().passages).toEqual([]);
    expect(lastQuestions().map((q) => q.passageId)).toEqual([null, null]);
  });
});

describe('exam editor: practice and review', { timeout: 120_000 }, () => {
  it('makes a practice exam, which disables the attempts field, and opens a review window', async () => {
    const { user } = await openNewExam('Warm-up');
    const practice = screen.getByRole('switch', { name: 'Practice exam' });
    expect(practice).not.toBeChecked();
    expect(screen.getByText(/not counted in insights or the gradebook, and no grade is sent back/)).toBeInTheDocument();
    const attempts = screen.getByLabelText('Attempts allowed');
    expect(attempts).toBeEnabled();
    await user.click(practice);
    expect(attempts).toBeDisabled();
    expect(screen.getByText('A practice exam may be sat any number of times.')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Review window' }));
    await user.type(screen.getByLabelText('Review closes at'), '2030-06-01T12:00');
    await user.click(screen.getByLabelText('Show my feedback in the review'));
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    const body = lastBody();
    expect(body.practice).toBe(true);
    expect(body.review).toMatchObject({ enabled: true, showFeedback: false });
    expect(new Date(body.review.closesAt!).getTime()).toBe(new Date(2030, 5, 1, 12, 0).getTime());
  });

  it('shows a saved exam’s practice and review settings and keeps them on save', async () => {
    const exam = makeExam({
      title: 'Revision',
      practice: true,
      review: { enabled: true, closesAt: null, showFeedback: true },
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}`);
    expect(await screen.findByRole('switch', { name: 'Practice exam' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Review window' })).toBeChecked();
    expect(screen.getByLabelText('Show my feedback in the review')).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody()).toMatchObject({ practice: true, review: { enabled: true, closesAt: null, showFeedback: true } });
  });
});
