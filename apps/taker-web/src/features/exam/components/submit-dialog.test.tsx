import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildAllTypesExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

async function openExam() {
  const exam = buildAllTypesExam();
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: 'Q1: Pick a prime' });
  return { ...view, fake };
}

describe('submitting from the header', () => {
  it('asks first, says how many of N are answered and lists the unanswered questions with links', async () => {
    const { user, fake } = await openExam();
    await user.type(screen.getByLabelText('Answer for Q2'), 'Paris');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Submit exam?' });
    expect(dialog).toHaveTextContent('You have answered 1 of 4 questions.');
    const links = within(within(dialog).getByRole('navigation', { name: 'Unanswered questions' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Q1: Pick a prime',
      'Q3: Upload your report',
      'Q4: Reverse a string',
    ]);
    expect(links[0]).toHaveAttribute('href', '#question-1');
    // Nothing is submitted by opening the dialog.
    expect(fake.state.submitCalls).toBe(0);
  });

  it('keeps focus inside the dialog and goes back to the exam on Escape without submitting', async () => {
    const { user, fake } = await openExam();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('alertdialog');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Q1: Pick a prime' })).toBeInTheDocument();
    expect(fake.state.submitCalls).toBe(0);
  });

  it('Keep working cancels; a link closes the dialog and puts the candidate on that question', async () => {
    const { user, fake } = await openExam();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep working' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('link', { name: 'Q3: Upload your report' }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Upload file for Q3')));
    expect(fake.state.submitCalls).toBe(0);
  });

  it('submits only on "Submit exam", after saying how many are answered', async () => {
    const exam = buildAllTypesExam();
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    const { user } = renderRoute(`/exam/${exam.id}`);
    await user.click(await screen.findByRole('radio', { name: '7' }));
    await user.type(screen.getByLabelText('Answer for Q2'), 'Paris');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('You have answered 2 of 4 questions.');
    await user.click(within(dialog).getByRole('button', { name: 'Submit exam' }));
    expect(await screen.findByRole('heading', { name: 'Exam Completed' })).toBeInTheDocument();
    expect(fake.state.submitCalls).toBe(1);
  });
});
