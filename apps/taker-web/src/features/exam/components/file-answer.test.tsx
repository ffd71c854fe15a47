import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getTakerDb } from '../../../lib/taker-db.ts';
import { buildPublicExam, buildQuestion } from '../../../testing/factories.ts';
import { createFakeResultsService } from '../../../testing/fake-results-service.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';
import { listPending } from '../lib/outbox.ts';
import { listUploads } from '../lib/uploads.ts';

async function openExam() {
  const exam = buildPublicExam({ questions: [buildQuestion({ type: 'file-upload', title: 'Upload your report' })] });
  const fake = createFakeResultsService({ exam });
  server.use(...fake.handlers);
  await seedAttempt(exam, fake.attemptId);
  const view = renderRoute(`/exam/${exam.id}`);
  await screen.findByRole('heading', { name: 'Q1: Upload your report' });
  return { ...view, fake, exam };
}

const drop = (...files: File[]) =>
  fireEvent.drop(screen.getByTestId('file-drop-0'), { dataTransfer: { files, types: ['Files'] } });

describe('the file input of a file-upload question', () => {
  it('offers a drop zone and the picker with the size limit, and never the browser’s "No file chosen"', async () => {
    await openExam();
    const input = screen.getByLabelText('Upload file for Q1');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAccessibleDescription('Up to 10 MB');
    expect(screen.getByText('Choose a file')).toBeInTheDocument();
    expect(screen.getByText('or drag and drop it here')).toBeInTheDocument();
    expect(screen.queryByText(/No file chosen/)).not.toBeInTheDocument();
  });

  it('takes a dropped file: its name and size, then Uploaded once the server has it', async () => {
    const { fake } = await openExam();
    drop(new File(['%PDF-1.7'], 'report.pdf', { type: 'application/pdf' }));
    const row = await screen.findByTestId('file-answer-0');
    expect(within(row).getByTestId('file-name-0')).toHaveTextContent('report.pdf');
    expect(row).toHaveTextContent('8 B');
    await waitFor(() => expect(within(row).getByRole('status')).toHaveTextContent('Uploaded'));
    expect(fake.state.files.get(0)?.fileName).toBe('report.pdf');
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Answered');
    expect(screen.queryByText('File: report.pdf')).not.toBeInTheDocument();
  });

  it('replaces the file by the picker (Replace opens it) or by dropping another', async () => {
    const { user, fake } = await openExam();
    const input = screen.getByLabelText<HTMLInputElement>('Upload file for Q1');
    await user.upload(input, new File(['one'], 'draft.txt', { type: 'text/plain' }));
    await waitFor(() => expect(fake.state.files.get(0)?.fileName).toBe('draft.txt'));

    const opened = vi.spyOn(input, 'click');
    await user.click(screen.getByRole('button', { name: 'Replace draft.txt' }));
    expect(opened).toHaveBeenCalled();
    await user.upload(input, new File(['two!'], 'final.txt', { type: 'text/plain' }));
    expect(await screen.findByTestId('file-name-0')).toHaveTextContent('final.txt');
    await waitFor(() => expect(fake.state.files.get(0)?.fileName).toBe('final.txt'));

    drop(new File(['three'], 'really-final.txt', { type: 'text/plain' }));
    await waitFor(() => expect(screen.getByTestId('file-name-0')).toHaveTextContent('really-final.txt'));
    await waitFor(() => expect(fake.state.files.get(0)?.fileName).toBe('really-final.txt'));
    expect(new TextDecoder().decode(fake.state.files.get(0)?.bytes)).toBe('three');
  });

  it('refuses a drop of several files at once and keeps nothing', async () => {
    const { fake } = await openExam();
    drop(new File(['a'], 'a.txt'), new File(['b'], 'b.txt'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Drop one file at a time.');
    expect(screen.queryByTestId('file-answer-0')).not.toBeInTheDocument();
    expect(fake.state.uploadCalls).toBe(0);
  });

  it('Remove makes the question unanswered, on the server too, and it stays so after a reload', async () => {
    const { user, fake, unmount, exam } = await openExam();
    drop(new File(['%PDF'], 'report.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe('File: report.pdf'));

    await user.click(await screen.findByRole('button', { name: 'Remove report.pdf' }));
    await waitFor(() => expect(screen.queryByTestId('file-answer-0')).not.toBeInTheDocument());
    expect(screen.getByText('File removed. This question is unanswered.')).toBeInTheDocument();
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
    expect(document.activeElement).toBe(screen.getByLabelText('Upload file for Q1'));
    await waitFor(() => expect(fake.state.answers.get(0)?.answer).toBe(''));
    await waitFor(async () => expect(await listPending(await getTakerDb(), fake.attemptId)).toEqual([]));

    unmount();
    renderRoute(`/exam/${exam.id}`);
    await screen.findByRole('heading', { name: 'Q1: Upload your report' });
    expect(screen.queryByTestId('file-answer-0')).not.toBeInTheDocument();
    expect(screen.getByTestId('question-status-0')).toHaveTextContent('Pending');
  });

  it('removing a file chosen while offline forgets it, so it is never uploaded', async () => {
    const { user, fake } = await openExam();
    fake.state.networkDown = true;
    await user.upload(screen.getByLabelText('Upload file for Q1'), new File(['secret'], 'wrong.txt'));
    expect(await screen.findByTestId('file-answer-0')).toHaveTextContent('Uploading… (kept on this device)');
    await user.click(screen.getByRole('button', { name: 'Remove wrong.txt' }));
    await waitFor(() => expect(screen.queryByTestId('file-answer-0')).not.toBeInTheDocument());
    expect(await listUploads(await getTakerDb(), fake.attemptId)).toEqual([]);

    fake.state.networkDown = false;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveTextContent('Saved'));
    expect(fake.state.files.size).toBe(0);
    expect(fake.state.answers.get(0)?.answer ?? '').toBe('');
  });
});
