import { PlantedErrorMessages } from '@exam/domain/planted-errors';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../../testing/factories.ts';
import { examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';

type WrittenBody = {
  aiSettings: { plantedErrors: { enabled: boolean; share: number } };
  questions: Array<Record<string, unknown>>;
};
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;

async function openWithPlantedErrors() {
  seedExams();
  signInAs();
  const view = renderApp('/creator/new-exam');
  const { user } = view;
  await user.type(await screen.findByLabelText('Exam Title'), 'Reliance');
  await user.click(screen.getByRole('switch', { name: 'Enable AI Assistant' }));
  const toggle = screen.getByRole('switch', { name: 'The assistant is sometimes wrong on purpose' });
  expect(toggle).not.toBeChecked();
  expect(screen.getByText(/The briefing tells candidates so before they start/)).toBeInTheDocument();
  return { ...view, toggle };
}

describe('exam editor: planted errors', () => {
  it('turns planted errors on with their share, and offers only the wrong options of a keyed MCQ', async () => {
    const { user, toggle } = await openWithPlantedErrors();
    await user.click(screen.getByRole('button', { name: 'Add MCQ' }));
    // Off: no planted-error field on any question.
    expect(screen.queryByRole('combobox', { name: 'Question 1 planted error' })).not.toBeInTheDocument();
    await user.click(toggle);
    const share = screen.getByLabelText('Share of assistant turns with the error (%)');
    expect(share).toHaveValue(30);
    await user.clear(share);
    await user.type(share, '50');
    // Not keyed yet: nothing to plant.
    expect(screen.queryByRole('combobox', { name: 'Question 1 planted error' })).not.toBeInTheDocument();
    const group = screen.getByRole('radiogroup', { name: 'Question 1 correct option' });
    await user.click(within(group).getByRole('radio', { name: 'Option 2 of question 1 is correct' }));

    await user.click(screen.getByRole('combobox', { name: 'Question 1 planted error' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['None', 'Option A', 'Option C', 'Option D']);
    await user.click(within(listbox).getByRole('option', { name: 'Option C' }));

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody().aiSettings.plantedErrors).toEqual({ enabled: true, share: 0.5 });
    expect(lastBody().questions[0]).toMatchObject({ correctAnswer: 'Option B', plantedError: 'Option C' });
  }, 60_000);

  it("takes a short answer's wrong value and shows the domain's message when it is one the key accepts", async () => {
    const { user, toggle } = await openWithPlantedErrors();
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    await user.click(screen.getByRole('button', { name: 'Question 1 add accepted answer' }));
    await user.type(screen.getByLabelText('Question 1 accepted answer 1'), '42');
    const field = screen.getByRole('textbox', { name: 'Question 1 planted error' });
    await user.type(field, ' 4 2');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText(PlantedErrorMessages.isCorrect)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(examStore.writes).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '24');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody().questions[0]).toMatchObject({ acceptedAnswers: ['42'], plantedError: '24' });
  }, 60_000);
});
