import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../../testing/factories.ts';
import { errorBody, examStore, seedExams } from '../../../../testing/handlers.ts';
import { renderApp } from '../../../../testing/render.tsx';
import { server } from '../../../../testing/server.ts';

// A zone without daylight saving, so the offset shown is the same all year.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

type WrittenBody = Record<string, unknown>;
const lastBody = () => examStore.writes.at(-1)?.body as WrittenBody;
const typeInstant = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the availability card', () => {
  it("names the creator's time zone and sends the window as ISO 8601 with its offset, attempts and the grade kept", async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    expect(await screen.findByTestId('availability-zone')).toHaveTextContent('Times are in Asia/Tokyo (UTC+09:00)');
    await user.type(screen.getByLabelText('Exam Title'), 'Windowed');
    typeInstant('Opens at', '2026-12-01T09:00');
    typeInstant('Closes at', '2026-12-01T11:30');
    expect(screen.queryByRole('combobox', { name: 'Grade kept' })).not.toBeInTheDocument();
    const attempts = screen.getByLabelText('Attempts allowed');
    await user.clear(attempts);
    await user.type(attempts, '3');
    await user.click(screen.getByRole('combobox', { name: 'Grade kept' }));
    await user.click(await screen.findByRole('option', { name: 'Last attempt' }));
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('Exam saved as draft')).toBeInTheDocument();
    expect(lastBody()).toMatchObject({
      opensAt: '2026-12-01T09:00:00+09:00',
      closesAt: '2026-12-01T11:30:00+09:00',
      attemptsAllowed: 3,
      keepGrade: 'last',
    });
  });

  it('refuses a close before the open on the field, before sending anything', async () => {
    seedExams();
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Backwards');
    typeInstant('Opens at', '2026-12-01T09:00');
    typeInstant('Closes at', '2026-12-01T08:59');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('The exam must close after it opens')).toBeInTheDocument();
    expect(screen.getByLabelText('Closes at')).toHaveAttribute('aria-invalid', 'true');
    expect(examStore.writes).toHaveLength(0);
  });

  it('shows a stored window in local time, and a cleared field is sent as null', async () => {
    const exam = makeExam({
      id: 'exam-win',
      title: 'Stored window',
      isDraft: false,
      opensAt: '2026-12-01T00:00:00.000Z',
      closesAt: '2026-12-02T00:00:00.000Z',
      attemptsAllowed: 2,
      keepGrade: 'first',
    });
    seedExams(exam);
    signInAs();
    const { user } = renderApp('/creator/edit-exam/exam-win?type=published');
    expect(await screen.findByLabelText('Opens at')).toHaveValue('2026-12-01T09:00');
    expect(screen.getByLabelText('Closes at')).toHaveValue('2026-12-02T09:00');
    expect(screen.getByRole('combobox', { name: 'Grade kept' })).toHaveTextContent('First attempt');
    expect(screen.getByRole('link', { name: 'Accommodations for single candidates' })).toHaveAttribute(
      'href',
      '/creator/exam-accommodations/exam-win',
    );
    await user.click(screen.getByRole('button', { name: 'Clear opens at' }));
    await user.click(screen.getByRole('button', { name: 'Update Published Exam' }));
    await waitFor(() => expect(examStore.writes).toHaveLength(1));
    expect(lastBody()).toMatchObject({
      opensAt: null,
      closesAt: '2026-12-02T00:00:00.000Z',
      attemptsAllowed: 2,
      keepGrade: 'first',
    });
  });

  it("marks the field a 400 names (the server's window rule)", async () => {
    seedExams();
    server.use(
      http.post('*/api/exams', () =>
        HttpResponse.json(
          errorBody('VALIDATION', 'closesAt: The exam must close after it opens', [
            { path: 'body.closesAt', message: 'The exam must close after it opens' },
          ]),
          { status: 400 },
        ),
      ),
    );
    signInAs();
    const { user } = renderApp('/creator/new-exam');
    await user.type(await screen.findByLabelText('Exam Title'), 'Server says no');
    typeInstant('Closes at', '2026-12-01T08:00');
    await user.click(screen.getByRole('button', { name: 'Save as Draft' }));
    expect(await screen.findByText('The exam must close after it opens')).toBeInTheDocument();
    expect(screen.getByLabelText('Closes at')).toHaveAttribute('aria-invalid', 'true');
  });
});
