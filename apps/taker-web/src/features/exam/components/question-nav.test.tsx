import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOUCH_ONLY_QUERY } from '../../../lib/use-touch-only.ts';
import { findQuestionFlags, getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const fourQuestions = (questionDisplay: 'all' | 'one') =>
  buildPublicExam({
    questionDisplay,
    questionCount: 4,
    questions: [
      buildQuestion({ type: 'mcq', title: 'Pick a prime', options: ['4', '7'] }),
      buildQuestion({ title: 'Name the capital of France' }),
      buildQuestion({ title: 'Name a noble gas' }),
      buildQuestion({ title: 'Name a planet' }),
    ],
  });

async function openExam(questionDisplay: 'all' | 'one' = 'all') {
  const exam = fourQuestions(questionDisplay);
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: 'Q1: Pick a prime' });
  return { ...view, fake, exam };
}

const nav = () => within(screen.getByRole('navigation', { name: 'Questions' }));
const navButtons = () => nav().getAllByRole('button');
const section = (index: number) => screen.getByTestId(`question-${index}`);

describe('question navigation', () => {
  it("names each question's state in words and marks the current one", async () => {
    const { user } = await openExam();
    expect(navButtons().map((b) => b.getAttribute('aria-label'))).toEqual([
      'Question 1, not answered',
      'Question 2, not answered',
      'Question 3, not answered',
      'Question 4, not answered',
    ]);
    expect(navButtons()[0]).toHaveAttribute('aria-current', 'true');

    await user.type(screen.getByLabelText('Answer for Q2'), 'Paris');
    await user.click(within(section(2)).getByRole('button', { name: 'Mark for review' }));
    expect(within(section(2)).getByRole('button', { name: 'Mark for review' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(section(2)).getByText('For review')).toBeInTheDocument();
    expect(nav().getByRole('button', { name: 'Question 2, answered' })).toBeInTheDocument();
    expect(nav().getByRole('button', { name: 'Question 3, not answered, marked for review' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(navButtons()[0]).not.toHaveAttribute('aria-current');
    expect(screen.getByTestId('question-nav-summary')).toHaveTextContent('1 of 4 answered');
    expect(screen.getByTestId('question-nav-summary')).toHaveTextContent('1 marked for review');
  });

  it('takes the candidate to the question whose number they click and focuses it', async () => {
    const { user } = await openExam();
    await user.click(nav().getByRole('button', { name: 'Question 4, not answered' }));
    await waitFor(() => expect(document.activeElement).toBe(section(3)));
    expect(nav().getByRole('button', { name: 'Question 4, not answered' })).toHaveAttribute('aria-current', 'true');
  });

  it('keeps the marks for review of the attempt through a reload', async () => {
    const { user, unmount, fake, exam } = await openExam();
    await user.click(within(section(0)).getByRole('button', { name: 'Mark for review' }));
    await user.click(within(section(2)).getByRole('button', { name: 'Mark for review' }));
    await user.click(within(section(0)).getByRole('button', { name: 'Mark for review' }));
    await waitFor(async () => expect(await findQuestionFlags(await getTakerDb(), fake.attemptId)).toEqual([2]));

    unmount();
    renderRoute(`/exam/${exam.id}`);
    await screen.findByRole('heading', { name: 'Q1: Pick a prime' });
    expect(
      await screen.findByRole('button', { name: 'Question 3, not answered, marked for review' }),
    ).toBeInTheDocument();
    expect(within(section(2)).getByRole('button', { name: 'Mark for review' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(section(0)).getByRole('button', { name: 'Mark for review' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    // A candidate's own reminder: nothing about it reaches the server.
    expect(fake.state.putCalls).toBe(0);
  });

  it('lists the questions marked for review in the submit dialog, with links to them', async () => {
    const { user } = await openExam();
    await user.type(screen.getByLabelText('Answer for Q2'), 'Paris');
    await user.click(within(section(1)).getByRole('button', { name: 'Mark for review' }));
    await user.click(within(section(3)).getByRole('button', { name: 'Mark for review' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Submit exam?' });
    const marked = within(dialog).getByRole('navigation', { name: 'Questions marked for review' });
    expect(marked).toHaveTextContent('2 questions marked for review:');
    expect(
      within(marked)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Q2: Name the capital of France', 'Q4: Name a planet']);
    await user.click(within(marked).getByRole('link', { name: 'Q2: Name the capital of France' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Answer for Q2')));
  });
});

describe('one question at a time', () => {
  it('shows only the current question with its position, and Previous and Next move between them', async () => {
    const { user } = await openExam('one');
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 1 of 4');
    expect(screen.queryByRole('heading', { name: 'Q2: Name the capital of France' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toHaveAttribute('aria-keyshortcuts', 'Alt+PageDown');
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveAttribute('aria-keyshortcuts', 'Alt+PageUp');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Q2: Name the capital of France' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Q1: Pick a prime' })).not.toBeInTheDocument();
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 2 of 4');
    await waitFor(() => expect(document.activeElement).toBe(section(1)));

    await user.click(nav().getByRole('button', { name: 'Question 4, not answered' }));
    expect(await screen.findByRole('heading', { name: 'Q4: Name a planet' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await waitFor(() => expect(document.activeElement).toBe(section(3)));
  });

  it('loses nothing typed when the candidate moves away and back, and sends it', async () => {
    const { user, fake } = await openExam('one');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('Answer for Q2'), 'Paris');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByLabelText('Answer for Q3')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByLabelText('Answer for Q2')).toHaveValue('Paris');
    await waitFor(() => expect(fake.state.answers.get(1)?.answer).toBe('Paris'));
    expect(nav().getByRole('button', { name: 'Question 2, answered' })).toBeInTheDocument();
  });

  it('switches the question with Alt+Page Down and Alt+Page Up while typing, leaving the text as typed', async () => {
    const { user } = await openExam('one');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const answer = await screen.findByLabelText('Answer for Q2');
    await user.type(answer, 'Lyon');
    await user.keyboard('{Alt>}{PageDown}{/Alt}');
    expect(await screen.findByRole('heading', { name: 'Q3: Name a noble gas' })).toBeInTheDocument();
    await user.keyboard('{Alt>}{PageUp}{/Alt}');
    expect(await screen.findByLabelText('Answer for Q2')).toHaveValue('Lyon');
    // Page Down alone is the textarea's own key, not a shortcut.
    await user.click(screen.getByLabelText('Answer for Q2'));
    await user.keyboard('{PageDown}');
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 2 of 4');
  });

  it("the submit dialog's link shows that question and puts the candidate in its answer", async () => {
    const { user } = await openExam('one');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('link', { name: 'Q4: Name a planet' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('heading', { name: 'Q4: Name a planet' })).toBeInTheDocument();
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 4 of 4');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Answer for Q4')));
  });

  it('ignores the shortcuts while a dialog is open', async () => {
    const { user } = await openExam('one');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByRole('alertdialog');
    await user.keyboard('{Alt>}{PageDown}{/Alt}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 1 of 4');
  });
});

describe('the shortcuts with every question on the page', () => {
  it('move focus to the next and previous question', async () => {
    const { user } = await openExam('all');
    await user.click(screen.getByLabelText('Answer for Q2'));
    await user.keyboard('{Alt>}{PageDown}{/Alt}');
    await waitFor(() => expect(document.activeElement).toBe(section(2)));
    await user.keyboard('{Alt>}{PageUp}{/Alt}{Alt>}{PageUp}{/Alt}');
    await waitFor(() => expect(document.activeElement).toBe(section(0)));
    expect(screen.getByTestId('question-shortcut-hint')).toHaveTextContent('Alt + Page Down');
  });
});

describe('keyboard hints on a touch device', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('leave out the shortcut hint where the primary pointer is a finger', async () => {
    // A phone: only the touch-only query matches (the room's narrow layout too, as a 390 px window would).
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === TOUCH_ONLY_QUERY,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    await openExam('all');
    await screen.findByLabelText('Answer for Q2');
    expect(screen.queryByTestId('question-shortcut-hint')).not.toBeInTheDocument();
  });
});
