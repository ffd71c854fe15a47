import { TooltipProvider } from '@exam/ui/tooltip';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QuestionSchema, type Question } from '@exam/domain/question';
import { encodeBlanks, encodeMatches, encodeOrder } from '@exam/domain/question-kinds';
import { NO_ANSWER } from '@exam/domain/result';
import { describe, expect, it } from 'vitest';
import { readAnswer, type AnswerView } from '../../lib/read-answer.ts';
import { KINDS_ANSWERS, kindAnswer, makeKindsQuestions } from '../../testing/kinds-factories.ts';
import { PartialCredit, PassageDisclosure, StructuredAnswer } from './structured-answer.tsx';

const questions = makeKindsQuestions();

/** The kinds fixture's answer to question i, laid out as the grader's pages do; `change` edits what the server sent. */
function viewOf(i: number, change: Partial<ReturnType<typeof kindAnswer>> = {}): AnswerView {
  const view = readAnswer(questions[i], { ...kindAnswer(questions[i]!, i, KINDS_ANSWERS[i]), ...change });
  if (!view) throw new Error(`question ${i} has no layout`);
  return view;
}

function renderAnswer(view: AnswerView, points: number | null = null, maxPoints = 2) {
  const user = userEvent.setup({ delay: null });
  render(
    <TooltipProvider delayDuration={0}>
      <StructuredAnswer view={view} />
      <PartialCredit view={view} points={points} maxPoints={maxPoints} testId="partial" />
    </TooltipProvider>,
  );
  return { user };
}

const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.children).map((cell) => cell.textContent));

