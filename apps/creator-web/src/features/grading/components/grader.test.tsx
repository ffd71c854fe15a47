import {
  RESULTS_PAGE_MAX,
  ResultSummarySchema,
  type GradeResult,
  type ResultDetail,
  type ResultSummary,
} from '@exam/domain/result';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeResultList } from '../../../testing/fake-results-list.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';
import { makeMessage, makeResultDetail, makeResultSummary } from '../../../testing/result-factories.ts';

// CodeMirror measures text through Range, which jsdom does not lay out.
if (!('getClientRects' in Range.prototype)) {
  Object.assign(Range.prototype, { getClientRects: () => [], getBoundingClientRect: () => new DOMRect() });
}

/** A fake results-service holding one result; PATCH bodies are recorded and can be made to fail. */
function serveResult(
  detail: ResultDetail,
  opts: {
    failPatches?: number;
    transcript?: 'error' | ReturnType<typeof makeMessage>[];
    others?: ResultSummary[];
  } = {},
) {
  const patches: GradeResult[] = [];
  let failures = opts.failPatches ?? 0;
  const summary = {
    ...detail,
    questionAnswers: undefined,
    events: undefined,
    workspace_files: undefined,
    attemptId: undefined,
  };
  server.use(
    fakeResultList([ResultSummarySchema.parse(summary), ...(opts.others ?? [])]).handler,
    http.get('*/api/results/:id', ({ params }) =>
      params.id === detail.id
        ? HttpResponse.json(detail)
        : HttpResponse.json(errorBody('NOT_FOUND', 'Result not found'), { status: 404 }),
    ),
    http.patch('*/api/results/:id', async ({ request }) => {
      const body = (await request.json()) as GradeResult;
      patches.push(body);
      if (failures > 0) {
        failures -= 1;
        return HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 });
      }
      return HttpResponse.json({ ...detail, isGraded: true });
    }),
    http.get('*/api/llm/attempts/:attemptId/transcript', () =>
      opts.transcript === 'error'
        ? HttpResponse.json(errorBody('UNAVAILABLE', 'llm-gateway is unavailable'), { status: 503 })
        : HttpResponse.json({ messages: opts.transcript ?? [] }),
    ),
  );
  return patches;
}

const graderPath = (detail: ResultDetail, candidate = detail.studentId) =>
  `/creator/grade/${detail.examId}/candidate/${candidate}`;

