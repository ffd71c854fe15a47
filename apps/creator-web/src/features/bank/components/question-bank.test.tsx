import { BankQuestionSchema, type BankQuestion } from '@exam/domain/bank';
import { QuestionSchema } from '@exam/domain/question';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const bankQuestion = (id: string, question: Record<string, unknown>): BankQuestion =>
  BankQuestionSchema.parse({
    id,
    question: QuestionSchema.parse({ id: 'q', ...question }),
    createdAt: '2025-01-05T10:00:00.000Z',
    updatedAt: '2025-01-05T10:00:00.000Z',
  });

/** A bank held by the msw handlers: list (with search), create, delete. */
function serveBank(initial: BankQuestion[]) {
  const bank = [...initial];
  const created: unknown[] = [];
  const searches: string[] = [];
  server.use(
    http.get('*/api/bank/questions', ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      searches.push(search);
      return HttpResponse.json({
        questions: bank.filter((b) => b.question.title.toLowerCase().includes(search.toLowerCase())),
      });
    }),
    http.post('*/api/bank/questions', async ({ request }) => {
      const body = (await request.json()) as { question: Record<string, unknown> };
      created.push(body);
      const saved = bankQuestion(`b${bank.length + 1}`, body.question);
      bank.unshift(saved);
      return HttpResponse.json({ bankQuestion: saved }, { status: 201 });
    }),
    http.delete('*/api/bank/questions/:id', ({ params }) => {
      bank.splice(
        bank.findIndex((b) => b.id === params.id),
        1,
      );
      return HttpResponse.json({ id: params.id });
    }),
  );
  return { created, searches };
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Question bank' }))
    .queryAllByTestId('bank-row')
    .map((r) => r.querySelector('td')?.textContent);

describe('question bank page', () => {
  it('lists the bank, searches it, adds a typed short answer and deletes a question', async () => {
    const calls = serveBank([
      bankQuestion('b1', { type: 'short-answer', title: 'Largest organ', topic: 'Organs', acceptedAnswers: ['skin'] }),
      bankQuestion('b2', { type: 'mcq', title: 'Red planet', options: ['Mars', 'Venus'], correctAnswer: 'Mars' }),
    ]);
    signInAs();
    const { user } = renderApp('/creator/question-bank');
    await screen.findByRole('table', { name: 'Question bank' });
    await waitFor(() => expect(rows()).toEqual(['Largest organ', 'Red planet']));

    await user.type(screen.getByLabelText('Search'), 'planet');
    await waitFor(() => expect(rows()).toEqual(['Red planet']));
    await user.clear(screen.getByLabelText('Search'));

    await user.click(screen.getByRole('button', { name: 'New question' }));
    const dialog = await screen.findByRole('dialog', { name: 'New bank question' });
    await user.type(within(dialog).getByLabelText('Question'), 'Blood pump');
    await user.type(within(dialog).getByLabelText('Topic'), 'Organs');
    await user.type(within(dialog).getByLabelText('Accepted answers (one per line)'), 'heart');
    await user.click(within(dialog).getByRole('button', { name: 'Save question' }));
    await waitFor(() => expect(calls.created).toHaveLength(1));
    expect(calls.created[0]).toMatchObject({
      question: { type: 'short-answer', title: 'Blood pump', topic: 'Organs', acceptedAnswers: ['heart'], points: 1 },
    });
    await waitFor(() => expect(rows()).toEqual(['Blood pump', 'Largest organ', 'Red planet']));

    await user.click(screen.getByRole('button', { name: 'Delete Largest organ' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('"Largest organ" will be deleted from your bank.');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toEqual(['Blood pump', 'Red planet']));
  });

  it('names the field when a typed MCQ has a correct option that is not among its options', async () => {
    const calls = serveBank([]);
    signInAs();
    const { user } = renderApp('/creator/question-bank');
    expect(await screen.findByText('Your bank is empty')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New question' }));
    const dialog = await screen.findByRole('dialog', { name: 'New bank question' });
    await user.click(within(dialog).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Multiple choice' }));
    await user.type(within(dialog).getByLabelText('Question'), 'Red planet');
    await user.type(within(dialog).getByLabelText('Options (one per line)'), 'Mars{enter}Venus');
    await user.type(within(dialog).getByLabelText('Correct option'), 'Pluto');
    await user.click(within(dialog).getByRole('button', { name: 'Save question' }));
    expect(await within(dialog).findByText('The correct answer must be one of the options')).toBeInTheDocument();
    expect(calls.created).toHaveLength(0);
  });
});
