import type { ResultDetail } from '@exam/domain/result';
import type { Timeline } from '@exam/domain/timeline';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../../../testing/factories.ts';
import { fakeReceipt, fakeResultService } from '../../../testing/fake-result-service.ts';
import { errorBody } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { makeResultDetail } from '../../../testing/result-factories.ts';
import { server } from '../../../testing/server.ts';
import { makeProcessSummary, makeRecordedTimeline } from '../../../testing/timeline-factories.ts';

function serve(detail: ResultDetail, timeline: Timeline = makeRecordedTimeline({ resultId: detail.id })) {
  const fake = fakeResultService(detail, {
    timeline,
    record: makeProcessSummary({ attemptId: detail.attemptId }),
  });
  server.use(...fake.handlers);
  return fake;
}

async function openResult(detail: ResultDetail) {
  signInAs();
  const view = renderApp(`/creator/result/${detail.id}`);
  await screen.findByRole('heading', { name: 'Exam Result Details' });
  return view;
}

const question = (n: number) => screen.getByRole('group', { name: `Question ${n}` });
const processOf = async (n: number) => within(question(n)).findByRole('region', { name: 'How this answer came to be' });

describe('how the answers came to be, on the result page', () => {
  it('shows each answer by source under its question and opens the replay at an answer', async () => {
    const detail = makeResultDetail();
    serve(detail);
    const { user } = await openResult(detail);

    const first = await processOf(1);
    expect(within(first).getByRole('group', { name: 'Final answer by source' })).toHaveTextContent(
      'Hello world — a greeting',
    );
    expect(within(first).getByLabelText('Share of each source')).toHaveTextContent('Typed21% (5 characters)');
    expect(await processOf(3)).toHaveTextContent('Nothing was recorded of how this answer was written.');

    const scrubber = await screen.findByRole('slider', { name: 'Time in the attempt' });
    expect(scrubber).toHaveValue('0');
    await user.click(within(first).getByRole('button', { name: 'Watch this answer in the replay' }));
    expect(scrubber).toHaveValue('10000');
    expect(scrubber).toHaveFocus();
    expect(screen.getByTestId('replay-answer-0')).toHaveTextContent(/^H$/);
  });

  it('offers to try the timeline again when it could not be loaded', async () => {
    const detail = makeResultDetail();
    serve(detail);
    let calls = 0;
    server.use(
      http.get('*/api/results/:id/timeline', () => {
        calls += 1;
        // The query tries a 5xx twice before it gives up.
        return calls <= 2
          ? HttpResponse.json(errorBody('INTERNAL', 'boom'), { status: 500 })
          : HttpResponse.json(makeRecordedTimeline({ resultId: detail.id }));
      }),
    );
    const { user } = await openResult(detail);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^How the answers came to be could not be loaded: /);
    expect(alert).not.toHaveTextContent('boom');
    expect(within(question(1)).getByText(/could not be loaded/)).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('slider', { name: 'Time in the attempt' })).toBeInTheDocument();
    expect(await processOf(1)).toBeInTheDocument();
  });

  it('shows the process on the grading page as well', async () => {
    const detail = makeResultDetail();
    serve(detail);
    signInAs();
    renderApp(`/creator/grade/${detail.examId}/candidate/${detail.studentId}`);
    await screen.findByRole('group', { name: 'Question 1' });
    expect(await processOf(1)).toHaveTextContent('From the assistant');
    expect(await screen.findByRole('heading', { name: 'Replay of the attempt' })).toBeInTheDocument();
  });
});

describe('checking a candidate’s receipt', () => {
  async function verify(receipt: string) {
    const detail = makeResultDetail();
    const fake = serve(detail);
    const { user } = await openResult(detail);
    await user.click(await screen.findByRole('textbox', { name: 'Receipt' }));
    if (receipt) await user.paste(receipt);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    return { detail, fake, user };
  }

  it('says a receipt is valid and sets its figures beside the platform’s record', async () => {
    const detail = makeResultDetail();
    const fake = serve(detail);
    const { user } = await openResult(detail);
    const receipt = fakeReceipt(makeProcessSummary({ attemptId: detail.attemptId }));
    await user.click(await screen.findByRole('textbox', { name: 'Receipt' }));
    await user.paste(receipt);
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    const status = await screen.findByText('Valid: this receipt was signed by this platform for this attempt.');
    expect(fake.verifications).toEqual([receipt]);
    expect(status.closest('[role="status"]')).toHaveTextContent("Its figures match the platform's record");
    const table = screen.getByRole('table', { name: "The receipt beside the platform's record" });
    const typed = within(table).getByRole('row', { name: /^Typed/ });
    expect(
      within(typed)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['92%', '92%']);
    expect(within(table).queryByText('(differs)')).not.toBeInTheDocument();
  });

  it('points out the figures that differ from the record', async () => {
    const detail = makeResultDetail();
    serve(detail);
    const { user } = await openResult(detail);
    const altered = fakeReceipt(
      makeProcessSummary({ attemptId: detail.attemptId, typedPercent: 100, pastedPercent: 0 }),
    );
    await user.click(await screen.findByRole('textbox', { name: 'Receipt' }));
    await user.paste(altered);
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText(/Its figures differ from the platform's record/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: "The receipt beside the platform's record" });
    const typed = within(table).getByRole('row', { name: /^Typed/ });
    expect(
      within(typed)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['100%', '92%(differs)']);
    const messages = within(table).getByRole('row', { name: /^Messages to the assistant/ });
    expect(messages).not.toHaveTextContent('differs');
  });

  it('says why a receipt is not valid: a foreign signature, another attempt, or not a receipt', async () => {
    const forged = await verify(fakeReceipt(makeProcessSummary({ attemptId: 'x' }), 'forged'));
    expect(await screen.findByRole('status')).toHaveTextContent(
      "Not valid: the signature is not this platform's, or the receipt was changed after signing.",
    );
    expect(screen.queryByRole('table', { name: /receipt beside/ })).not.toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Receipt' });

    await forged.user.clear(field);
    await forged.user.paste(fakeReceipt(makeProcessSummary({ attemptId: 'another-attempt' })));
    await forged.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Not valid: this receipt was signed for another attempt, not this one.',
    );

    await forged.user.clear(field);
    await forged.user.paste('not a receipt');
    await forged.user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Not valid: this is not a receipt this platform can read.',
    );
    expect(forged.fake.verifications).toHaveLength(3);
  });

  it('asks for a receipt before sending anything', async () => {
    const { fake } = await verify('');
    expect(await screen.findByText('Paste the receipt first.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Receipt' })).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(fake.verifications).toEqual([]));
  });
});
