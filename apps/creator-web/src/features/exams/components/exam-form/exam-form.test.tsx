import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  DEFAULT_EXAM_REQUESTS_PER_HOUR,
  DEFAULT_EXAM_TOKENS_PER_HOUR,
  DEFAULT_GRADING_TOKENS,
} from '@exam/domain/exam-ai';
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

  it('previews an option that uses Markdown or math under it, and leaves plain options alone', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Complexity');
    await user.click(screen.getByRole('button', { name: 'Add MCQ' }));
    expect(screen.queryByRole('region', { name: /option \d preview/ })).toBeNull();
    const option2 = screen.getByLabelText('Question 1 option 2');
    await user.clear(option2);
    await user.type(option2, '**Linear** time');
    const preview = screen.getByRole('region', { name: 'Question 1 option 2 preview' });
    expect(await within(preview).findByText('Linear')).toHaveProperty('tagName', 'STRONG');
    expect(screen.queryByRole('region', { name: 'Question 1 option 1 preview' })).toBeNull();
    await user.clear(option2);
    await user.type(option2, 'Plain again');
    expect(screen.queryByRole('region', { name: 'Question 1 option 2 preview' })).toBeNull();
  });

  it('previews the description, rules and question content as the candidate will see them, live', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Sorting');
    await user.type(screen.getByLabelText('Description'), 'Read **carefully**');
    await user.click(screen.getByLabelText('Rules'));
    await user.paste('No notes <script>alert(1)</script>');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    const preview = screen.getByRole('region', { name: 'Question 1 content preview' });
    expect(preview).toHaveTextContent('Nothing to preview yet.');
    await user.click(screen.getByLabelText('Question 1 content'));
    await user.paste('Cost: $$O(n \\log n)$$\n\n```python\nxs = sorted(ys)\n```');

    const description = screen.getByRole('region', { name: 'Description preview' });
    expect(await within(description).findByText('carefully')).toHaveProperty('tagName', 'STRONG');
    const rules = screen.getByRole('region', { name: 'Rules preview' });
    await waitFor(() => expect(rules).toHaveTextContent('No notes <script>alert(1)</script>'));
    expect(rules.querySelector('script')).toBeNull();
    await waitFor(() =>
      expect(preview.querySelector('pre[data-highlighted="true"]')).toHaveTextContent('xs = sorted(ys)'),
    );
    await waitFor(() => expect(preview.querySelector('.katex annotation')).toHaveTextContent('O(n \\log n)'));

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(examStore.writes.at(-1)?.body).toMatchObject({
      description: 'Read **carefully**',
      rules: 'No notes <script>alert(1)</script>',
      questions: [{ content: 'Cost: $$O(n \\log n)$$\n\n```python\nxs = sorted(ys)\n```' }],
    });
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

  it('saves the exam-wide AI budget the creator sets, starting from the defaults', async () => {
    const exam = makeExam({ title: 'AI Exam', isDraft: true, aiSettings: { enabled: true, hasApiKey: true } });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const messages = await screen.findByLabelText('Messages per Hour (all candidates)');
    const tokens = screen.getByLabelText('Tokens per Hour (all candidates)');
    expect(messages).toHaveValue(DEFAULT_EXAM_REQUESTS_PER_HOUR);
    expect(tokens).toHaveValue(DEFAULT_EXAM_TOKENS_PER_HOUR);
    await user.clear(messages);
    await user.type(messages, '120');
    await user.clear(tokens);
    await user.type(tokens, '250000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    expect(lastBody().aiSettings.budget).toMatchObject({ examRequestsPerHour: 120, examTokensPerHour: 250_000 });
  });

  it('saves the grading budget the creator sets, starting from the default, and explains what it covers', async () => {
    const exam = makeExam({ title: 'AI Exam', isDraft: true, aiSettings: { enabled: true, hasApiKey: true } });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const grading = await screen.findByLabelText('Grading budget (tokens)');
    expect(grading).toHaveValue(DEFAULT_GRADING_TOKENS);
    expect(screen.getByText(/What AI-suggested marks of this exam may spend in all/)).toBeInTheDocument();
    await user.clear(grading);
    await user.type(grading, '1200000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    expect(lastBody().aiSettings.budget).toMatchObject({
      gradingTokens: 1_200_000,
      examTokensPerHour: DEFAULT_EXAM_TOKENS_PER_HOUR,
    });
  });

  it('explains a grading budget that is not a whole number of tokens and saves nothing', async () => {
    const exam = makeExam({ title: 'AI Exam', isDraft: true, aiSettings: { enabled: true, hasApiKey: true } });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const grading = await screen.findByLabelText('Grading budget (tokens)');
    await user.clear(grading);
    await user.type(grading, '2.5');
    const writes = examStore.writes.length;
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Enter a whole number of tokens')).toBeInTheDocument();
    expect(examStore.writes).toHaveLength(writes);
  });

  it('explains an exam-wide budget out of range under its field and saves nothing', async () => {
    const exam = makeExam({ title: 'AI Exam', isDraft: true, aiSettings: { enabled: true, hasApiKey: true } });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=draft`);
    const tokens = await screen.findByLabelText('Tokens per Hour (all candidates)');
    await user.clear(tokens);
    await user.type(tokens, '10');
    const messages = screen.getByLabelText('Messages per Hour (all candidates)');
    await user.clear(messages);
    const writes = examStore.writes.length;
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('At least 1,000 tokens per hour')).toBeInTheDocument();
    expect(screen.getByText('Enter a whole number of messages')).toBeInTheDocument();
    expect(examStore.writes).toHaveLength(writes);
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

  it('round-trips points, multiple answers with partial credit, a numeric tolerance, a rubric and the release settings', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    const choose = async (label: string, option: string, within_: HTMLElement = document.body) => {
      await user.click(within(within_).getByRole('combobox', { name: label }));
      await user.click(await screen.findByRole('option', { name: option }));
    };
    await user.type(await screen.findByLabelText('Exam Title'), 'Scoring');
    await user.click(screen.getByRole('button', { name: 'Add MCQ' }));
    const q1 = screen.getByRole('region', { name: 'Question 1' });
    expect(within(q1).getByText('No key: a grader marks this question')).toBeInTheDocument();
    await user.clear(within(q1).getByLabelText('Points'));
    await user.type(within(q1).getByLabelText('Points'), '2.5');
    await user.click(within(q1).getByLabelText('Several answers are correct'));
    await user.click(within(q1).getByLabelText('Option 1 is correct'));
    await user.click(within(q1).getByLabelText('Option 3 is correct'));
    expect(within(q1).queryByText('No key: a grader marks this question')).not.toBeInTheDocument();
    await choose('Scoring', 'Partial credit', q1);

    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    const q2 = screen.getByRole('region', { name: 'Question 2' });
    await user.click(within(q2).getByRole('button', { name: 'Question 2 add accepted answer' }));
    await user.type(within(q2).getByLabelText('Question 2 accepted answer 1'), '3.14');
    // Case sensitivity is a text answer's option: it goes once the answer is numeric.
    expect(within(q2).getByLabelText('Case-sensitive')).toBeInTheDocument();
    await user.click(within(q2).getByLabelText('Numeric answer'));
    expect(within(q2).queryByLabelText('Case-sensitive')).not.toBeInTheDocument();
    await user.clear(within(q2).getByLabelText('Tolerance'));
    await user.type(within(q2).getByLabelText('Tolerance'), '0.01');
    await choose('Tolerance type', 'Relative', q2);

    await user.click(screen.getByRole('button', { name: 'Add rubric' }));
    await user.type(screen.getByLabelText('Rubric title'), 'Working');
    await user.type(screen.getByLabelText('Criterion description'), 'Shows the steps');
    await user.clear(screen.getByLabelText('Criterion points'));
    await user.type(screen.getByLabelText('Criterion points'), '0.5');
    await choose('Rubric', 'Working', q2);
    await choose('Results for candidates', 'As soon as they are graded');
    await user.click(screen.getByLabelText('Show answer keys in released results'));

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    const body = lastBody() as WrittenBody & { rubrics: Array<{ id: string }> };
    const rubricId = body.rubrics[0]?.id;
    expect(body).toMatchObject({
      releasePolicy: 'immediately',
      showAnswerKeys: true,
      rubrics: [{ title: 'Working', criteria: [{ description: 'Shows the steps', points: 0.5 }] }],
      questions: [
        {
          type: 'mcq',
          points: 2.5,
          multipleAnswers: true,
          correctAnswers: ['Option A', 'Option C'],
          scoring: 'partial',
          rubricId: null,
        },
        {
          type: 'short-answer',
          points: 1,
          acceptedAnswers: ['3.14'],
          matching: { caseSensitive: false, numeric: { tolerance: 0.01, mode: 'relative' } },
          rubricId,
        },
      ],
    });

    const saved = examStore.exams[0]!;
    renderApp(`/creator/edit-exam/${saved.id}?type=draft`);
    const again = await screen.findAllByRole('region', { name: 'Question 1' });
    const edited = again.at(-1)!;
    expect(within(edited).getByLabelText('Points')).toHaveValue(2.5);
    expect(within(edited).getByLabelText('Several answers are correct')).toBeChecked();
    expect(within(edited).getByLabelText('Option 3 is correct')).toBeChecked();
    expect(within(edited).getByRole('combobox', { name: 'Scoring' })).toHaveTextContent('Partial credit');
    const second = (await screen.findAllByRole('region', { name: 'Question 2' })).at(-1)!;
    expect(within(second).getByLabelText('Tolerance')).toHaveValue(0.01);
    expect(within(second).getByRole('combobox', { name: 'Rubric' })).toHaveTextContent('Working');
  });

  it('shows a points error from the domain schema under the Points input', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Bad points');
    await user.click(screen.getByRole('button', { name: 'Add Short Answer' }));
    const q1 = screen.getByRole('region', { name: 'Question 1' });
    await user.clear(within(q1).getByLabelText('Points'));
    await user.type(within(q1).getByLabelText('Points'), '1.234');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await within(q1).findByText('Points have at most two decimals')).toBeInTheDocument();
  });

  it('offers a regrade after updating a published exam when the dry run finds changes, and applies it', async () => {
    const exam = makeExam({ title: 'Published one', isDraft: false, isLive: true });
    seedExams(exam);
    const calls: string[] = [];
    server.use(
      http.post('*/api/exams/:id/regrade', ({ request }) => {
        const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
        calls.push(dryRun ? 'dry-run' : 'apply');
        return HttpResponse.json({
          dryRun,
          results: 5,
          changed: 3,
          up: 2,
          down: 1,
          questions: [
            { questionIndex: 0, title: 'Capitals', changed: 3, up: 2, down: 1 },
            { questionIndex: 1, title: 'Rivers', changed: 0, up: 0, down: 0 },
          ],
          changes: [],
        });
      }),
    );
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=published`);
    await user.click(await screen.findByRole('button', { name: 'Update Published Exam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regrade submissions?' });
    expect(dialog).toHaveTextContent('3 results change: +2 up, −1 down');
    expect(within(dialog).getByText(/Q1 Capitals/)).toBeInTheDocument();
    expect(within(dialog).queryByText(/Rivers/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Apply regrade' }));
    expect(await screen.findByText('Regraded 3 results')).toBeInTheDocument();
    expect(calls).toEqual(['dry-run', 'apply']);
  });

  it('offers a regrade when only coding tests changed: the answers run against the new tests', async () => {
    const exam = makeExam({ title: 'Published one', isDraft: false, isLive: true });
    seedExams(exam);
    server.use(
      http.post('*/api/exams/:id/regrade', ({ request }) => {
        const dryRun = new URL(request.url).searchParams.get('dryRun') === 'true';
        return HttpResponse.json({
          dryRun,
          results: 4,
          testsRerun: 4,
          changed: 0,
          up: 0,
          down: 0,
          questions: [],
          changes: [],
        });
      }),
    );
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=published`);
    await user.click(await screen.findByRole('button', { name: 'Update Published Exam' }));
    const dialog = await screen.findByRole('dialog', { name: 'Regrade submissions?' });
    expect(within(dialog).getByTestId('regrade-tests-rerun')).toHaveTextContent(
      '4 coding answers run against the changed tests again',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Apply regrade' }));
    expect(await screen.findByText('Regraded 0 results; 4 coding answers are being tested again')).toBeInTheDocument();
  });

  it('shows no regrade dialog when the dry run changes nothing', async () => {
    const exam = makeExam({ title: 'Published one', isDraft: false, isLive: true });
    seedExams(exam);
    signInAs();
    const { user } = renderApp(`/creator/edit-exam/${exam.id}?type=published`);
    await user.click(await screen.findByRole('button', { name: 'Update Published Exam' }));
    expect(await screen.findByText('Published exam updated successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Regrade submissions?' })).not.toBeInTheDocument();
  });
});
