import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';

const lastBody = () => examStore.writes.at(-1)?.body as { unansweredPolicy?: string } | undefined;
const policy = () => within(screen.getByRole('group', { name: 'Unanswered questions' }));

describe('the unanswered questions setting', () => {
  it('starts a new exam scoring unanswered questions 0, explains both choices, and saves a grader when chosen', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Midterm');
    expect(screen.getByRole('group', { name: 'Unanswered questions' })).toHaveAccessibleDescription(
      /left blank scores when it is submitted/,
    );
    expect(policy().getByRole('radio', { name: /Score 0 automatically/ })).toBeChecked();
    expect(policy().getByText(/untouched starter code scores 0/)).toBeInTheDocument();
    await user.click(policy().getByRole('radio', { name: /Leave them to a grader/ }));
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody()?.unansweredPolicy).toBe('grader');
  });

  it("shows an exam's stored choice when editing and saves a change back to 0", async () => {
    const exam = makeExam({ title: 'Graded by hand', isDraft: true, unansweredPolicy: 'grader' });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    await screen.findByRole('group', { name: 'Unanswered questions' });
    expect(policy().getByRole('radio', { name: /Leave them to a grader/ })).toBeChecked();
    await user.click(policy().getByRole('radio', { name: /Score 0 automatically/ }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(lastBody()?.unansweredPolicy).toBe('zero'));
  });
});
