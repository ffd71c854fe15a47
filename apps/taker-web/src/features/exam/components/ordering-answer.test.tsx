import { encodeOrder } from '@exam/domain/question-kinds';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildQuestion } from '../../../testing/factories.ts';
import { openExam } from '../../../testing/open-exam.ts';

// The order the server sends (already shuffled): the right one is Mercury, Venus, Earth.
const shown = ['Venus', 'Earth', 'Mercury'];
const ordering = () => buildQuestion({ type: 'ordering', title: 'Order by distance from the Sun', items: shown });

const itemsInOrder = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((li) => within(li).getByRole('combobox').getAttribute('aria-label')!.replace('Position of ', ''));

describe('ordering answer', () => {
  it('starts unanswered in the order given, and Keep this order saves that order', async () => {
    const { user, fake } = await openExam([ordering()]);
    const list = await screen.findByRole('list', { name: 'Items of Q1 in your order' });
    expect(itemsInOrder(list)).toEqual(shown);
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
    await user.click(screen.getByRole('button', { name: 'Keep this order' }));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeOrder(shown)));
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Answered');
    expect(screen.getByTestId('ordering-status-0')).toHaveTextContent('Order saved.');
  });

  it('moves an item with the keyboard, keeps the focus on it and announces where it went', async () => {
    const { user, fake } = await openExam([ordering()]);
    const list = await screen.findByRole('list', { name: 'Items of Q1 in your order' });
    const up = screen.getByRole('button', { name: 'Move up: Mercury' });
    up.focus();
    await user.keyboard('{Enter}');
    expect(itemsInOrder(list)).toEqual(['Venus', 'Mercury', 'Earth']);
    expect(screen.getByRole('button', { name: 'Move up: Mercury' })).toHaveFocus();
    const status = screen.getByTestId('ordering-status-0');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('Item “Mercury” moved to position 2 of 3.');

    // At the top its Move up is disabled, so the focus goes to its Move down.
    await user.keyboard(' ');
    expect(itemsInOrder(list)).toEqual(['Mercury', 'Venus', 'Earth']);
    expect(screen.getByRole('button', { name: 'Move up: Mercury' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move down: Mercury' })).toHaveFocus();
    expect(status).toHaveTextContent('Item “Mercury” moved to position 1 of 3.');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeOrder(['Mercury', 'Venus', 'Earth'])));
  });

  it('moves an item to the position chosen in its select, and shows a saved order after a reload', async () => {
    const { user, fake, unmount, exam } = await openExam([ordering()]);
    const list = await screen.findByRole('list', { name: 'Items of Q1 in your order' });
    const position = screen.getByRole('combobox', { name: 'Position of Venus' });
    expect(position).toHaveValue('1');
    await user.selectOptions(position, '3');
    expect(itemsInOrder(list)).toEqual(['Earth', 'Mercury', 'Venus']);
    expect(screen.getByRole('combobox', { name: 'Position of Venus' })).toHaveFocus();
    expect(screen.getByRole('combobox', { name: 'Position of Venus' })).toHaveValue('3');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeOrder(['Earth', 'Mercury', 'Venus'])));

    unmount();
    const { renderRoute } = await import('../../../testing/render.tsx');
    renderRoute(`/exam/${exam.id}`);
    const again = await screen.findByRole('list', { name: 'Items of Q1 in your order' });
    expect(itemsInOrder(again)).toEqual(['Earth', 'Mercury', 'Venus']);
  });
});
