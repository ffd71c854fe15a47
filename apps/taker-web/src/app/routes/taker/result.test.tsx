import { answerKeyText, answerText } from '@exam/domain/answer-text';
import { QuestionSchema } from '@exam/domain/question';
import { encodeBlanks, encodeMatches, encodeOrder } from '@exam/domain/question-kinds';
import { http, HttpResponse } from 'msw';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/index.ts';
import { buildCandidateQuestion, buildCandidateResult, buildPublicExam } from '../../../testing/factories.ts';
import { renderRoute } from '../../../testing/render.tsx';
import { seedAttempt } from '../../../testing/seed.ts';
import { server } from '../../../testing/server.ts';

const attemptId = 'attempt-7';

/** Answers the candidate's result endpoint and records the credential it was asked with. */
function answerResult(respond: () => Response) {
  const seen: { authorization: string | null } = { authorization: null };
  server.use(
    http.get('/api/attempts/:attemptId/result', ({ request, params }) => {
      seen.authorization = request.headers.get('authorization');
      if (params.attemptId !== attemptId)
        return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 });
      return respond();
    }),
  );
  return seen;
}

describe('/taker/results/{attemptId}', () => {
  it("shows the server's score, each question's points and feedback with this device's attempt token", async () => {
    await seedAttempt(buildPublicExam(), attemptId, { token: 'token-of-this-device' });
    const seen = answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          examTitle: 'Physics Midterm',
          score: 7,
          maxScore: 9,
          percentage: (7 / 9) * 100,
          questions: [
            buildCandidateQuestion({ title: 'Speed of light', answer: '3e8', points: 2, maxPoints: 2 }),
            buildCandidateQuestion({
              title: 'Lab report',
              questionType: 'file-upload',
              answer: 'File: lab.pdf',
              points: 2.5,
              maxPoints: 4,
              feedback: 'Good method, weak conclusion.',
            }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByRole('heading', { name: 'Your result' })).toBeInTheDocument();
    expect(screen.getByText('Physics Midterm')).toBeInTheDocument();
    expect(screen.getByTestId('result-score')).toHaveTextContent('7 / 9 points · 77.8%');
    expect(screen.getByRole('heading', { name: 'Q1: Speed of light' })).toBeInTheDocument();
    expect(screen.getByText('3e8')).toBeInTheDocument();
    expect(screen.getByText('2 / 2 points')).toBeInTheDocument();
    expect(screen.getByText('2.5 / 4 points')).toBeInTheDocument();
    expect(screen.getByText('Good method, weak conclusion.')).toBeInTheDocument();
    expect(screen.queryByText(/Correct answer:/)).not.toBeInTheDocument();
    expect(seen.authorization).toBe('Bearer token-of-this-device');
  });

  it('shows each question with its text and passage, code in a monospace block, rubric criteria and the parts right', async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          passages: [{ id: 'p1', title: 'The cell', content: 'Cells hold **organelles**.' }],
          questions: [
            buildCandidateQuestion({
              title: 'Organelles',
              questionType: 'fill-blanks',
              content: 'Fill in the organelles for x = 4.',
              passageId: 'p1',
              answer: 'Energy: [mitochondria]; proteins: [ribosome]; DNA: [golgi].',
              points: 2,
              maxPoints: 3,
              markedBy: 'key',
              partialCredit: { kind: 'gaps', right: 2, of: 3, rule: 'partial' },
            }),
            buildCandidateQuestion({
              title: 'Explain osmosis',
              questionType: 'essay',
              content: 'In 200 words.',
              answer: 'Water moves.',
              points: 1.5,
              maxPoints: 4,
              feedback: 'Name your sources.',
              markedBy: 'grader',
              criteria: [
                { description: 'Clear thesis', maxPoints: 1.5, points: 1.5 },
                { description: 'Cites sources', maxPoints: 2.5, points: 0 },
              ],
            }),
            buildCandidateQuestion({
              title: 'Reverse a list',
              questionType: 'coding',
              language: 'python',
              answer: 'def rev(xs):\n    return xs[::-1]',
              points: 4,
              maxPoints: 6,
              markedBy: 'tests',
              partialCredit: { kind: 'tests', right: 4, of: 5, rule: 'partial' },
            }),
          ],
        }),
      ),
    );
    const { user } = renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByRole('heading', { name: 'Q1: Organelles' })).toBeInTheDocument();
    expect(screen.getByTestId('result-content-0')).toHaveTextContent('Fill in the organelles for x = 4.');
    // The passage is folded under a disclosure beside its question.
    const passage = screen.getByText('Passage: The cell');
    expect(passage.closest('details')).not.toHaveAttribute('open');
    await user.click(passage);
    expect(passage.closest('details')).toHaveAttribute('open');
    expect(await screen.findByText(/Cells hold/)).toBeVisible();
    expect(screen.getByTestId('result-explanation-0')).toHaveTextContent(
      '2 of 3 gaps right. Each right part earns its share of the points. Marked automatically by the answer key',
    );

    const rubric = screen.getByRole('list', { name: 'Rubric' });
    expect(
      within(rubric)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Clear thesis1.5 / 1.5 points', 'Cites sources0 / 2.5 points']);
    expect(screen.getByTestId('result-explanation-1')).toHaveTextContent('Marked by your grader');
    expect(screen.getByText('Name your sources.')).toBeInTheDocument();

    const block = screen.getByRole('figure', { name: 'Your code (Python)' }).querySelector('pre > code')!;
    expect(block.textContent).toBe('def rev(xs):\n    return xs[::-1]');
    expect(block.closest('pre')).toHaveClass('font-mono');
    expect(screen.getByTestId('result-explanation-2')).toHaveTextContent(
      '4 of 5 tests passed. Each passed test earns its own points. Marked by running the tests',
    );
  });

  it('says the answers and keys of the further question types in words, as the server writes them', async () => {
    const question = (fields: Record<string, unknown>) => QuestionSchema.parse({ id: 'q', title: 'Q', ...fields });
    const asked = [
      [question({ type: 'true-false', correctAnswer: 'true' }), 'false'],
      [
        question({ type: 'ordering', items: ['Observe', 'Test', 'Conclude'] }),
        encodeOrder(['Test', 'Observe', 'Conclude']),
      ],
      [
        question({
          type: 'matching',
          pairs: [
            { prompt: 'France', answer: 'Paris' },
            { prompt: 'Spain', answer: 'Madrid' },
          ],
        }),
        encodeMatches(['Paris', '']),
      ],
      [
        question({ type: 'fill-blanks', gapText: 'Water boils at [[1]] °C.', blanks: [{ accepted: ['100'] }] }),
        encodeBlanks(['90']),
      ],
    ] as const;
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          questions: asked.map(([q, raw]) =>
            buildCandidateQuestion({
              title: q.type,
              questionType: q.type,
              answer: answerText(q, raw),
              correctAnswer: answerKeyText(q),
            }),
          ),
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    const item = async (n: number, title: string) =>
      (await screen.findByRole('heading', { name: `Q${n}: ${title}` })).closest('li')!;
    expect(await item(1, 'true-false')).toHaveTextContent('Your answer: FalseCorrect answer: True');
    expect(await item(2, 'ordering')).toHaveTextContent(
      'Your answer: 1. Test; 2. Observe; 3. ConcludeCorrect answer: 1. Observe; 2. Test; 3. Conclude',
    );
    expect(await item(3, 'matching')).toHaveTextContent(
      'Your answer: France → Paris; Spain → —Correct answer: France → Paris; Spain → Madrid',
    );
    expect(await item(4, 'fill-blanks')).toHaveTextContent(
      'Your answer: Water boils at [90] °C.Correct answer: Water boils at [100] °C.',
    );
  });

  it('says where the assistant was wrong on purpose, for the questions the server names', async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          questions: [
            buildCandidateQuestion({ title: 'Outliers', answer: 'Median', points: 1, plantedError: 'Mean' }),
            buildCandidateQuestion({ title: 'Essay', questionType: 'file-upload' }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    const first = (await screen.findByRole('heading', { name: 'Q1: Outliers' })).closest('li')!;
    expect(within(first).getByRole('note')).toHaveTextContent(
      'The assistant was wrong on purpose here: it said “Mean”.',
    );
    expect(screen.getAllByRole('note')).toHaveLength(1);
    expect(screen.queryByText(/could not be loaded just now/)).not.toBeInTheDocument();
  });

  it('says so when what the assistant planted could not be loaded', async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() => HttpResponse.json(buildCandidateResult({ plantedUnavailable: true })));
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByText(/Where the assistant was wrong on purpose could not be loaded/)).toBeInTheDocument();
  });

  it('shows the answer key only for the questions the server sent one for', async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          questions: [
            buildCandidateQuestion({ title: 'Capital of France', answer: 'Lyon', points: 0, correctAnswer: 'Paris' }),
            buildCandidateQuestion({ title: 'Essay', questionType: 'file-upload', correctAnswer: null }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByText('Correct answer: Paris')).toBeInTheDocument();
    expect(screen.getAllByText(/Correct answer:/)).toHaveLength(1);
    expect(screen.getByText('0 / 1 point')).toBeInTheDocument();
  });

  it("shows only the server's message while the result is not released", async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        { error: { code: 'FORBIDDEN', message: 'Your result has not been released yet' } },
        { status: 403 },
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByText('Your result has not been released yet')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your result' })).not.toBeInTheDocument();
    expect(screen.queryByText(/pts/)).not.toBeInTheDocument();
  });

  it('says the result opens only on the device that took the exam when this browser holds no credentials', async () => {
    const seen = answerResult(() => HttpResponse.json(buildCandidateResult()));
    renderRoute(`/taker/results/${attemptId}`);
    expect(
      await screen.findByText('This result can only be opened on the device that took the exam'),
    ).toBeInTheDocument();
    expect(seen.authorization).toBeNull();
  });

  it("lists a coding question's test outcomes, with input and outputs only where the server sent them", async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    const base = { points: 0, maxPoints: 1, timeMs: 30, exitCode: 0 };
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          questions: [
            buildCandidateQuestion({
              title: 'Sum',
              questionType: 'coding',
              answer: 'print(3)',
              points: 1,
              maxPoints: 2,
              tests: {
                state: 'done',
                runId: 'run-1',
                verdicts: [
                  {
                    ...base,
                    testId: 'a',
                    name: 'Visible one',
                    visible: true,
                    outcome: 'failed',
                    expected: '4',
                    actual: '3',
                  },
                  { ...base, testId: 'b', name: '', visible: false, outcome: 'passed', points: 1 },
                ],
              },
            }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    const list = await screen.findByRole('list', { name: 'Tests of Q1' });
    const visible = within(list).getByRole('listitem', { name: 'Visible one: Wrong output' });
    expect(within(visible).getByTestId('verdict-0-expected')).toHaveTextContent('4');
    expect(within(visible).getByTestId('verdict-0-actual')).toHaveTextContent('3');
    const hidden = within(list).getByRole('listitem', { name: 'Test 2: Passed' });
    expect(within(hidden).getByText('Hidden')).toBeInTheDocument();
    expect(within(hidden).queryByText('Expected')).not.toBeInTheDocument();
    expect(within(hidden).getByText('1 / 1 point')).toBeInTheDocument();
  });

  it('says the tests are still running while the grade run has not finished', async () => {
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          questions: [
            buildCandidateQuestion({
              questionType: 'coding',
              points: null,
              tests: { state: 'running', runId: 'run-1', verdicts: [] },
            }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByText('Tests running…')).toBeInTheDocument();
  });
});

