import { decodeChoices, encodeChoices } from '@exam/domain/grading';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';
import { listAnswers } from '../lib/outbox.ts';

const options = ['2', '3', '4', '5'];

async function openMultipleAnswerExam() {
  const exam = buildPublicExam({
    questions: [
      buildQuestion({ type: 'mcq', title: 'Tick the primes', options, multipleAnswers: true, points: 3 }),
      buildQuestion({ type: 'mcq', title: 'Pick one', options: ['yes', 'no'], points: 1 }),
    ],
  });
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  return { ...renderRoute(`/exam/${exam.id}`), fake, exam };
}

describe('multiple-answer MCQ', () => {
  it('renders a checkbox per option and each question its points', async () => {
    await openMultipleAnswerExam();
    const first = await screen.findByTestId('question-0');
    expect(within(first).getAllByRole('checkbox')).toHaveLength(4);
    expect(within(first).queryByRole('radio')).not.toBeInTheDocument();
    expect(within(first).getByText('3 points')).toBeInTheDocument();
    const second = screen.getByTestId('question-1');
    expect(within(second).getAllByRole('radio')).toHaveLength(2);
    expect(within(second).getByText('1 point')).toBeInTheDocument();
  });

  it('saves the ticked options as an encoded list and restores the ticks after a reload', async () => {
    const { user, fake, unmount, exam } = await openMultipleAnswerExam();
    await user.click(await screen.findByRole('checkbox', { name: '5' }));
    await user.click(screen.getByRole('checkbox', { name: '2' }));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeChoices(['2', '5'])));
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Answered');
    expect(await listAnswers(await getTakerDb(), fake.attemptId)).toMatchObject([
      { questionIndex: 0, answer: encodeChoices(['2', '5']) },
    ]);

    unmount();
    renderRoute(`/exam/${exam.id}`);
    expect(await screen.findByRole('checkbox', { name: '2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '5' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '3' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: '4' })).not.toBeChecked();
  });

  it('clears the answer when the last tick is removed', async () => {
    const { user, fake } = await openMultipleAnswerExam();
    const box = await screen.findByRole('checkbox', { name: '3' });
    await user.click(box);
    await waitFor(() => expect(decodeChoices(fake.state.answers.get(0)?.answer)).toEqual(['3']));
    await user.click(box);
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(''));
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
  });
});

describe('rich text in a question', () => {
  it('renders the content and options as Markdown but saves the option as the author wrote it', async () => {
    const written = '`a < b` is **true**';
    const exam = buildPublicExam({
      questions: [
        buildQuestion({
          type: 'mcq',
          title: 'Compare',
          content: 'Given\n\n```python\nx = 1\n```\n\nand $$x^2$$, which holds? <img src=x onerror="alert(1)">',
          options: [written, 'neither'],
          points: 1,
        }),
      ],
    });
    const fake = createFakeResultsService({ exam });
    server.use(...fake.handlers);
    await seedAttempt(exam, fake.attemptId);
    const { user } = renderRoute(`/exam/${exam.id}`);

    const content = await screen.findByTestId('question-content-0');
    await waitFor(() => expect(content.querySelector('pre[data-highlighted="true"]')).toHaveTextContent('x = 1'));
    await waitFor(() => expect(content.querySelector('.katex')).not.toBeNull());
    expect(content.querySelector('img')).toBeNull();
    expect(content).toHaveTextContent('<img src=x onerror="alert(1)">');

    const option = await screen.findByRole('radio', { name: 'a < b is true' });
    expect(option.closest('label')?.querySelector('code')).toHaveTextContent('a < b');
    await user.click(option);
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(written));
  });
});
