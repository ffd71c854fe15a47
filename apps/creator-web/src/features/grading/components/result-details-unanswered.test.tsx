import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeQuestionAnswer, makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });

describe('unanswered questions in the grader', () => {
  it('marks a question scored 0 for being unanswered, automatically or by a bulk action, apart from a key’s 0', async () => {
    const detail = makeResultDetail({
      status: 'graded',
      pendingCount: 0,
      score: 0,
      maxScore: 3,
      questionAnswers: [
        makeQuestionAnswer({ questionIndex: 0, questionType: 'mcq', points: 0, autoScored: true, isGraded: true }),
        makeQuestionAnswer({
          questionIndex: 1,
          questionType: 'file-upload',
          points: 0,
          autoScored: true,
          unanswered: true,
          isGraded: true,
        }),
        makeQuestionAnswer({ questionIndex: 2, points: 0, autoScored: false, unanswered: true, isGraded: true }),
      ],
    });
    server.use(...fakeResultService(detail).handlers);
    signInAs();
    renderApp(`/creator/result/${detail.id}`);
    await screen.findByRole('heading', { name: 'Exam Result Details' });
    expect(within(question(1)).getByText('Scored by key')).toBeInTheDocument();
    expect(within(question(2)).getByText('Unanswered — scored 0 automatically')).toBeInTheDocument();
    expect(within(question(3)).getByText('Unanswered — scored 0 by a bulk action')).toBeInTheDocument();
    // The grader can still mark it.
    expect(within(question(2)).getByRole('button', { name: 'Full marks' })).toBeEnabled();
  });
});
