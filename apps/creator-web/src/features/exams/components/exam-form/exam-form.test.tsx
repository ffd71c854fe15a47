import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

type WrittenBody = {
  title: string;
  isDraft?: boolean;
  isLive?: boolean;
  questions: Array<Record<string, unknown>>;
  aiSettings: Record<string, unknown>;
};
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;

describe('exam editor', () => {
  it('keeps Publish Exam disabled while the title is blank or only spaces', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    const publish = await screen.findByRole('button', { name: 'Publish Exam' });
    expect(publish).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save as Draft' })).toBeEnabled();
    await user.type(screen.getByLabelText('Exam Title'), '   ');
    expect(publish).toBeDisabled();
    await user.type(screen.getByLabelText('Exam Title'), 'Geography');
    expect(publish).toBeEnabled();
  });

  it('sends the text of the marked MCQ option as correctAnswer, following later edits', async () => {
    seedExams();
    signInAs();
    const { user, router } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Capitals');
    await user.click(screen.getByRole('button', { name: 'Add MCQ' }));
    expect(screen.getByLabelText('Question 1 title')).toHaveAttribute('placeholder', 'Question 1');
    expect(screen.getByLabelText('Question 1 option 1')).toHaveValue('Option A');
    const option2 = screen.getByLabelText('Question 1 option 2');
    await user.clear(option2);
    await user.type(option2, 'Paris');
    const group = screen.getByRole('radiogroup', { name: 'Question 1 correct option' });
    await user.click(within(group).getByRole('radio', { name: 'Option 2 of question 1 is correct' }));
    await user.type(option2, ', France');
    await user.click(screen.getByRole('button', { name: 'Publish Exam' }));
    expect(await screen.findByText('Exam published successfully')).toBeInTheDocument();
    const body = lastBody();
    expect(body.isDraft).toBe(false);
    expect(body.questions[0]).toMatchObject({
      type: 'mcq',
      title: 'Question 1',
      options: ['Option A', 'Paris, France', 'Option C', 'Option D'],
      correctAnswer: 'Paris, France',
    });
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/creator/exam-published/${examStore.exams[0]?.id}`),
    );
    expect(await screen.findByRole('heading', { name: 'Exam Published!' })).toBeInTheDocument();
  });

  it('saves a draft with the timer and short-answer keys, then returns to the dashboard', async () => {
    seedExams();
    signInAs();
    const { user, router } = renderApp('/creator/new-exam');
    await user.click(await screen.findByRole('switch', { name: 'Enable Timer' }));
    const minutes = screen.getByLabelText('Duration (minutes)');
    await user.clear(minutes);
    await user.type(minutes, '45');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    await user.click(screen.getByRole('button', { name: 'Question 1 add accepted answer' }));
    await user.type(screen.getByLabelText('Question 1 accepted answer 1'), 'O(n log n)');
    await user.type(screen.getByLabelText('Question 1 topic'), 'Sorting');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody()).toMatchObject({
      isDraft: true,
      timerEnabled: true,
      timerMinutes: 45,
      questions: [{ type: 'short-answer', topic: 'Sorting', acceptedAnswers: ['O(n log n)'] }],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/dashboard'), { timeout: 3000 });
  });

  it('shows a server validation issue next to its field and keeps what was typed', async () => {
    seedExams();
    server.use(
      http.post('*/api/exams', () =>
        HttpResponse.json(
          errorBody('VALIDATION', 'questions.0.title: Too long', [
            { path: 'questions.0.title', message: 'Title is too long' },
          ]),
          { status: 400 },
        ),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Physics');
    await user.click(screen.getByRole('button', { name: 'Add File Upload' }));
    await user.type(screen.getByLabelText('Question 1 title'), 'Upload your lab report');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Title is too long')).toBeInTheDocument();
    expect(screen.getByText('Please fix the highlighted fields.')).toBeInTheDocument();
    expect(screen.getByLabelText('Exam Title')).toHaveValue('Physics');
    expect(screen.getByLabelText('Question 1 title')).toHaveValue('Upload your lab report');
  });

  it('shows only that an API key is set and keeps it when saving untouched', async () => {
    const exam = makeExam({
      title: 'AI Exam',
      isDraft: true,
      aiSettings: { enabled: true, hasApiKey: true, apiKeyLast4: 'wxyz' },
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    expect(await screen.findByRole('heading', { name: 'Edit Draft Exam' })).toBeInTheDocument();
    expect(screen.getByText('Key set (…wxyz)')).toBeInTheDocument();
    expect(screen.queryByLabelText('API Key')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    expect(lastBody().aiSettings).not.toHaveProperty('apiKey');
    expect(lastBody().isDraft).toBe(true);
  });

  it('sends apiKey null after Remove and the new key after Replace', async () => {
    const exam = makeExam({
      title: 'AI Exam',
      isDraft: true,
      aiSettings: { enabled: true, hasApiKey: true, apiKeyLast4: 'wxyz' },
    });
    seedExams(exam);
    signInAs();
    const first = renderApp(`/creator/edit-exam/${exam.id}`);
    await first.user.click(await screen.findByRole('button', { name: 'Remove API key' }));
    expect(screen.getByText('The stored key is deleted when you save.')).toBeInTheDocument();
    await first.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Draft saved successfully');
    expect(lastBody().aiSettings.apiKey).toBeNull();
    first.unmount();

    seedExams(makeExam({ ...exam, aiSettings: { enabled: true, hasApiKey: true, apiKeyLast4: 'wxyz' } }));
    const second = renderApp(`/creator/edit-exam/${exam.id}`);
    await second.user.click(await screen.findByRole('button', { name: 'Replace API key' }));
    await second.user.type(screen.getByLabelText('API Key'), 'sk-new-secret-9876');
    await second.user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Draft saved successfully');
    expect(lastBody().aiSettings.apiKey).toBe('sk-new-secret-9876');
  });

  it('publishes a draft from the edit screen as live', async () => {
    const exam = makeExam({ title: 'Draft to publish', isDraft: true });
    seedExams(exam);
    signInAs();
    const { user, router } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    await user.click(await screen.findByRole('button', { name: 'Publish Exam' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/creator/exam-published/${exam.id}`));
    expect(lastBody()).toMatchObject({ isDraft: false, isLive: true });
  });

  it('updates a published exam without touching its live state', async () => {
    const exam = makeExam({ title: 'Published one', isDraft: false, isLive: true });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=published`);
    expect(await screen.findByRole('heading', { name: 'Edit Published Exam' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Publish Exam' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Update Published Exam' }));
    expect(await screen.findByText('Published exam updated successfully')).toBeInTheDocument();
    expect(lastBody()).not.toHaveProperty('isLive');
    expect(lastBody()).not.toHaveProperty('isDraft');
  });

  it('returns to the dashboard when the exam cannot be loaded', async () => {
    seedExams();
    signInAs();
    const { router } = renderApp('/creator/edit-exam/missing?type=draft');
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/dashboard'));
  });
});
