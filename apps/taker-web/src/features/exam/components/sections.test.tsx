import { SectionMessages } from '@exam/domain/sections';
import type { PublicAiSettings } from '@exam/domain/exam-ai';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeGateway } from '../../../testing/fake-gateway.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const readyAi: PublicAiSettings = {
  enabled: true,
  provider: 'openai',
  model: 'gpt-4o-mini',
  startMessage: 'Hi!',
  copyLLMResponse: true,
  uploadDocuments: false,
  materialNames: [],
  missing: [],
};

/** Two questions without the assistant, then two with it: leaving the first section locks it. */
function twoSectionExam(questionDisplay: 'all' | 'one' = 'all', timeLimitMinutes: number | null = null) {
  return buildPublicExam({
    questionDisplay,
    questionCount: 4,
    aiSettings: readyAi,
    sections: [
      { id: 's1', title: 'On your own', assistant: false, timeLimitMinutes, questionCount: 2 },
      { id: 's2', title: 'With the assistant', assistant: true, timeLimitMinutes: null, questionCount: 2 },
    ],
    questions: [
      buildQuestion({ title: 'Name a prime', sectionId: 's1' }),
      buildQuestion({ title: 'Name a noble gas', sectionId: 's1' }),
      buildQuestion({ title: 'Name a planet', sectionId: 's2' }),
      buildQuestion({ title: 'Name a river', sectionId: 's2' }),
    ],
  });
}

async function openExam(exam = twoSectionExam()) {
  const fake = createFakeResultsService({ exam, attemptId: crypto.randomUUID() });
  const gateway = createFakeGateway();
  server.use(...fake.handlers, ...gateway.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: 'Q1: Name a prime' });
  return { ...view, fake, exam };
}

const nav = () => within(screen.getByRole('navigation', { name: 'Questions' }));
const sectionGroup = (index: number) => screen.getByTestId(`nav-section-${index}`);
const messageBox = () => screen.getByRole('textbox', { name: 'Message the AI assistant' });

