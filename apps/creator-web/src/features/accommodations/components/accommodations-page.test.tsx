import type { Override, OverrideInput } from '@exam/domain/cohort';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExam, signInAs } from '../../../testing/factories.ts';
import { errorBody, seedExams } from '../../../testing/handlers.ts';
import { renderApp } from '../../../testing/render.tsx';
import { server } from '../../../testing/server.ts';

const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const override = (fields: Partial<Override> & { studentId: string }): Override => ({
  extraMinutes: null,
  timeFactor: null,
  opensAt: null,
  closesAt: null,
  attemptsAllowed: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...fields,
});

/** results-service's overrides of one exam, as PUT and GET answer them. */
function serveOverrides(examId: string, initial: Override[]) {
  const overrides = new Map(initial.map((o) => [o.studentId, o]));
  const puts: Array<{ studentId: string; body: OverrideInput }> = [];
  server.use(
    http.get('*/api/exams/:id/overrides', ({ params }) =>
      params.id === examId
        ? HttpResponse.json({ overrides: [...overrides.values()] })
        : HttpResponse.json(errorBody('NOT_FOUND', 'Exam not found'), { status: 404 }),
    ),
    http.put('*/api/exams/:id/overrides/:studentId', async ({ params, request }) => {
      const body = (await request.json()) as OverrideInput;
      const studentId = String(params.studentId);
      puts.push({ studentId, body });
      if (typeof body.extraMinutes === 'number' && body.extraMinutes > 600)
        return HttpResponse.json(
          errorBody('VALIDATION', 'extraMinutes: too much', [
            { path: 'body.extraMinutes', message: 'The server refuses this much extra time' },
          ]),
          { status: 400 },
        );
      const saved = override({
        studentId,
        extraMinutes: body.extraMinutes ?? null,
        timeFactor: body.timeFactor ?? null,
        opensAt: body.opensAt ?? null,
        closesAt: body.closesAt ?? null,
        attemptsAllowed: body.attemptsAllowed ?? null,
      });
      overrides.set(studentId, saved);
      return HttpResponse.json({ override: saved });
    }),
  );
  return puts;
}

function seedTimedExam() {
  seedExams(makeExam({ id: 'exam-acc', title: 'Algebra Final', isDraft: false, timerEnabled: true, timerMinutes: 60 }));
  signInAs();
}

const rows = () => screen.getAllByTestId('override-row');

describe('the accommodations page', () => {
  it('lists each candidate with extra time, factor, resulting duration, own window and attempts', async () => {
    seedTimedExam();
    serveOverrides('exam-acc', [
      override({ studentId: 'C-150', timeFactor: 1.5 }),
      override({
        studentId: 'C-200',
        extraMinutes: 20,
        opensAt: '2026-12-01T00:00:00.000Z',
        closesAt: '2026-12-01T06:00:00.000Z',
        attemptsAllowed: 3,
      }),
    ]);
    renderApp('/creator/exam-accommodations/exam-acc');
    expect(await screen.findByRole('heading', { name: 'Accommodations: Algebra Final' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Accommodations' });
    const [first, second] = rows();
    expect(first).toHaveTextContent('C-150');
    expect(first).toHaveTextContent('×1.5');
    expect(first).toHaveTextContent('60 min → 90 min');
    expect(first).toHaveTextContent("The exam's");
    expect(second).toHaveTextContent('+20 min');
    expect(second).toHaveTextContent('60 min → 80 min');
    expect(second).toHaveTextContent('Opens Dec 1, 2026, 9:00 AM · Closes Dec 1, 2026, 3:00 PM');
    expect(within(second as HTMLElement).getAllByRole('cell')[5]).toHaveTextContent('3');
  });

  it('saves a factor for a candidate, showing the duration it gives, and lists it', async () => {
    seedTimedExam();
    const puts = serveOverrides('exam-acc', []);
    const { user } = renderApp('/creator/exam-accommodations/exam-acc');
    expect(await screen.findByText('No accommodations yet')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Candidate ID'), 'C-150');
    await user.type(screen.getByLabelText('Time factor (×)'), '1.5');
    expect(screen.getByTestId('override-duration')).toHaveTextContent('Duration: 60 min → 90 min');
    fireEvent.change(screen.getByLabelText('Own window opens at'), { target: { value: '2026-12-01T09:00' } });
    await user.click(screen.getByRole('button', { name: 'Save accommodation' }));
    expect(await screen.findByText('Accommodation saved for C-150')).toBeInTheDocument();
    expect(puts).toEqual([
      {
        studentId: 'C-150',
        body: {
          extraMinutes: null,
          timeFactor: 1.5,
          opensAt: '2026-12-01T09:00:00+09:00',
          closesAt: null,
          attemptsAllowed: null,
        },
      },
    ]);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('60 min → 90 min');
    expect(screen.getByLabelText('Candidate ID')).toHaveValue('');
  });

  it('edits a listed accommodation in the form', async () => {
    seedTimedExam();
    const puts = serveOverrides('exam-acc', [override({ studentId: 'C-7', extraMinutes: 15 })]);
    const { user } = renderApp('/creator/exam-accommodations/exam-acc');
    await user.click(await screen.findByRole('button', { name: 'Edit C-7' }));
    expect(screen.getByLabelText('Candidate ID')).toHaveValue('C-7');
    expect(screen.getByLabelText('Extra minutes')).toHaveValue(15);
    await user.clear(screen.getByLabelText('Extra minutes'));
    await user.type(screen.getByLabelText('Extra minutes'), '30');
    await user.click(screen.getByRole('button', { name: 'Save accommodation' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    // Every field is sent; the blank ones as null, so the exam's settings apply to them.
    expect(puts[0]).toEqual({
      studentId: 'C-7',
      body: { extraMinutes: 30, timeFactor: null, opensAt: null, closesAt: null, attemptsAllowed: null },
    });
    await waitFor(() => expect(rows()[0]).toHaveTextContent('60 min → 90 min'));
  });

  it("shows the 400's field errors on their fields, and checks the window and ID before sending", async () => {
    seedTimedExam();
    const puts = serveOverrides('exam-acc', []);
    const { user } = renderApp('/creator/exam-accommodations/exam-acc');
    await user.click(await screen.findByRole('button', { name: 'Save accommodation' }));
    expect(await screen.findByText('Candidate ID is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Candidate ID'), 'C-9');
    fireEvent.change(screen.getByLabelText('Own window opens at'), { target: { value: '2026-12-01T09:00' } });
    fireEvent.change(screen.getByLabelText('Own window closes at'), { target: { value: '2026-12-01T08:00' } });
    await user.click(screen.getByRole('button', { name: 'Save accommodation' }));
    expect(await screen.findByText('The exam must close after it opens')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Own window closes at'), { target: { value: '' } });
    await user.type(screen.getByLabelText('Extra minutes'), '900');
    await user.click(screen.getByRole('button', { name: 'Save accommodation' }));
    expect(await screen.findByText('The server refuses this much extra time')).toBeInTheDocument();
    expect(screen.getByLabelText('Extra minutes')).toHaveAttribute('aria-invalid', 'true');
    expect(puts).toHaveLength(1);
  });

  it('is linked from the published exams table', async () => {
    seedTimedExam();
    serveOverrides('exam-acc', []);
    const { user, router } = renderApp('/creator/dashboard');
    const table = await screen.findByRole('table', { name: 'Published Exams' });
    await user.click(within(table).getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Accommodations' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/creator/exam-accommodations/exam-acc'));
  });
});
