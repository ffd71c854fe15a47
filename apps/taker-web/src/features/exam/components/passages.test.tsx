import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildQuestion } from '../../../testing/factories.ts';
import { openExam } from '../../../testing/open-exam.ts';

const passage = {
  id: 'p-1',
  title: 'The water cycle',
  content: 'Water evaporates.\n\n| stage | place |\n| --- | --- |\n| rain | clouds |',
};
const questions = () => [
  buildQuestion({ type: 'mcq', title: 'Where does rain form?', options: ['clouds', 'rivers'], passageId: 'p-1' }),
  buildQuestion({ type: 'short-answer', title: 'Name the first stage', passageId: 'p-1' }),
  buildQuestion({ type: 'short-answer', title: 'Unrelated question' }),
  buildQuestion({ type: 'true-false', title: 'Rain is water', passageId: 'p-1' }),
];

describe('shared passages in the exam room', () => {
  it('shows a passage once beside the consecutive questions that share it, as a named landmark with its table', async () => {
    await openExam(questions(), { passages: [passage] });
    const asides = await screen.findAllByRole('complementary', { name: 'Passage: The water cycle' });
    // Q1 and Q2 share one; Q4 (after an unrelated question) gets it again.
    expect(asides).toHaveLength(2);
    expect(within(asides[0]!).getByText('For Q1–Q2')).toBeInTheDocument();
    expect(within(asides[1]!).getByText('For Q4')).toBeInTheDocument();
    // Rendered as question content is: a table.
    expect(await within(asides[0]!).findByRole('table')).toBeInTheDocument();
    expect(within(asides[0]!).getByRole('cell', { name: 'clouds' })).toBeInTheDocument();

    const groups = screen.getAllByTestId('passage-group');
    expect(groups).toHaveLength(2);
    expect(within(groups[0]!).getByTestId('question-0')).toBeInTheDocument();
    expect(within(groups[0]!).getByTestId('question-1')).toBeInTheDocument();
    expect(within(groups[0]!).queryByTestId('question-2')).not.toBeInTheDocument();
    expect(within(groups[1]!).getByTestId('question-3')).toBeInTheDocument();
    // The passage comes first in the reading order (above the questions on a narrow column).
    const [aside, firstQuestion] = [asides[0]!, screen.getByTestId('question-0')];
    expect(aside.compareDocumentPosition(firstQuestion) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('folds and unfolds a passage with its toggle, by keyboard', async () => {
    const { user } = await openExam(questions().slice(0, 2), { passages: [passage] });
    const aside = await screen.findByRole('complementary', { name: 'Passage: The water cycle' });
    const toggle = within(aside).getByRole('button', { name: 'Hide passage' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(within(aside).getByRole('button', { name: 'Show passage' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(aside).queryByText('Water evaporates.')).not.toBeVisible();
    await user.keyboard(' ');
    expect(await within(aside).findByText('Water evaporates.')).toBeVisible();
  });

  it('shows the current question’s passage above it in one-at-a-time mode, and none for a question without one', async () => {
    const { user } = await openExam(questions(), { passages: [passage], questionDisplay: 'one' });
    const aside = await screen.findByRole('complementary', { name: 'Passage: The water cycle' });
    expect(within(aside).getByText('For Q1')).toBeInTheDocument();
    expect(within(screen.getByTestId('passage-group')).getByTestId('question-0')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByTestId('question-1')).toBeInTheDocument();
    expect(within(screen.getByRole('complementary', { name: 'Passage: The water cycle' })).getByText('For Q2'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByTestId('question-2')).toBeInTheDocument();
    expect(screen.queryByRole('complementary', { name: /Passage/ })).not.toBeInTheDocument();
  });

  it('shows no passage for an exam without passages, and its questions as one flat list', async () => {
    await openExam([buildQuestion({ title: 'Alone', passageId: 'gone' })]);
    expect(await screen.findByTestId('question-0')).toBeInTheDocument();
    expect(screen.queryByTestId('passage-group')).not.toBeInTheDocument();
  });
});