describe('/taker/results/{attemptId} in Spanish', () => {
  it('writes the score, points and percentage the Spanish way', async () => {
    await i18n.changeLanguage('es');
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        buildCandidateResult({
          score: 7,
          maxScore: 9,
          percentage: (7 / 9) * 100,
          questions: [
            buildCandidateQuestion({
              title: 'Lab report',
              answer: 'x',
              points: 2.5,
              maxPoints: 4,
              feedback: 'Bien',
              correctAnswer: 'y',
              partialCredit: { kind: 'pairs', right: 1, of: 2, rule: 'all-or-nothing' },
            }),
          ],
        }),
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByRole('heading', { name: 'Tu resultado' })).toBeInTheDocument();
    expect(screen.getByTestId('result-score')).toHaveTextContent('7 / 9 puntos · 77,8 %');
    expect(screen.getByRole('heading', { name: 'P1: Lab report' })).toBeInTheDocument();
    expect(screen.getByText('2,5 / 4 puntos')).toBeInTheDocument();
    expect(screen.getByText('Respuesta correcta: y')).toBeInTheDocument();
    expect(screen.getByTestId('result-explanation-0')).toHaveTextContent(
      '1 de 2 parejas bien emparejadas. Todas las partes deben ser correctas para obtener los puntos.',
    );
  });

  it("shows the service's English refusal in Spanish", async () => {
    await i18n.changeLanguage('es');
    await seedAttempt(buildPublicExam(), attemptId);
    answerResult(() =>
      HttpResponse.json(
        { error: { code: 'FORBIDDEN', message: 'Your result has not been released yet' } },
        { status: 403 },
      ),
    );
    renderRoute(`/taker/results/${attemptId}`);
    expect(await screen.findByText('Tu resultado aún no se ha publicado')).toBeInTheDocument();
  });
});