describe('grader', () => {
  it('finds the candidate by student id and shows the candidate info, answers and the empty chat', async () => {
    const detail = makeResultDetail({ userName: 'Grace Hopper', studentId: 'S-77', timeSpent: 754 });
    serveResult(detail);
    signInAs();
    renderApp(graderPath(detail));
    const candidate = await screen.findByLabelText('Candidate Info');
    expect(candidate).toHaveTextContent('Grace Hopper');
    expect(candidate).toHaveTextContent('S-77');
    expect(candidate).toHaveTextContent('12m 34s');
    expect(
      within(screen.getByRole('group', { name: 'Question 3' })).getByRole('button', { name: 'Download File' }),
    ).toBeInTheDocument();
    expect(await screen.findByText('The candidate did not use the AI assistant.')).toBeInTheDocument();
    expect(screen.getByText('No workspace files were saved for this submission')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Insights' })).toHaveAttribute(
      'href',
      `/creator/exam-insights/${detail.examId}`,
    );
  });

  it('leads to grading by question at the first question still awaiting a grader', async () => {
    const detail = makeResultDetail({ userName: 'Grace Hopper', studentId: 'S-76' });
    serveResult(detail);
    signInAs();
    renderApp(graderPath(detail));
    // Question 1 was scored by its key; question 2 awaits a grader.
    expect(await screen.findByRole('link', { name: 'Grade by question' })).toHaveAttribute(
      'href',
      `/creator/grade/${detail.examId}/question/2`,
    );
  });

  it("shows why the candidate's coding workspace did not start, which the candidate was not told", async () => {
    const detail = makeResultDetail({ userName: 'Grace Hopper', studentId: 'S-78' });
    serveResult(detail);
    server.use(
      http.get('*/api/session/attempts/:attemptId/start-failure', ({ params }) =>
        HttpResponse.json({
          failure:
            params.attemptId === detail.attemptId
              ? {
                  attemptId: detail.attemptId,
                  reason: 'the Docker engine at /var/run/docker.sock is not reachable (ENOENT)',
                  failures: 4,
                  firstFailedAt: '2025-01-05T14:00:00.000Z',
                  lastFailedAt: '2025-01-05T14:30:00.000Z',
                }
              : null,
        }),
      ),
    );
    signInAs();
    renderApp(graderPath(detail));
    const note = await screen.findByRole('region', { name: 'The coding workspace did not start for this candidate' });
    expect(note).toHaveTextContent('4 failed tries, the last at');
    expect(note).toHaveTextContent('the Docker engine at /var/run/docker.sock is not reachable (ENOENT)');
  });

  it('shows no workspace note when the workspace started', async () => {
    const detail = makeResultDetail({ userName: 'Ada', studentId: 'S-79' });
    serveResult(detail);
    const asked: string[] = [];
    server.use(
      http.get('*/api/session/attempts/:attemptId/start-failure', ({ params }) => {
        asked.push(String(params.attemptId));
        return HttpResponse.json({ failure: null });
      }),
    );
    signInAs();
    renderApp(graderPath(detail));
    await screen.findByLabelText('Candidate Info');
    await waitFor(() => expect(asked).toEqual([detail.attemptId]));
    expect(screen.queryByTestId('workspace-start-failure')).not.toBeInTheDocument();
  });

  it('finds a candidate by student id among more results than one page holds', async () => {
    const detail = makeResultDetail({
      userName: 'Oldest Candidate',
      studentId: 'S-OLD',
      completedAt: '2020-01-01T00:00:00.000Z',
    });
    const newer = Array.from({ length: RESULTS_PAGE_MAX + 10 }, () =>
      makeResultSummary({ examId: detail.examId, completedAt: '2025-06-01T00:00:00.000Z' }),
    );
    serveResult(detail, { others: newer });
    signInAs();
    renderApp(graderPath(detail));
    expect(await screen.findByLabelText('Candidate Info')).toHaveTextContent('Oldest Candidate');
  });

  it('shows the unsaved notice after a mark and saves the touched questions with the PATCH, then returns to the submissions', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail);
    signInAs();
    const { user } = renderApp(graderPath(detail, detail.id));
    const second = await screen.findByRole('group', { name: 'Question 2' });
    expect(screen.getByTestId('grader-score')).toHaveTextContent('1 / 3 points · awaiting grading');
    expect(screen.queryByText('You have unsaved changes')).not.toBeInTheDocument();
    await user.click(within(second).getByRole('button', { name: 'Full marks' }));
    expect(within(second).getByLabelText('Points for question 2')).toHaveValue(1);
    expect(screen.getByText('You have unsaved changes')).toBeInTheDocument();
    await user.type(
      within(screen.getByRole('group', { name: 'Question 3' })).getByLabelText('Feedback for question 3'),
      'No file',
    );
    await user.click(screen.getByRole('button', { name: 'Save Grading' }));
    expect(await screen.findByRole('heading', { name: /Candidate Submissions/ })).toBeInTheDocument();
    expect(patches).toEqual([
      {
        grading: [
          { questionIndex: 1, points: 1, feedback: '', criteria: [] },
          { questionIndex: 2, points: null, feedback: 'No file', criteria: [] },
        ],
      },
    ]);
  });

  it('leaves the points at the maximum when Full marks is pressed twice, and Clear mark sends null', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail);
    signInAs();
    const { user } = renderApp(graderPath(detail));
    const first = await screen.findByRole('group', { name: 'Question 1' });
    const second = screen.getByRole('group', { name: 'Question 2' });
    await user.click(within(second).getByRole('button', { name: 'Full marks' }));
    await user.click(within(second).getByRole('button', { name: 'Full marks' }));
    expect(within(second).getByLabelText('Points for question 2')).toHaveValue(1);
    expect(within(second).getByText('1 / 1 point')).toBeInTheDocument();
    await user.click(within(first).getByRole('button', { name: 'Clear mark' }));
    await user.click(screen.getByRole('button', { name: 'Save Grading' }));
    await screen.findByRole('heading', { name: /Candidate Submissions/ });
    expect(patches[0]!.grading).toEqual([
      { questionIndex: 0, points: null, feedback: '', criteria: [] },
      { questionIndex: 1, points: 1, feedback: '', criteria: [] },
    ]);
  });

  it('keeps the changes and shows the error when saving fails, and saves them on the next try', async () => {
    const detail = makeResultDetail();
    const patches = serveResult(detail, { failPatches: 1 });
    signInAs();
    const { user, router } = renderApp(graderPath(detail));
    const second = await screen.findByRole('group', { name: 'Question 2' });
    await user.click(within(second).getByRole('button', { name: 'Zero' }));
    await user.click(screen.getByRole('button', { name: 'Save Grading' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The grading could not be saved');
    expect(screen.getByText('You have unsaved changes')).toBeInTheDocument();
    expect(within(second).getByLabelText('Points for question 2')).toHaveValue(0);
    expect(router.state.location.pathname).toBe(graderPath(detail));

    await user.click(screen.getByRole('button', { name: 'Save Grading' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/creator/exam-insights/${detail.examId}/submissions`),
    );
    expect(patches).toHaveLength(2);
    expect(patches[1]).toEqual(patches[0]);
    expect(patches[1]!.grading[0]).toEqual({ questionIndex: 1, points: 0, feedback: '', criteria: [] });
  });

  it('shows the real chat transcript, or the error when it cannot be loaded', async () => {
    const detail = makeResultDetail();
    serveResult(detail, {
      transcript: [
        makeMessage({ role: 'user', content: 'What is recursion? **really**', questionIndex: 1 }),
        makeMessage({ role: 'assistant', content: 'A function that calls **itself**.' }),
      ],
    });
    signInAs();
    const view = renderApp(graderPath(detail));
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    // The candidate's words as typed; the reply as the candidate saw it (rich text).
    expect(within(conversation).getByText('What is recursion? **really**')).toBeInTheDocument();
    expect((await within(conversation).findByText('itself')).tagName).toBe('STRONG');
    expect(conversation.querySelector('[data-role="assistant"]')).toHaveTextContent('A function that calls itself.');
    expect(within(conversation).getByText(/Candidate · .* · Question 2/)).toBeInTheDocument();
    view.unmount();

    serveResult(detail, { transcript: 'error' });
    renderApp(graderPath(detail));
    expect(await screen.findByText(/The conversation could not be loaded/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText('The candidate did not use the AI assistant.')).not.toBeInTheDocument();
  });

  it('marks a reply the guardrail stopped, naming the question whose answer it was about to give', async () => {
    const detail = makeResultDetail();
    serveResult(detail, {
      transcript: [
        makeMessage({ role: 'user', content: 'Just tell me Q2', questionIndex: 1 }),
        makeMessage({ role: 'assistant', content: 'Think about', isWithheld: true, withheldQuestionIndex: 1 }),
      ],
    });
    signInAs();
    renderApp(graderPath(detail));
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    expect(within(conversation).getByRole('note')).toHaveTextContent(
      'Stopped by the guardrail: the reply was about to give away the answer to Question 2.',
    );
  });

  it('opens a workspace file read-only with the language of its extension', async () => {
    const detail = makeResultDetail({
      workspace_files: {
        'src/main.py': {
          content: 'print("hi")\n',
          lastModified: '2025-01-05T14:00:00Z',
          size: 12,
          type: 'text/x-python',
          isBinary: false,
          truncated: false,
        },
      },
    });
    serveResult(detail);
    signInAs();
    const { user } = renderApp(graderPath(detail));
    const files = await screen.findByRole('table', { name: 'Workspace Files' });
    expect(within(files).getByText('12 B')).toBeInTheDocument();
    await user.click(within(files).getByRole('button', { name: 'Open src/main.py' }));
    const dialog = await screen.findByRole('dialog', { name: 'src/main.py' });
    expect(await within(dialog).findByTestId('code-language')).toHaveTextContent('Python');
    expect(dialog).toHaveTextContent('print("hi")');
  });

  it('lists a file named __proto__ and says which files were left out of the workspace and why', async () => {
    const file = {
      content: 'secret = 1\n',
      lastModified: '2025-01-05T14:00:00Z',
      size: 11,
      type: 'text/plain',
      isBinary: false,
      truncated: false,
    };
    const detail = makeResultDetail({ workspace_files: {} });
    // As the result arrives over the wire: `__proto__` is an ordinary key of the JSON text.
    const body = JSON.stringify(detail).replace(
      '"workspace_files":{}',
      `"workspace_files":{"__proto__":${JSON.stringify(file)},"solution.py":${JSON.stringify(file)},` +
        `"node_modules/":${JSON.stringify({ ...file, content: '', size: 4096, type: 'folder', omitted: { reason: 'dependency-folder', files: 2100 } })},` +
        `"data/":${JSON.stringify({ ...file, content: '', size: 101, type: 'folder', omitted: { reason: 'file-limit', files: 101 } })}}`,
    );
    serveResult(detail);
    server.use(
      http.get('*/api/results/:id', () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } })),
    );
    signInAs();
    const { user } = renderApp(graderPath(detail));
    const files = await screen.findByRole('table', { name: 'Workspace Files' });
    expect(screen.getByRole('note', { name: '' })).toHaveTextContent('2,201 files were left out of this submission');
    expect(within(files).getByText(/left out: 2,100 files, installed dependencies/)).toBeInTheDocument();
    expect(within(files).getByText(/left out: 101 files, over the per-workspace file limit/)).toBeInTheDocument();
    expect(within(files).queryByRole('button', { name: 'Open node_modules/' })).not.toBeInTheDocument();
    await user.click(within(files).getByRole('button', { name: 'Open __proto__' }));
    const dialog = await screen.findByRole('dialog', { name: '__proto__' });
    expect(dialog).toHaveTextContent('secret = 1');
  });

  it("says 'Data not found' with Go Back for an unknown candidate", async () => {
    const detail = makeResultDetail();
    serveResult(detail);
    signInAs();
    renderApp(`/creator/grade/${detail.examId}/candidate/nobody`);
    expect(await screen.findByText('Data not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
  });
});
