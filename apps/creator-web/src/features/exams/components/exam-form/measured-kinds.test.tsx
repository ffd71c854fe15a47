import { drawValues } from '@exam/domain/calculated';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { examStore } from '../../../../testing/handlers.ts';
import { addQuestionOfType, lastQuestions, openNewExam, saveDraft } from '../../../../testing/exam-editor.ts';

describe('exam editor: fill in the blanks', { timeout: 120_000 }, () => {
  it('inserts [[n]] at the cursor with its gap, keys a text and a drop-down gap, and saves them', async () => {
    const { user } = await openNewExam('Gaps');
    await addQuestionOfType(user, 'Fill in the blanks');
    const text = screen.getByLabelText('Question 1 text with gaps');
    // No text gap yet: letter case has nothing to apply to.
    expect(screen.queryByLabelText('Question 1 gaps are case-sensitive')).not.toBeInTheDocument();
    await user.type(text, 'The capital of  is Paris.');
    // The cursor between the two spaces: the gap goes there, not at the end.
    (text as HTMLTextAreaElement).setSelectionRange(15, 15);
    await user.click(screen.getByRole('button', { name: 'Question 1 insert gap' }));
    expect(text).toHaveValue('The capital of [[1]] is Paris.');
    await waitFor(() => expect(text).toHaveFocus());
    await user.type(screen.getByLabelText('Question 1 gap 1 accepted answer 1'), 'France');

    await user.click(text);
    await user.keyboard('{End}');
    await user.type(text, ' It lies on the ');
    await user.click(screen.getByRole('button', { name: 'Question 1 insert gap' }));
    expect(text).toHaveValue('The capital of [[1]] is Paris. It lies on the [[2]]');
    const gap2 = screen.getByRole('region', { name: 'Question 1 gap 2' });
    await user.click(within(gap2).getByRole('combobox', { name: 'Gap 2 kind' }));
    await user.click(await screen.findByRole('option', { name: 'Drop-down' }));
    await user.type(screen.getByLabelText('Question 1 gap 2 option 1'), 'Seine');
    await user.type(screen.getByLabelText('Question 1 gap 2 option 2'), 'Thames');
    await saveDraft(user);
    // No option ticked yet: the domain's rule shows on the gap.
    expect(await within(gap2).findByText('A gap needs at least one accepted answer')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Option 1 of gap 2 of question 1 is right'));
    await user.click(screen.getByLabelText('Question 1 gaps are case-sensitive'));
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'fill-blanks',
      gapText: 'The capital of [[1]] is Paris. It lies on the [[2]]',
      blanks: [
        { kind: 'text', accepted: ['France'], options: [], weight: 1 },
        { kind: 'choice', accepted: ['Seine'], options: ['Seine', 'Thames'], weight: 1 },
      ],
      matching: { caseSensitive: true },
    });
  });

  it('says which marker has no gap, and removing a gap renumbers the later markers', async () => {
    const { user } = await openNewExam('Gaps');
    await addQuestionOfType(user, 'Fill in the blanks');
    const text = screen.getByLabelText('Question 1 text with gaps');
    await user.click(screen.getByRole('button', { name: 'Question 1 insert gap' }));
    // Back in the text, just after the marker.
    await waitFor(() => expect(text).toHaveFocus());
    await user.type(text, ' and ');
    await user.click(screen.getByRole('button', { name: 'Question 1 insert gap' }));
    expect(text).toHaveValue('[[1]] and [[2]]');
    await user.click(screen.getByRole('button', { name: 'Remove gap 1 of question 1' }));
    expect(text).toHaveValue(' and [[1]]');
    // '[[' types one '[' (user-event's key syntax).
    await user.type(text, ' [[[[3]]');
    await saveDraft(user);
    expect(await screen.findByText('[[3]] has no gap: add gap 3')).toBeInTheDocument();
  });
});

describe('exam editor: numeric and calculated', { timeout: 120_000 }, () => {
  it('keys a numeric value with a tolerance shown as value ± tolerance, and units', async () => {
    const { user } = await openNewExam('Measures');
    await addQuestionOfType(user, 'Numeric');
    await user.type(screen.getByLabelText('Question 1 right value 1'), '3.14');
    const tolerance = screen.getByLabelText('Question 1 tolerance');
    await user.clear(tolerance);
    await user.type(tolerance, '0.01');
    expect(screen.getByText('Accepted: 3.14 ± 0.01')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Question 1 add unit' }));
    await user.type(screen.getByLabelText('Question 1 unit 1 symbol'), 'm');
    await user.click(screen.getByRole('button', { name: 'Question 1 add unit' }));
    await user.type(screen.getByLabelText('Question 1 unit 2 symbol'), 'cm');
    const multiplier1 = screen.getByLabelText('Question 1 unit 1 multiplier');
    await user.clear(multiplier1);
    await user.type(multiplier1, '1000');
    const multiplier2 = screen.getByLabelText('Question 1 unit 2 multiplier');
    await user.clear(multiplier2);
    await user.type(multiplier2, '100');
    await user.click(screen.getByLabelText('Question 1: the answer must name a unit'));
    await saveDraft(user);
    expect(await screen.findByText('One unit has multiplier 1: the unit the answer is keyed in')).toBeInTheDocument();

    await user.clear(multiplier1);
    await user.type(multiplier1, '1');
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({
      type: 'numeric',
      acceptedAnswers: ['3.14'],
      matching: { numeric: { tolerance: 0.01, mode: 'absolute' } },
      units: {
        units: [
          { symbol: 'm', multiplier: 1 },
          { symbol: 'cm', multiplier: 100 },
        ],
        required: true,
      },
    });
  });

  it('checks the formula as it is typed and shows sample values drawn as the server draws them', async () => {
    const { user } = await openNewExam('Variants');
    await addQuestionOfType(user, 'Calculated');
    await user.type(screen.getByLabelText('Question 1 title'), 'Area of a {{x} by {{y} rectangle');
    await user.click(screen.getByRole('button', { name: 'Question 1 add variable' }));
    const formula = screen.getByLabelText('Question 1 formula');
    await user.type(formula, 'x * z');
    expect(screen.getByText(/Unknown variable "z"|"z"/)).toBeInTheDocument();
    expect(screen.getByText('Samples show once the variables and the formula are right.')).toBeInTheDocument();

    await user.clear(formula);
    await user.type(formula, 'x * y');
    const samples = screen.getByRole('region', { name: 'Question 1 sample values' });
    const calculated = {
      formula: 'x * y',
      variables: [
        { name: 'x', min: 1, max: 10, decimals: 0 },
        { name: 'y', min: 1, max: 10, decimals: 0 },
      ],
      answerDecimals: null,
      values: null,
    };
    const first = drawValues({ calculated }, 'preview-1')!;
    expect(within(samples).getByTestId('calculated-sample-0-0')).toHaveTextContent(
      `x = ${first.values.x}, y = ${first.values.y} → key ${first.key}`,
    );
    expect(within(samples).getByTestId('calculated-sample-0-0')).toHaveTextContent(
      `Area of a ${first.values.x} by ${first.values.y} rectangle`,
    );
    await saveDraft(user);
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastQuestions()[0]).toMatchObject({ type: 'calculated', calculated, units: { units: [], required: false } });
  });
});
