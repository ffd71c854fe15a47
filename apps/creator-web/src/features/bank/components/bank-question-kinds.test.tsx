import { BankQuestionSchema } from '@exam/domain/bank';
import { QuestionSchema } from '@exam/domain/question';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** An empty bank that keeps what is posted to it. */
function serveEmptyBank() {
  const created: Array<{ question: Record<string, unknown> }> = [];
  server.use(
    http.get('*/api/bank/questions', () => HttpResponse.json({ questions: [] })),
    http.post('*/api/bank/questions', async ({ request }) => {
      const body = (await request.json()) as { question: Record<string, unknown> };
      created.push(body);
      const bankQuestion = BankQuestionSchema.parse({
        id: 'b1',
        question: QuestionSchema.parse(body.question),
        createdAt: '2025-01-05T10:00:00.000Z',
        updatedAt: '2025-01-05T10:00:00.000Z',
      });
      return HttpResponse.json({ bankQuestion }, { status: 201 });
    }),
  );
  return created;
}

describe('question bank: the further types', { timeout: 120_000 }, () => {
  it('types a new ordering question with the exam editor’s ordering editor, its messages in place', async () => {
    const created = serveEmptyBank();
    signInAs();
    const { user } = renderApp('/creator/question-bank');
    await user.click(await screen.findByRole('button', { name: 'New question' }));
    const dialog = await screen.findByRole('dialog', { name: 'New bank question' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Question type' }));
    await user.click(await screen.findByRole('option', { name: 'Ordering' }));
    await user.type(within(dialog).getByLabelText('Question'), 'Order the planets');
    await user.type(within(dialog).getByLabelText('Question 1 item 1'), 'Mercury');
    await user.click(within(dialog).getByRole('button', { name: 'Save question' }));
    expect(await within(dialog).findByText('Write the item')).toBeInTheDocument();
    expect(created).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Question 1 item 2'), 'Venus');
    await user.click(within(dialog).getByText('Question 1 feedback'));
    await user.type(within(dialog).getByLabelText('Question 1 general feedback'), 'Closest first.');
    await user.click(within(dialog).getByRole('button', { name: 'Save question' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.question).toMatchObject({
      type: 'ordering',
      title: 'Order the planets',
      items: ['Mercury', 'Venus'],
      feedback: { general: 'Closest first.' },
    });
  });
});
