import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { findStoredAttempt, getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

/** A grant as exam-service signs it; the page only reads its claims (results-service checks the signature). */
function grantNaming(name: string, studentId: string): string {
  const encode = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const claims = {
    kind: 'lti-launch',
    examId: 'exam-9',
    name,
    studentId,
    lti: { platformId: 'p', deploymentId: 'd', resourceLinkId: 'r', lineItemUrl: null, sub: studentId },
  };
  return `${encode({ alg: 'HS256', typ: 'lti-grant+jwt' })}.${encode(claims)}.signature`;
}

describe('/taker/credentials after an LMS launch', () => {
  it('skips the details form, briefs and starts with the identity of the launch and its grant', async () => {
    const fake = createFakeResultsService({ exam: buildPublicExam({ id: 'exam-9', title: 'Chemistry' }) });
    server.use(...fake.handlers);
    const ltiGrant = grantNaming('Ada Lovelace', 'lms-user-42');
    const { user, router } = renderRoute('/taker/credentials', {
      examId: 'exam-9',
      examTitle: 'Chemistry',
      fullScreenRequested: false,
      ltiGrant,
    });
    const start = await screen.findByRole('button', { name: 'Start Exam' });
    expect(screen.queryByLabelText('Full Name')).not.toBeInTheDocument();
    expect(fake.state.briefingBodies).toEqual([
      { examId: 'exam-9', name: 'Ada Lovelace', studentId: 'lms-user-42', ltiGrant },
    ]);
    await user.click(start);
    await waitFor(() => expect(router.state.location.pathname).toBe('/exam/exam-9'));
    expect(fake.state.startBodies.at(-1)).toMatchObject({ name: 'Ada Lovelace', studentId: 'lms-user-42', ltiGrant });
    expect(await findStoredAttempt(await getTakerDb(), 'exam-9')).toMatchObject({
      name: 'Ada Lovelace',
      studentId: 'lms-user-42',
    });
  });

  it('shows the launch identity read-only when the candidate goes back from the briefing', async () => {
    const fake = createFakeResultsService({ exam: buildPublicExam({ id: 'exam-9', title: 'Chemistry' }) });
    server.use(...fake.handlers);
    const { user } = renderRoute('/taker/credentials', {
      examId: 'exam-9',
      examTitle: 'Chemistry',
      fullScreenRequested: false,
      ltiGrant: grantNaming('Grace Hopper', 'lms-7'),
    });
    await screen.findByRole('button', { name: 'Start Exam' });
    await user.click(screen.getByRole('button', { name: 'Change my details' }));
    expect(await screen.findByLabelText('Full Name')).toHaveValue('Grace Hopper');
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Candidate ID')).toHaveValue('lms-7');
    expect(screen.getByLabelText('Candidate ID')).toHaveAttribute('readonly');
  });
});