describe('structured answers as the grader reads them', () => {
  it('shows an ordering beside the right order, each neighbouring pair kept or broken in words', () => {
    renderAnswer(viewOf(0), 2, 3);
    const given = screen.getByRole('list', { name: "Candidate's order" });
    expect(
      within(given)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Hypothesise', 'Experiment', 'Conclude', 'Observe']);
    expect(screen.getAllByTestId('ordering-pair').map((p) => p.textContent)).toEqual([
      '✗wrong Observe, then Hypothesise: broken',
      '✓right Hypothesise, then Experiment: kept',
      '✓right Experiment, then Conclude: kept',
    ]);
    expect(screen.getByTestId('partial')).toHaveTextContent('2 of 3 pairs kept · 2 / 3 points');
  });

  it('tabulates a matching answer: prompt, chosen, right answer and a verdict in words per row', () => {
    renderAnswer(viewOf(1), 1.3333333, 2);
    expect(rowTexts(screen.getByRole('table', { name: 'Matching answer' }))).toEqual([
      ['Prompt', 'Chosen', 'Right answer', 'Result'],
      ['France', 'Paris', 'Paris', '✓right'],
      ['Spain', 'Lisbon', 'Madrid', '✗wrong'],
      ['Italy', 'Rome', 'Rome', '✓right'],
    ]);
    expect(screen.getByTestId('partial')).toHaveTextContent('2 of 3 pairs right · 1.33 / 2 points');
  });

  it('marks a prompt left unanswered as wrong with a dash', () => {
    renderAnswer(
      viewOf(1, {
        answer: 'France → Paris; Spain → —; Italy → Rome',
        answerValue: encodeMatches(['Paris', '', 'Rome']),
        parts: [true, false, true],
      }),
    );
    const spain = screen.getByRole('row', { name: /Spain/ });
    expect(Array.from(spain.children).map((cell) => cell.textContent)).toEqual(['Spain', '—', 'Madrid', '✗wrong']);
  });

  it('highlights each gap as right or wrong in the text, with its accepted answers on focus', async () => {
    const { user } = renderAnswer(viewOf(2), 1.33, 2);
    const text = screen.getByRole('group', { name: 'Answer with its gaps' });
    expect(text).toHaveTextContent('The capital of France is Paris ✓Gap 1: Paris, right, of Spain Barcelona ✗');
    expect(screen.getByTestId('gap-1')).toHaveTextContent('Gap 2: Barcelona, wrong');
    expect(screen.getByTestId('partial')).toHaveTextContent('2 of 3 gaps right · 1.33 / 2 points');

    await user.tab();
    expect(screen.getByTestId('gap-0')).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(screen.getByTestId('gap-2')).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Accepted: Rome, Roma');
    expect(screen.getByTestId('gap-2')).toHaveAccessibleDescription('Accepted: Rome, Roma');
  });

  it('shows a numeric answer, its value in the key’s unit and the key with its tolerance', () => {
    renderAnswer(viewOf(3));
    expect(screen.getByTestId('quantity-given')).toHaveTextContent('12.5 cm = 0.125 m✓right');
    expect(screen.getByTestId('quantity-key')).toHaveTextContent('0.125 m ± 1%');
    expect(screen.queryByTestId('partial')).not.toBeInTheDocument();
  });

  it("shows a calculated question's values for the candidate and a wrong answer as wrong", () => {
    renderAnswer(viewOf(4, { answer: '13', answerValue: '13', correctAnswer: '12', calculatedValues: { b: 4, a: 3 } }));
    expect(screen.getByTestId('quantity-given')).toHaveTextContent('13✗wrong');
    expect(screen.getByTestId('quantity-key')).toHaveTextContent('12 ± 0.01');
    expect(
      within(screen.getByTestId('calculated-values'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['a = 3', 'b = 4.0']);
  });

  it('says a true/false answer in words against the key', () => {
    renderAnswer(viewOf(5));
    expect(screen.getByTestId('true-false-given')).toHaveTextContent('False✗wrong');
    expect(screen.getByText('True')).toBeInTheDocument();
  });

  it('renders a formatted essay as Markdown, with its word count against the limits', async () => {
    renderAnswer(viewOf(6));
    expect(await screen.findByText('Photosynthesis', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByTestId('essay-words')).toHaveTextContent(
      '8 words · limit 5–20 words · Written in the formatted editor',
    );
  });

  it('says when an essay is outside its limits', () => {
    renderAnswer(viewOf(6, { answer: 'Too short.', answerValue: 'Too short.' }));
    expect(screen.getByTestId('essay-words')).toHaveTextContent('2 words · limit 5–20 words · under the minimum');
    expect(screen.getByTestId('essay-text').tagName).not.toBe('PRE');
  });

  it('shows a plain essay as typed', () => {
    const plain = viewOf(6);
    if (plain.kind !== 'essay') throw new Error('question 7 is an essay');
    renderAnswer({ ...plain, formatted: false, maxWords: 3, minWords: null });
    expect(screen.getByTestId('essay-text').tagName).toBe('PRE');
    expect(screen.getByTestId('essay-words')).toHaveTextContent('8 words · at most 3 words · over the limit');
  });

  it('says an essay left blank is no answer, of no words', () => {
    renderAnswer(viewOf(6, { answer: NO_ANSWER, answerValue: null }));
    expect(screen.getByText('No answer provided')).toBeInTheDocument();
    expect(screen.queryByTestId('essay-text')).not.toBeInTheDocument();
    expect(screen.getByTestId('essay-words')).toHaveTextContent('0 words · limit 5–20 words · under the minimum');
  });

  it("marks the AI suggestion's quote in an essay, showing the text as written", () => {
    render(<StructuredAnswer view={viewOf(6)} quote="turns light" />);
    expect(screen.getByTestId('answer-quote')).toHaveTextContent('turns light');
    expect(screen.getByTestId('essay-text')).toHaveTextContent('**Photosynthesis** turns light');
  });
});

describe('answers whose texts hold the separators of their words', () => {
  const q = (fields: Record<string, unknown>) =>
    QuestionSchema.parse({ id: 'q', title: 'Q', scoring: 'partial', ...fields });
  /** As results-service sends it: the words and the answer as saved. */
  const laidOut = (question: Question, raw: string) => {
    const view = readAnswer(question, kindAnswer(question, 0, raw));
    if (!view) throw new Error('no layout');
    return view;
  };

  it('lists an ordering whose items hold "; 2. " item by item', () => {
    const question = q({ type: 'ordering', items: ['Boil; 2. then stir', 'Pour', 'Serve'] });
    renderAnswer(laidOut(question, encodeOrder(['Serve', 'Boil; 2. then stir', 'Pour'])), 1, 2);
    const given = screen.getByRole('list', { name: "Candidate's order" });
    expect(
      within(given)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Serve', 'Boil; 2. then stir', 'Pour']);
    expect(screen.getByTestId('partial')).toHaveTextContent('1 of 2 pairs kept');
  });

  it('tabulates matching choices that hold "→" and "; " in their own rows', () => {
    const question = q({
      type: 'matching',
      pairs: [
        { prompt: 'A', answer: 'x; B → y' },
        { prompt: 'B', answer: 'z' },
      ],
    });
    renderAnswer(laidOut(question, encodeMatches(['x; B → y', 'x; B → y'])));
    expect(rowTexts(screen.getByRole('table', { name: 'Matching answer' }))).toEqual([
      ['Prompt', 'Chosen', 'Right answer', 'Result'],
      ['A', 'x; B → y', 'x; B → y', '✓right'],
      ['B', 'x; B → y', 'z', '✗wrong'],
    ]);
  });

  it('puts a gap value holding "]" in its own gap', () => {
    const question = q({
      type: 'fill-blanks',
      gapText: 'Index [[1]] then [[2]].',
      blanks: [{ accepted: ['a] then [b'] }, { accepted: ['c'] }],
    });
    renderAnswer(laidOut(question, encodeBlanks(['a] then [b', 'd'])));
    expect(screen.getByTestId('gap-0')).toHaveTextContent('Gap 1: a] then [b, right');
    expect(screen.getByTestId('gap-1')).toHaveTextContent('Gap 2: d, wrong');
    expect(screen.getByTestId('partial')).toHaveTextContent('1 of 2 gaps right');
  });
});

describe('the passage beside a question', () => {
  it('names the passage and opens its text on demand', async () => {
    const user = userEvent.setup({ delay: null });
    render(<PassageDisclosure title="The leaf" content="Leaves are **green**." />);
    const summary = screen.getByText('Passage: The leaf');
    expect(screen.getByTestId('passage')).not.toHaveAttribute('open');
    await user.click(summary);
    expect(screen.getByTestId('passage')).toHaveAttribute('open');
    expect(await screen.findByText('green', { selector: 'strong' })).toBeVisible();
  });

  it('says so when the exam no longer holds the passage', () => {
    render(<PassageDisclosure title="" content={undefined} />);
    expect(screen.getByText('Passage', { selector: 'summary' })).toBeInTheDocument();
    expect(screen.getByText("The passage's text is not on the exam any more.")).toBeInTheDocument();
  });
});
