import { encodeBlanks, encodeMatches } from '@exam/domain/question-kinds';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildQuestion } from '../../../testing/factories.ts';
import { openExam } from '../../../testing/open-exam.ts';

describe('true/false answer', () => {
  it('is a radio group named by the question, answered with the keyboard as true or false', async () => {
    const { user, fake } = await openExam([
      buildQuestion({ type: 'true-false', title: 'Water boils at 100 °C at sea level' }),
    ]);
    const group = await screen.findByRole('radiogroup', { name: 'Q1: Water boils at 100 °C at sea level' });
    const yes = within(group).getByRole('radio', { name: 'True' });
    await user.tab();
    while (document.activeElement !== yes) await user.tab();
    await user.keyboard(' ');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('true'));
    await user.keyboard('{ArrowDown}');
    expect(within(group).getByRole('radio', { name: 'False' })).toBeChecked();
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('false'));
  });

  it('says True and False in the page’s language and still saves true or false', async () => {
    const { user, fake } = await openExam([buildQuestion({ type: 'true-false', title: 'El agua hierve a 100 °C' })]);
    await screen.findByRole('radio', { name: 'True' });
    await act(() => i18n.changeLanguage('es'));
    await user.click(await screen.findByRole('radio', { name: 'Verdadero' }));
    expect(screen.getByRole('radio', { name: 'Falso' })).not.toBeChecked();
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('true'));
  });
});

describe('matching answer', () => {
  const matching = () =>
    buildQuestion({
      type: 'matching',
      title: 'Match each country with its capital',
      prompts: ['France', 'Spain'],
      choices: ['Rome', 'Madrid', 'Paris'],
    });

  it('has a select per prompt, labelled by it, with Choose… first; saves the choices per prompt', async () => {
    const { user, fake } = await openExam([matching()]);
    const france = await screen.findByRole('combobox', { name: 'France' });
    expect(
      within(france)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Rome', 'Madrid', 'Paris']);
    expect(screen.getByRole('group', { name: 'Choose the answer that matches each item.' })).toBeInTheDocument();
    await user.selectOptions(france, 'Paris');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeMatches(['Paris', ''])));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Spain' }), 'Madrid');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeMatches(['Paris', 'Madrid'])));
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Answered');
  });

  it('clears the answer when every prompt is back to Choose…', async () => {
    const { user, fake } = await openExam([matching()]);
    const spain = await screen.findByRole('combobox', { name: 'Spain' });
    await user.selectOptions(spain, 'Rome');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeMatches(['', 'Rome'])));
    await user.selectOptions(spain, '');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(''));
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
  });
});

describe('fill-in-the-blanks answer', () => {
  const blanks = () =>
    buildQuestion({
      type: 'fill-blanks',
      title: 'Complete the sentence',
      gapText: 'The [[1]] is [[2]] km from the [[3]].',
      gaps: [
        { kind: 'text', options: [] },
        { kind: 'numeric', options: [] },
        { kind: 'choice', options: ['Earth', 'Sun'] },
      ],
    });

  it('puts a labelled field in the text at each gap and saves every gap’s value', async () => {
    const { user, fake } = await openExam([blanks()]);
    const text = await screen.findByTestId('gap-text-0');
    expect(text).toHaveTextContent(/^The\s*is\s*km from the\s*Choose…\s*EarthSun\s*\.$/);
    const first = within(text).getByRole('textbox', { name: 'Gap 1' });
    const second = within(text).getByRole('textbox', { name: 'Gap 2' });
    expect(second).toHaveAttribute('inputmode', 'decimal');
    const third = within(text).getByRole('combobox', { name: 'Gap 3' });

    // The gaps come one after the other in the tab order.
    await user.click(first);
    await user.keyboard('Moon');
    await user.tab();
    expect(second).toHaveFocus();
    await user.keyboard('384400');
    await user.tab();
    expect(third).toHaveFocus();
    await user.selectOptions(third, 'Earth');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeBlanks(['Moon', '384400', 'Earth'])));
  });

  it('leaves the question unanswered when every gap is emptied', async () => {
    const { user, fake } = await openExam([blanks()]);
    const first = await screen.findByRole('textbox', { name: 'Gap 1' });
    await user.type(first, 'x');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(encodeBlanks(['x', '', ''])));
    await user.clear(first);
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(''));
  });
});

describe('numeric and calculated answers', () => {
  it('saves the number and the unit chosen as "<number> <unit>"', async () => {
    const { user, fake } = await openExam([
      buildQuestion({ type: 'numeric', title: 'Length of the rod', unitSymbols: ['m', 'cm'], unitRequired: true }),
    ]);
    const number = await screen.findByRole('textbox', { name: 'Answer for Q1' });
    expect(number).toHaveAttribute('inputmode', 'decimal');
    const unit = screen.getByRole('combobox', { name: 'Unit for Q1' });
    expect(unit).toHaveAccessibleDescription('Give the unit of your answer.');
    expect(
      within(unit)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a unit…', 'm', 'cm']);
    // A unit chosen first waits for the number.
    await user.selectOptions(unit, 'cm');
    await user.type(number, '12.5');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('12.5 cm'));
    await user.selectOptions(unit, 'm');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('12.5 m'));
    expect(number).toHaveValue('12.5');
  });

  it('saves the number alone for a calculated question without units', async () => {
    const { user, fake } = await openExam([
      buildQuestion({ type: 'calculated', title: 'Area of a 3 by 4 rectangle', unitSymbols: [], unitRequired: false }),
    ]);
    const number = await screen.findByRole('textbox', { name: 'Answer for Q1' });
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    await user.type(number, '12');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('12'));
  });
});
