import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';

const lastBody = () => examStore.writes.at(-1)?.body as { questionDisplay?: string } | undefined;
const display = () => within(screen.getByRole('group', { name: 'Question display' }));

describe('the question display setting', () => {
  it('starts a new exam with all questions on one page and saves one at a time when chosen', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Paged quiz');
    expect(display().getByRole('radio', { name: /All questions on one page/ })).toBeChecked();
    await user.click(display().getByRole('radio', { name: /One question at a time/ }));
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody()?.questionDisplay).toBe('one');
  });

  it("shows an exam's stored choice when editing and saves a change back to all", async () => {
    const exam = makeExam({ title: 'Paged', isDraft: true, questionDisplay: 'one' });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    await screen.findByRole('group', { name: 'Question display' });
    expect(display().getByRole('radio', { name: /One question at a time/ })).toBeChecked();
    await user.click(display().getByRole('radio', { name: /All questions on one page/ }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(lastBody()?.questionDisplay).toBe('all'));
  });
});
