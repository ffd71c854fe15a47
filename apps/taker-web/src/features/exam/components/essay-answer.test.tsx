import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildQuestion } from '../../../testing/factories.ts';
import { openExam } from '../../../testing/open-exam.ts';

const essay = (settings: { minWords: number | null; maxWords: number | null; formatted: boolean }) =>
  buildQuestion({ type: 'essay', title: 'Explain recursion', points: 5, essay: settings });

describe('essay answer', () => {
  it('counts words as they are typed in a polite live region tied to the field, and saves the text', async () => {
    const { user, fake } = await openExam([essay({ minWords: 5, maxWords: 8, formatted: false })]);
    const field = await screen.findByRole('textbox', { name: 'Answer for Q1' });
    const counter = screen.getByTestId('word-count-0');
    expect(counter).toHaveAttribute('aria-live', 'polite');
    expect(field).toHaveAccessibleDescription('0 words (at least 5, at most 8) · 5 more words needed');

    await user.type(field, 'A function that calls itself');
    expect(counter).toHaveTextContent('5 words (at least 5, at most 8)');
    expect(counter).not.toHaveTextContent('needed');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('A function that calls itself'));

    await user.type(field, ' until a base case stops it');
    expect(counter).toHaveTextContent('11 words (at least 5, at most 8) · 3 words over the limit');
    // The limit advises: the text is all kept.
    await waitFor(() =>
      expect(fake.state.answers.get(0)?.answer).toBe('A function that calls itself until a base case stops it'),
    );
  });

  it('has no toolbar without the formatted editor', async () => {
    await openExam([essay({ minWords: null, maxWords: null, formatted: false })]);
    await screen.findByRole('textbox', { name: 'Answer for Q1' });
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
    expect(screen.getByTestId('word-count-0')).toHaveTextContent(/^0 words$/);
  });

  it('formats the selection as Markdown from a keyboard-operated toolbar and previews it', async () => {
    const { user, fake } = await openExam([essay({ minWords: null, maxWords: 100, formatted: true })]);
    const field = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Answer for Q1' });
    await user.type(field, 'base case');
    // Select "base", go back to the toolbar (one tab stop, before the field) and press Bold.
    field.setSelectionRange(0, 4);
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting for Q1' });
    await user.tab({ shift: true });
    const bold = within(toolbar).getByRole('button', { name: 'Bold' });
    // The toolbar's one stop is its first button; the preview toggle is reached with the arrow keys.
    expect(bold).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('**base** case'));
    // The field has the focus back, the formatted word still selected.
    expect(field).toHaveFocus();
    expect(field.value.slice(field.selectionStart, field.selectionEnd)).toBe('base');

    // Ctrl+I in the field itself.
    field.setSelectionRange(9, 13);
    await user.keyboard('{Control>}i{/Control}');
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('**base** _case_'));

    await user.tab({ shift: true });
    expect(within(toolbar).getByRole('button', { name: 'Bold' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(within(toolbar).getByRole('button', { name: 'Italic' })).toHaveFocus();
    await user.keyboard('{End}');
    const preview = within(toolbar).getByRole('button', { name: 'Preview' });
    expect(preview).toHaveFocus();
    expect(preview).toHaveAttribute('aria-pressed', 'false');
    await user.keyboard(' ');
    expect(preview).toHaveAttribute('aria-pressed', 'true');
    const shown = screen.getByRole('region', { name: 'Preview of your answer to Q1' });
    expect(await within(shown).findByText('base', { selector: 'strong' })).toBeInTheDocument();
    expect(within(shown).getByText('case', { selector: 'em' })).toBeInTheDocument();
    expect(within(toolbar).getByRole('button', { name: 'Bold' })).toBeDisabled();
    expect(screen.getByTestId('word-count-0')).toHaveTextContent('2 words (at most 100)');
  });

  it('makes a bulleted list of the selected lines and a code block of several lines', async () => {
    const { user, fake } = await openExam([essay({ minWords: null, maxWords: null, formatted: true })]);
    const field = await screen.findByRole<HTMLTextAreaElement>('textbox', { name: 'Answer for Q1' });
    await user.type(field, 'one{Enter}two');
    field.setSelectionRange(0, field.value.length);
    await user.click(screen.getByRole('button', { name: 'Bulleted list' }));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('- one\n- two'));
    field.setSelectionRange(0, field.value.length);
    await user.click(screen.getByRole('button', { name: 'Code' }));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('```\n- one\n- two\n```'));
  });
});