async function moveOn(user: ReturnType<typeof renderRoute>['user']) {
  await user.click(screen.getByRole('button', { name: 'Next section' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Next section' });
  expect(dialog).toHaveTextContent(SectionMessages.advanceConfirm);
  await user.click(within(dialog).getByRole('button', { name: 'Move on' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
}

describe('an exam in sections', () => {
  it('groups the navigation by section, shows only the sections reached, and moves on after asking', async () => {
    const { user, fake } = await openExam();
    expect(nav().getByRole('heading', { name: 'Section 1: On your own' })).toBeInTheDocument();
    expect(nav().getByRole('heading', { name: 'Section 2: With the assistant' })).toBeInTheDocument();
    expect(sectionGroup(0)).toHaveAttribute('aria-current', 'step');
    expect(within(sectionGroup(0)).getAllByRole('button')).toHaveLength(2);
    // The next section's questions are not on the page yet; the navigation says how many there will be.
    expect(within(sectionGroup(1)).queryAllByRole('button')).toHaveLength(0);
    expect(sectionGroup(1)).toHaveTextContent('Not started');
    expect(sectionGroup(1)).toHaveTextContent('2 questions');
    expect(screen.queryByRole('heading', { name: 'Q3: Name a planet' })).not.toBeInTheDocument();
    expect(screen.getByTestId('current-section')).toHaveTextContent('Section 1: On your own (1 of 2)');
    expect(screen.getByTestId('answered-count')).toHaveTextContent('Answered: 0/4');

    // The assistant is off here, and says so.
    expect(await screen.findByTestId('assistant-off-notice')).toHaveTextContent(SectionMessages.assistantOff);
    expect(messageBox()).toBeDisabled();

    await user.type(screen.getByLabelText('Answer for Q1'), '7');
    // Cancel stays.
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    await user.click(await screen.findByRole('button', { name: 'Stay in this section' }));
    expect(fake.state.advanceBodies).toEqual([]);

    await moveOn(user);
    expect(fake.state.advanceBodies).toEqual([{ from: 0 }]);
    // What was typed was sent before the section locked.
    expect(fake.state.answers.get(0)?.answer).toBe('7');
    expect(await screen.findByRole('heading', { name: 'Q3: Name a planet' })).toBeInTheDocument();
    expect(sectionGroup(1)).toHaveAttribute('aria-current', 'step');
    expect(sectionGroup(0)).toHaveTextContent('Locked');
    expect(screen.queryByRole('button', { name: 'Next section' })).not.toBeInTheDocument();

    // The locked section reads as it stands and takes no change.
    const q1 = screen.getByTestId('question-0');
    expect(within(q1).getByTestId('section-locked-notice')).toHaveTextContent(SectionMessages.locked);
    expect(within(q1).getByLabelText('Answer for Q1')).toHaveValue('7');
    expect(within(q1).getByLabelText('Answer for Q1')).toBeDisabled();
    expect(within(screen.getByTestId('question-2')).queryByTestId('section-locked-notice')).not.toBeInTheDocument();

    // The assistant is back.
    await waitFor(() => expect(messageBox()).toBeEnabled());
    expect(screen.queryByTestId('assistant-off-notice')).not.toBeInTheDocument();
  });

  it("keeps the candidate's text on screen when the server refuses a save for a locked section", async () => {
    const { user, fake } = await openExam();
    // The server has moved on (another tab, the section's time) while this page still shows section 1.
    fake.state.section = { ...fake.state.section!, current: 1, locked: [0], assistant: true };
    await user.type(screen.getByLabelText('Answer for Q2'), 'Neon');
    expect(await screen.findByText(`Q2: ${SectionMessages.locked}`)).toBeInTheDocument();
    expect(fake.state.answers.has(1)).toBe(false);
    // The page reads where the attempt is: section 2, with section 1 read-only and the text still there.
    expect(await screen.findByRole('heading', { name: 'Q3: Name a planet' })).toBeInTheDocument();
    const q2 = screen.getByTestId('question-1');
    expect(within(q2).getByLabelText('Answer for Q2')).toHaveValue('Neon');
    expect(within(q2).getByTestId('section-locked-notice')).toBeInTheDocument();
  });

  it("moves on by itself when the section's own time runs out", async () => {
    const exam = twoSectionExam('all', 30);
    const fake = createFakeResultsService({ exam, attemptId: crypto.randomUUID() });
    fake.state.section = { ...fake.state.section!, deadline: new Date(Date.now() + 1500).toISOString() };
    server.use(...fake.handlers, ...createFakeGateway().handlers);
    await seedAttempt(exam, fake.attemptId);
    renderRoute(`/exam/${exam.id}`);
    await screen.findByRole('heading', { name: 'Q1: Name a prime' });
    expect(screen.getByRole('timer', { name: 'Time left in this section' })).toHaveTextContent(/^0:0[0-2]$/);
    expect(await screen.findByText(SectionMessages.timeUp, {}, { timeout: 4000 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Q3: Name a planet' })).toBeInTheDocument();
    expect(sectionGroup(1)).toHaveAttribute('aria-current', 'step');
    expect(screen.queryByRole('timer', { name: 'Time left in this section' })).not.toBeInTheDocument();
  });

  it('shows one question at a time across the sections, a locked one read-only', async () => {
    const { user } = await openExam(twoSectionExam('one'));
    expect(screen.getByTestId('question-position')).toHaveTextContent('Question 1 of 2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Q2: Name a noble gas' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    await moveOn(user);
    // The move lands on the new section's first question.
    await waitFor(() => expect(screen.getByTestId('question-position')).toHaveTextContent('Question 3 of 4'));
    expect(screen.getByRole('heading', { name: 'Q3: Name a planet' })).toBeInTheDocument();
    await user.click(nav().getByRole('button', { name: 'Question 1, not answered' }));
    expect(await screen.findByTestId('section-locked-notice')).toBeInTheDocument();
    expect(screen.getByLabelText('Answer for Q1')).toBeDisabled();
  });

  describe("in the creator's preview", () => {
    afterEach(() => {
      sessionStorage.clear();
      window.history.replaceState(null, '', '/');
    });

    it('shows the sections and moves on within the page, asking the server nothing', async () => {
      // The creator's exam lists the questions in any order: the preview puts them in section order.
      const exam = twoSectionExam();
      const [q1, q2, q3, q4] = exam.questions;
      const draft = { ...exam, id: 'draft-s', questions: [q3!, q1!, q4!, q2!] };
      let other = 0;
      server.use(
        http.get('/api/public/exams/:id/preview', () => HttpResponse.json(draft)),
        http.all('/api/attempts*', () => (other++, HttpResponse.json({}))),
        http.all('/api/llm/*', () => (other++, HttpResponse.json({}))),
      );
      window.history.replaceState(null, '', '/exam/draft-s/preview#token=preview-jwt');
      const { user } = renderRoute('/exam/draft-s/preview');
      expect(await screen.findByRole('heading', { name: 'Q1: Name a prime' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Q2: Name a noble gas' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: /Name a planet/ })).not.toBeInTheDocument();
      expect(screen.getByTestId('assistant-off-notice')).toHaveTextContent(SectionMessages.assistantOff);

      await moveOn(user);
      expect(await screen.findByRole('heading', { name: 'Q3: Name a planet' })).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'Q4: Name a river' })).toBeInTheDocument();
      expect(sectionGroup(1)).toHaveAttribute('aria-current', 'step');
      expect(within(screen.getByTestId('question-0')).getByTestId('section-locked-notice')).toBeInTheDocument();
      expect(screen.queryByTestId('assistant-off-notice')).not.toBeInTheDocument();
      expect(other).toBe(0);
    });
  });
});
