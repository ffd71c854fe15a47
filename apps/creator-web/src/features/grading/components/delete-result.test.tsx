import { capabilitiesOf } from '@exam/domain/roles';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { fakeResultService } from '../../../testing/fake-result-service.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';

/** The result page of a result whose exam gives the signed-in creator `role`; records the DELETE calls. */
async function openAs(role: 'owner' | 'editor' | 'grader', opts: { refuse?: boolean } = {}) {
  const exam = makeExam({ isDraft: false, capabilities: capabilitiesOf({ role, mayRelease: false }) });
  const detail = makeResultDetail({ examId: exam.id, examTitle: exam.title, userName: 'Ada Lovelace' });
  const deletes: string[] = [];
  server.use(
    ...fakeResultService(detail, { exam }).handlers,
    http.delete('*/api/results/:id', ({ params }) => {
      deletes.push(String(params.id));
      return opts.refuse
        ? HttpResponse.json(errorBody('FORBIDDEN', 'Your role on this exam does not let you delete results.'), {
            status: 403,
          })
        : HttpResponse.json({ id: params.id });
    }),
  );
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return { ...view, detail, exam, deletes };
}

describe('deleting a result', () => {
  it('asks before deleting, then deletes and goes back to the exam’s submissions', async () => {
    const { user, router, detail, exam, deletes } = await openAs('editor');
    await user.click(await screen.findByRole('button', { name: 'Delete result' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this result?' });
    expect(dialog).toHaveTextContent('The attempt of Ada Lovelace is deleted');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete result' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deletes).toEqual([detail.id]));
    expect(await screen.findByText('Result deleted')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/creator/exam-insights/${exam.id}/submissions`));
  });

  it('shows the server’s refusal and stays on the result', async () => {
    const { user, router, detail } = await openAs('owner', { refuse: true });
    await user.click(await screen.findByRole('button', { name: 'Delete result' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Your role on this exam does not let you delete results.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/creator/result/${detail.id}`);
  });

  it('offers no deletion to a grader', async () => {
    await openAs('grader');
    await screen.findByRole('button', { name: /release result/i });
    expect(screen.queryByRole('button', { name: 'Delete result' })).not.toBeInTheDocument();
  });
});
