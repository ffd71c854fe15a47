import type { ProcessReceipt } from '@exam/domain/timeline';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildPublicExam } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const RECEIPT = 'eyJhbGciOiJFZERTQSJ9.eyJhdHRlbXB0SWQiOiJhLTEifQ.c2lnbmF0dXJl';

function buildReceipt(summary: Partial<ProcessReceipt['summary']> = {}): ProcessReceipt {
  return {
    receipt: RECEIPT,
    summary: {
      attemptId: 'attempt-1',
      characters: 1200,
      typedPercent: 92,
      pastedPercent: 8,
      assistantPercent: 0,
      autocompletePercent: 0,
      restoredPercent: 0,
      assistantMessages: 3,
      outsidePastesBlocked: 0,
      submittedAt: '2030-01-01T11:00:00.000Z',
      ...summary,
    },
  };
}

async function openCompletion(receipt: ProcessReceipt | null) {
  const exam = buildPublicExam();
  const fake = createFakeResultsService({ exam });
  fake.state.receipt = receipt;
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute('/taker/results', { answered: 2, total: 2, attemptId: fake.attemptId });
  await screen.findByRole('heading', { level: 1 });
  return { ...view, fake };
}

afterEach(() => vi.restoreAllMocks());

describe('the completion page’s process receipt', () => {
  it("shows the candidate's own summary in plain words, with the receipt to copy and download", async () => {
    const { user } = await openCompletion(buildReceipt());
    expect(await screen.findByTestId('process-summary')).toHaveTextContent(
      '92% typed, 8% pasted from within the exam, assistant used 3 times, no outside paste',
    );
    const field = screen.getByLabelText('Your receipt');
    expect(field).toHaveValue(RECEIPT);
    expect(field).toHaveAttribute('readonly');
    expect(screen.getByText(/signed by the exam platform/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy receipt' }));
    await expect(navigator.clipboard.readText()).resolves.toBe(RECEIPT);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();

    const createObjectURL = vi.fn((blob: Blob) => {
      // jsdom's Blob has no text(); FileReader reads it.
      const reader = new FileReader();
      reader.onload = () => downloaded.push(String(reader.result));
      reader.readAsText(blob);
      return 'blob:receipt';
    });
    const downloaded: string[] = [];
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Download receipt' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(click.mock.contexts[0]).toMatchObject({ download: 'exam-receipt-attempt-1.txt' });
    await waitFor(() => expect(downloaded).toEqual([RECEIPT]));
  });

  it('names only the sources the answers hold, and refused outside pastes', async () => {
    await openCompletion(
      buildReceipt({
        typedPercent: 60,
        pastedPercent: 0,
        assistantPercent: 25,
        autocompletePercent: 15,
        assistantMessages: 1,
        outsidePastesBlocked: 2,
      }),
    );
    expect(await screen.findByTestId('process-summary')).toHaveTextContent(
      "60% typed, 25% copied from the assistant's replies, 15% from editor completions or input suggestions, assistant used once, 2 pastes from outside the exam refused",
    );
  });

  it('speaks the candidate’s language', async () => {
    await i18n.changeLanguage('es');
    await openCompletion(buildReceipt({ assistantMessages: 0 }));
    expect(await screen.findByTestId('process-summary')).toHaveTextContent(
      '92 % escrito a mano, 8 % pegado desde el propio examen, asistente no usado y ningún pegado desde fuera',
    );
  });

  it('shows nothing alarming when the receipt is unavailable', async () => {
    const { fake } = await openCompletion(null);
    // Asked three times (the receipt is made with the result), then given up on.
    await waitFor(() => expect(fake.state.receiptCalls).toBe(3), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByTestId('process-receipt')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Your answers have been submitted successfully.')).toBeInTheDocument();
  });
});
