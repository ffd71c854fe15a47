import { BankQuestionSchema } from '@exam/domain/bank';
import { QuestionSchema } from '@exam/domain/question';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

type WrittenBody = {
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  pools: Array<Record<string, unknown>>;
  questions: Array<Record<string, unknown>>;
};
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;

describe('exam editor: order, pools and the question bank', () => {
  it('sends both shuffles and a pool with the questions assigned to it', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Pooled');
    await user.click(screen.getByRole('switch', { name: 'Shuffle question order' }));
    await user.click(screen.getByRole('switch', { name: 'Shuffle answer options' }));
    await user.click(screen.getByRole('button', { name: 'Add pool' }));
    await user.type(screen.getByLabelText('Pool 1 title'), 'Cells');
    const points = screen.getByLabelText('Pool 1 points per draw');
    await user.clear(points);
    await user.type(points, '3');
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    // Questions 2 and 3 join the pool.
    for (const n of [2, 3]) {
      const field = screen.getByText(`Question ${n} pool`).closest('div')!;
      await user.click(within(field).getByRole('combobox'));
      await user.click(await screen.findByRole('option', { name: 'Cells' }));
    }
    expect(screen.getByText('2 questions in the pool')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    const body = lastBody();
    expect(body).toMatchObject({ shuffleQuestions: true, shuffleOptions: true });
    expect(body.pools).toEqual([expect.objectContaining({ title: 'Cells', draw: 1, points: 3 })]);
    const poolId = body.pools[0]!.id;
    expect(body.questions.map((q) => q.poolId)).toEqual([null, poolId, poolId]);
  });

  it('adds copies of bank questions with new ids, and saves a question of the exam to the bank', async () => {
    seedExams();
    const saved: unknown[] = [];
    const banked = BankQuestionSchema.parse({
      id: 'b1',
      question: QuestionSchema.parse({
        id: 'bank-q',
        type: 'short-answer',
        title: 'Largest organ',
        topic: 'Organs',
        acceptedAnswers: ['skin'],
        points: 2,
      }),
      createdAt: '2025-01-05T10:00:00.000Z',
      updatedAt: '2025-01-05T10:00:00.000Z',
    });
    server.use(
      http.get('*/api/bank/questions', () => HttpResponse.json({ questions: [banked] })),
      http.post('*/api/bank/questions', async ({ request }) => {
        const body = (await request.json()) as { question: Record<string, unknown> };
        saved.push(body);
        return HttpResponse.json({ bankQuestion: { ...banked, id: 'b2', question: body.question } }, { status: 201 });
      }),
    );
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'From the bank');
    await user.click(screen.getByRole('button', { name: 'Add from bank' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add from your question bank' });
    await user.click(await within(dialog).findByRole('checkbox', { name: /Largest organ/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 question' }));
    await waitFor(() => expect(screen.getByLabelText('Question 1 title')).toHaveValue('Largest organ'));

    await user.click(screen.getByRole('button', { name: 'Add MCQ' }));
    await user.type(screen.getByLabelText('Question 2 title'), 'Red planet');
    await user.click(screen.getByRole('button', { name: 'Save to bank: question 2' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ question: { type: 'mcq', title: 'Red planet' } });

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    const copy = lastBody().questions[0]!;
    expect(copy).toMatchObject({ title: 'Largest organ', acceptedAnswers: ['skin'], points: 2, topic: 'Organs' });
    expect(copy.id).not.toBe('bank-q');
  });
});
