import { DEFAULT_FOLLOW_UP, type FollowUpSettings } from '@exam/domain/follow-up';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

type WrittenBody = { aiSettings: { followUp: FollowUpSettings } };
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;

const settings = () => screen.getByRole('group', { name: 'Follow-up questions after submit' });
const time = () => within(settings()).getByRole('group', { name: 'Time per question' });
const minutes = () => within(time()).getByLabelText('minutes');
const seconds = () => within(time()).getByLabelText('seconds');

function openSavedExam(followUp: FollowUpSettings) {
  const exam = makeExam({ title: 'Viva', isDraft: true, aiSettings: { enabled: true, hasApiKey: true, followUp } });
  seedExams(exam);
  signInAs();
  return { exam, ...renderApp(`/creator/edit-exam/${exam.id}?type=draft`) };
}

describe('exam editor: follow-up questions after submit', () => {
  it('starts off, shows the defaults when turned on, and sends them with the new exam', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Viva');
    // Part of the assistant's settings: nothing to set while the assistant is off.
    expect(screen.queryByRole('switch', { name: 'Ask follow-up questions after submit' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Enable AI Assistant' }));
    const toggle = screen.getByRole('switch', { name: 'Ask follow-up questions after submit' });
    expect(toggle).not.toBeChecked();
    expect(within(settings()).getByText(/only work while the assistant is on/)).toBeInTheDocument();
    expect(within(settings()).queryByLabelText('Number of questions')).not.toBeInTheDocument();

    await user.click(toggle);
    expect(within(settings()).getByLabelText('Number of questions')).toHaveValue(2);
    expect(minutes()).toHaveValue(3);
    expect(seconds()).toHaveValue(0);
    expect(within(settings()).getByLabelText('Level 1 label')).toHaveValue('Explains their answer correctly and fully');
    expect(within(settings()).getByLabelText('Level 3 points')).toHaveValue(0);
    expect(within(settings()).getByText(/shown beside the exam's score and are not added to it/)).toBeInTheDocument();
    expect(within(settings()).getByText(/cannot be reached, the follow-up is skipped/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody().aiSettings.followUp).toEqual({ ...DEFAULT_FOLLOW_UP, enabled: true });
  }, 60_000);

  it("loads the exam's follow-up settings and saves the creator's changes with the exam (PUT)", async () => {
    const { exam, user } = openSavedExam({
      enabled: true,
      questions: 3,
      secondsPerQuestion: 150,
      rubric: [
        { label: 'Full', points: 3 },
        { label: 'Partial', points: 1 },
        { label: 'None', points: 0 },
      ],
    });
    const count = await within(await screen.findByTestId('follow-up-settings')).findByLabelText('Number of questions');
    expect(count).toHaveValue(3);
    expect(minutes()).toHaveValue(2);
    expect(seconds()).toHaveValue(30);

    await user.clear(count);
    await user.type(count, '4');
    await user.clear(minutes());
    await user.type(minutes(), '4');
    await user.clear(seconds());
    await user.type(seconds(), '15');
    await user.click(screen.getByRole('button', { name: 'Remove level 2' }));
    await user.click(screen.getByRole('button', { name: 'Add level' }));
    await user.type(screen.getByLabelText('Level 3 label'), 'Did not answer');
    const points = screen.getByLabelText('Level 1 points');
    await user.clear(points);
    await user.type(points, '2.5');

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Draft saved successfully')).toBeInTheDocument();
    const write = examStore.writes.at(-1);
    expect(write).toMatchObject({ method: 'PUT', path: `/api/exams/${exam.id}` });
    expect(lastBody().aiSettings.followUp).toEqual({
      enabled: true,
      questions: 4,
      secondsPerQuestion: 255,
      rubric: [
        { label: 'Full', points: 2.5 },
        { label: 'None', points: 0 },
        { label: 'Did not answer', points: 0 },
      ],
    });
    // What the server kept is what the editor shows next time.
    expect(examStore.exams[0]?.aiSettings.followUp.secondsPerQuestion).toBe(255);
  }, 60_000);

  it('explains out-of-range settings and unnamed levels under their fields and saves nothing', async () => {
    const { user } = openSavedExam({ ...DEFAULT_FOLLOW_UP, enabled: true });
    const count = await within(await screen.findByTestId('follow-up-settings')).findByLabelText('Number of questions');
    await user.clear(count);
    await user.type(count, '6');
    await user.clear(minutes());
    await user.type(minutes(), '0');
    await user.clear(seconds());
    await user.type(seconds(), '20');
    await user.clear(screen.getByLabelText('Level 2 label'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await within(settings()).findByText('At most 5 questions')).toBeInTheDocument();
    expect(count).toHaveAttribute('aria-invalid', 'true');
    expect(within(time()).getByRole('alert')).toHaveTextContent('At least 30 seconds');
    expect(seconds()).toHaveAttribute('aria-invalid', 'true');
    expect(within(settings()).getByText('Name the level')).toBeInTheDocument();
    expect(screen.getByLabelText('Level 2 label')).toHaveAttribute('aria-invalid', 'true');
    expect(examStore.writes).toHaveLength(0);
  }, 60_000);

  it('keeps the rubric between 2 and 6 levels', async () => {
    const { user } = openSavedExam({ ...DEFAULT_FOLLOW_UP, enabled: true });
    const add = await screen.findByRole('button', { name: 'Add level' });
    await user.click(add);
    await user.click(add);
    await user.click(add);
    expect(screen.getByLabelText('Level 6 label')).toBeInTheDocument();
    expect(add).toBeDisabled();
    for (const n of [6, 5, 4, 3]) await user.click(screen.getByRole('button', { name: `Remove level ${n}` }));
    expect(screen.queryByLabelText('Level 3 label')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove level 1' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove level 2' })).toBeDisabled();
  }, 60_000);

  it("marks the field the service's 400 names", async () => {
    const { user } = openSavedExam({ ...DEFAULT_FOLLOW_UP, enabled: true });
    server.use(
      http.put('*/api/exams/:id', () =>
        HttpResponse.json(
          errorBody('VALIDATION_FAILED', 'Invalid request', [
            { path: 'body.aiSettings.followUp.rubric.1.points', message: 'At most 100 points' },
          ]),
          { status: 400 },
        ),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(await within(settings()).findByText('At most 100 points')).toBeInTheDocument();
    expect(screen.getByLabelText('Level 2 points')).toHaveAttribute('aria-invalid', 'true');
  }, 60_000);
});
