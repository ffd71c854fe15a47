import { candidateKey } from '@exam/domain/candidate-key';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { CANARY, makeCodingExam, makeExam } from '../../testing/exams.ts';
import { fakeClock } from '../../testing/fakes.ts';

describe('creator results', () => {
  const clock = fakeClock(new Date('2031-03-01T10:00:00Z'));
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock } });
  });
  afterAll(() => app.close());

  /** Starts, answers and submits; returns the result id. */
  async function sit(
    examId: string,
    answers: Record<number, string>,
    candidate: { name?: string; studentId?: string } = {},
    events: { type: string }[] = [],
  ) {
    const attempt = await startAttempt(app, examId, candidate);
    if (events.length > 0) {
      // Before the submit: a closed attempt takes no more events.
      await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/events`,
        headers: attempt.headers,
        payload: { events },
      });
    }
    for (const [index, answer] of Object.entries(answers)) {
      await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer, seq: 1 },
      });
    }
    clock.advance(90_000);
    const response = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    return { resultId: response.json().resultId as string, attempt };
  }

  it("lists only the results of the caller's exams and hides another creator's result as 404", async () => {
    const mine = app.exams.put(makeExam({ title: 'Mine' }));
    const theirs = app.exams.put(makeExam({ title: 'Theirs' }));
    const { resultId } = await sit(mine.id, { 0: CANARY });
    const other = await sit(theirs.id, { 0: 'Nucleus' });

    const list = await app.inject({ method: 'GET', url: '/api/results', headers: creatorHeaders(app, mine.ownerId) });
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toHaveLength(1);
    expect(list.json().results[0]).toMatchObject({
      id: resultId,
      examId: mine.id,
      examTitle: 'Mine',
      userName: 'Ada Lovelace',
      timeSpent: 90,
      answeredCount: 1,
      score: 1,
      maxScore: 4,
      percentage: 25,
      status: 'pending',
      pendingCount: 2,
      isGraded: false,
      releasedAt: null,
    });

    const stranger = creatorHeaders(app, mine.ownerId);
    expect(
      (await app.inject({ method: 'GET', url: `/api/results/${other.resultId}`, headers: stranger })).statusCode,
    ).toBe(404);
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/results/${other.resultId}`,
      headers: stranger,
      payload: { grading: [{ questionIndex: 2, points: 1 }] },
    });
    expect(patch.statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: '/api/results', headers: creatorHeaders(app, 'nobody') })).json(),
    ).toEqual({ results: [], nextCursor: null });
  });

  it("shows the creator an agentic task's starter files to diff against, never its hidden files", async () => {
    const exam = makeCodingExam();
    const task = exam.questions[1]!;
    task.repository = {
      files: [{ path: 'src/app.py', content: 'def parse():\n    pass\n' }],
      hiddenFiles: [{ path: 'hidden_driver.py', content: 'SECRET_DRIVER' }],
    };
    app.exams.put(exam);
    const { resultId } = await sit(exam.id, { 1: 'print(3)' });
    const response = await app.inject({
      method: 'GET',
      url: `/api/results/${resultId}`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.statusCode).toBe(200);
    const [mcq, coding] = response.json().questionAnswers;
    expect(coding.starterFiles).toEqual([{ path: 'src/app.py', content: 'def parse():\n    pass\n' }]);
    expect(mcq.starterFiles).toBeUndefined();
    expect(response.body).not.toContain('SECRET_DRIVER');
  });

  it('shows the creator the answer key and every question with its answer', async () => {
    const exam = app.exams.put(makeExam());
    const { resultId } = await sit(exam.id, { 0: 'Nucleus', 3: 'def fib(n): ...' });
    const detail = (
      await app.inject({ method: 'GET', url: `/api/results/${resultId}`, headers: creatorHeaders(app, exam.ownerId) })
    ).json();
    const unanswered = { choices: [], multipleAnswers: false, criteria: [], rubric: null, feedback: '' };
    expect(detail.questionAnswers).toEqual([
      {
        ...unanswered,
        questionIndex: 0,
        examQuestionIndex: 0,
        question: 'Cell powerhouse',
        content: '',
        questionType: 'mcq',
        options: ['Nucleus', CANARY, 'Ribosome'],
        correctAnswer: CANARY,
        answer: 'Nucleus',
        answerValue: 'Nucleus',
        points: 0,
        maxPoints: 1,
        autoScored: true,
        isGraded: true,
      },
      {
        ...unanswered,
        questionIndex: 1,
        examQuestionIndex: 1,
        question: 'Largest organ',
        content: '',
        questionType: 'short-answer',
        options: [],
        correctAnswer: `The Skin | ${CANARY}-short`,
        answer: 'No answer provided',
        answerValue: null,
        points: 0,
        maxPoints: 1,
        autoScored: true,
        isGraded: true,
      },
      {
        ...unanswered,
        questionIndex: 2,
        examQuestionIndex: 2,
        question: 'Lab report',
        content: '',
        questionType: 'file-upload',
        options: [],
        correctAnswer: null,
        answer: 'No answer provided',
        answerValue: null,
        points: null,
        maxPoints: 1,
        autoScored: false,
        isGraded: false,
      },
      {
        ...unanswered,
        questionIndex: 3,
        examQuestionIndex: 3,
        question: 'Fibonacci',
        content: '',
        questionType: 'coding',
        options: [],
        correctAnswer: null,
        answer: 'def fib(n): ...',
        answerValue: 'def fib(n): ...',
        points: null,
        maxPoints: 1,
        autoScored: false,
        isGraded: false,
        // The language the code was written in (the question's own: the candidate had no choice).
        language: 'python',
      },
    ]);
    expect(detail.history).toEqual([]);
    expect(detail.workspace_files).toEqual({});
  });

  it('recomputes the score on the server and stamps gradedAt only when no question is pending', async () => {
    const exam = app.exams.put(makeExam());
    const { resultId } = await sit(exam.id, { 0: CANARY, 1: 'the skin', 3: 'code' });
    const owner = creatorHeaders(app, exam.ownerId);
    const patch = (grading: unknown[]) =>
      app.inject({ method: 'PATCH', url: `/api/results/${resultId}`, headers: owner, payload: { grading } });

    const partial = await patch([{ questionIndex: 3, points: 1, feedback: 'Neat' }]);
    expect(partial.statusCode).toBe(200);
    expect(partial.json()).toMatchObject({
      score: 3,
      maxScore: 4,
      percentage: 75,
      status: 'pending',
      pendingCount: 1,
      isGraded: false,
      gradedAt: null,
    });
    expect(partial.json().questionAnswers[3]).toMatchObject({
      points: 1,
      autoScored: false,
      isGraded: true,
      feedback: 'Neat',
    });

    clock.advance(60_000);
    const full = (
      await patch([
        { questionIndex: 2, points: 0, feedback: 'No file' },
        { questionIndex: 0, points: 0 },
      ])
    ).json();
    expect(full).toMatchObject({
      score: 2,
      maxScore: 4,
      percentage: 50,
      status: 'graded',
      pendingCount: 0,
      isGraded: true,
      gradedAt: clock.now().toISOString(),
    });

    const removed = (await patch([{ questionIndex: 2, points: null }])).json();
    expect(removed).toMatchObject({ score: 2, status: 'pending', pendingCount: 1, isGraded: false, gradedAt: null });
    expect(removed.questionAnswers[2]).toMatchObject({ isGraded: false, points: null });

    const list = (await app.inject({ method: 'GET', url: '/api/results', headers: owner })).json();
    expect(list.results.find((r: { id: string }) => r.id === resultId)).toMatchObject({
      score: 2,
      status: 'pending',
      isGraded: false,
    });
  });

  it('answers 400 for a grading entry beyond the questions and for a malformed body', async () => {
    const exam = app.exams.put(makeExam());
    const { resultId } = await sit(exam.id, {});
    const owner = creatorHeaders(app, exam.ownerId);
    const beyond = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: owner,
      payload: { grading: [{ questionIndex: 9, points: 1 }] },
    });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().error.issues).toEqual([
      { path: 'grading.0.questionIndex', message: 'This result has no question 10' },
    ]);
    const malformed = await app.inject({
      method: 'PATCH',
      url: `/api/results/${resultId}`,
      headers: owner,
      payload: { score: 100 },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.issues[0].path).toBe('grading');
  });

  it('summarises started, submitted, graded, pending and the mean percentage of graded results per exam', async () => {
    const ownerId = `owner-summary-${Date.now()}`;
    const exam = app.exams.put(
      makeExam({
        ownerId,
        title: 'Quiz',
        questions: [
          { id: 'q', type: 'mcq', title: 'Pick', options: ['a', 'b'], correctAnswer: 'a' },
          { id: 'r', type: 'mcq', title: 'Pick', options: ['a', 'b'], correctAnswer: 'a' },
          { id: 's', type: 'mcq', title: 'Pick', options: ['a', 'b'], correctAnswer: 'a' },
        ],
      }),
    );
    await sit(exam.id, { 0: 'a' });
    await sit(exam.id, { 0: 'a', 1: 'a' });
    await startAttempt(app, exam.id);
    const summary = (
      await app.inject({ method: 'GET', url: '/api/results/summary', headers: creatorHeaders(app, ownerId) })
    ).json();
    // 1 of 3 and 2 of 3 points: the mean percentage is exactly 50.
    expect(summary).toEqual({
      exams: [{ examId: exam.id, examTitle: 'Quiz', started: 3, submitted: 2, graded: 2, avgScore: 50, pending: 0 }],
    });
  });

  it('exports one CSV row per submitted candidate with points, score, maximum, percentage, status and integrity counts, quoted per RFC 4180', async () => {
    const exam = app.exams.put(makeExam());
    await sit(exam.id, { 0: CANARY, 1: 'nope' }, { name: 'Smith, "Jo"', studentId: '=HYPERLINK(1)' }, [
      { type: 'focus-lost' },
      { type: 'focus-lost' },
      { type: 'paste-blocked' },
      { type: 'fullscreen-exit' },
      { type: 'copy' },
    ]);
    const second = await sit(exam.id, {}, { name: 'Line\nBreak', studentId: 'S2' });
    const owner = creatorHeaders(app, exam.ownerId);
    await app.inject({
      method: 'PATCH',
      url: `/api/results/${second.resultId}`,
      headers: owner,
      payload: { grading: [2, 3].map((questionIndex) => ({ questionIndex, points: 0 })) },
    });

    const response = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/results.csv`, headers: owner });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'name,studentId,startedAt,completedAt,timeSpent,Q1 Cell powerhouse (1 pt),Q2 Largest organ (1 pt),Q3 Lab report (1 pt),Q4 Fibonacci (1 pt),score,maxScore,percentage,status,focusLost,blockedPastes,fullscreenExits,typedPercent,pastedPercent,assistantPercent,transcriptionLike,typedCharsPerMinute,aidedTheta,aidedSe,unaidedTheta,unaidedSe,abilityGap,abilityGapLow,abilityGapHigh,abilityGapFlag,rair,rairNumerator,rairDenominator,rsr,rsrNumerator,rsrDenominator,errorAdoption,errorAdoptionNumerator,errorAdoptionDenominator,framing,verification,integration,independence',
    );
    expect(lines[1]).toMatch(
      /^"Smith, ""Jo""",'=HYPERLINK\(1\),[^,]+,[^,]+,90,1,0,,,1,4,25,pending,2,1,1,,,,,,,,,,,,,,,,,,,,,,,,,,$/,
    );
    // A line break in a name is stored as a space (normaliseCandidateText).
    expect(lines[2]).toMatch(/^Line Break,S2,[^,]+,[^,]+,90,0,0,0,0,0,4,0,graded,0,0,0,,,,,,,,,,,,,,,,,,,,,,,,,,$/);
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);

    const stranger = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv`,
      headers: creatorHeaders(app, 'someone-else'),
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('exports the shares of typed, pasted and assistant text, the transcription-like flag and the typing speed', async () => {
    const exam = app.exams.put(makeExam());
    const owner = creatorHeaders(app, exam.ownerId);
    const sitWith = async (name: string, answer: string, ops: unknown[]) => {
      const attempt = await startAttempt(app, exam.id, { name, studentId: name });
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/1`,
        headers: attempt.headers,
        payload: { answer, seq: 1, operations: { start: 0, ops } },
      });
      expect(saved.statusCode).toBe(200);
      const submitted = await app.inject({
        method: 'POST',
        url: `/api/attempts/${attempt.attemptId}/submit`,
        headers: attempt.headers,
      });
      // Computed after the submission (by the job it wakes; here on demand, as a reader of the record would).
      expect(await app.processRecords.processOf(submitted.json().resultId)).not.toBeNull();
    };
    // 250 characters typed at one steady key every 150 ms, never revised: a transcription-like span, 401.6 a minute
    // (250 characters in 249 × 150 ms).
    const steady = 'lorem ipsum dolor sit amet '.repeat(10).slice(0, 250);
    await sitWith('Steady', steady, [[0, 0, 0, steady, 0, Array.from({ length: 249 }, () => 150)]]);
    // 10 typed, 30 pasted inside the exam, 10 from the assistant: too little typing for a rate.
    await sitWith('Mixed', `${'t'.repeat(10)}${'p'.repeat(30)}${'a'.repeat(10)}`, [
      [0, 0, 0, 't'.repeat(10), 0, Array.from({ length: 9 }, () => 300)],
      [5000, 10, 10, 'p'.repeat(30), 1],
      [9000, 40, 40, 'a'.repeat(10), 2],
    ]);

    const lines = (await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/results.csv`, headers: owner })).body
      .split('\r\n')
      .filter(Boolean);
    const columns = lines[0]!.split(',');
    const processOf = (line: string) => {
      const cells = line.split(',');
      return Object.fromEntries(
        ['typedPercent', 'pastedPercent', 'assistantPercent', 'transcriptionLike', 'typedCharsPerMinute'].map(
          (name) => [name, cells[columns.indexOf(name)]],
        ),
      );
    };
    const rows = Object.fromEntries(lines.slice(1).map((line) => [line.split(',')[0], processOf(line)]));
    expect(rows.Steady).toEqual({
      typedPercent: '100',
      pastedPercent: '0',
      assistantPercent: '0',
      transcriptionLike: 'yes',
      typedCharsPerMinute: '401.6',
    });
    expect(rows.Mixed).toEqual({
      typedPercent: '20',
      pastedPercent: '60',
      assistantPercent: '20',
      transcriptionLike: 'no',
      typedCharsPerMinute: '',
    });
    // The collaboration levels, from insights: Mixed kept all 10 characters it took from the assistant (integration
    // 0); nothing judged yet and no aided/unaided contrast, so the rest is blank. Steady never used the assistant.
    const levelsOf = (line: string) =>
      ['framing', 'verification', 'integration', 'independence'].map((name) => line.split(',')[columns.indexOf(name)]);
    const byName = Object.fromEntries(lines.slice(1).map((line) => [line.split(',')[0], levelsOf(line)]));
    expect(byName).toEqual({ Steady: ['', '', '', ''], Mixed: ['', '', '0', ''] });
  });

  it('exports the gradebook variant: one row per candidate with points and max points, owner only', async () => {
    const exam = app.exams.put(makeExam());
    await sit(exam.id, { 0: CANARY, 1: 'nope' }, { name: 'Ada', studentId: 'S1' });
    const second = await sit(exam.id, {}, { name: 'Bo', studentId: 'S2' });
    const owner = creatorHeaders(app, exam.ownerId);
    await app.inject({
      method: 'PATCH',
      url: `/api/results/${second.resultId}`,
      headers: owner,
      payload: { grading: [2, 3].map((questionIndex) => ({ questionIndex, points: 0 })) },
    });
    const url = `/api/exams/${exam.id}/results.csv?format=gradebook`;
    const response = await app.inject({ method: 'GET', url, headers: owner });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`gradebook-${exam.id}.csv`);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'Name,Candidate ID,Q1 Cell powerhouse (1 pt),Q2 Largest organ (1 pt),Q3 Lab report (1 pt),Q4 Fibonacci (1 pt),Total,Max,Percentage,Status,Submitted at',
    );
    // Ada's two keyed answers are scored, her upload and code wait: no total yet, so no LMS receives one.
    expect(lines[1]).toMatch(/^Ada,S1,1,0,,,,4,,pending,[^,]+$/);
    expect(lines[2]).toMatch(/^Bo,S2,0,0,0,0,0,4,0,graded,[^,]+$/);
    expect(lines).toHaveLength(4);
    expect((await app.inject({ method: 'GET', url, headers: creatorHeaders(app, 'someone-else') })).statusCode).toBe(
      404,
    );
    const bad = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv?format=xls`,
      headers: owner,
    });
    expect(bad.statusCode).toBe(400);
  });

  it("adds the roster's e-mails to the gradebook when the roster has any, matched by normalised candidate ID", async () => {
    const exam = app.exams.put(makeExam());
    await sit(exam.id, { 0: CANARY }, { name: 'Ada', studentId: 'S-1' });
    await sit(exam.id, { 0: CANARY }, { name: 'Bo', studentId: 'S2' });
    app.access.setEmail(exam.id, candidateKey(' s-1 '), 'ada@example.test');
    const owner = creatorHeaders(app, exam.ownerId);
    const url = `/api/exams/${exam.id}/results.csv?format=gradebook`;
    const lines = (await app.inject({ method: 'GET', url, headers: owner })).body.split('\r\n');
    expect(lines[0]).toMatch(/^Name,Candidate ID,Email,Q1 /);
    expect(lines.find((l) => l.startsWith('Ada,'))).toMatch(/^Ada,S-1,ada@example\.test,/);
    // Bo is on no roster entry with an e-mail: his cell is empty, not another's.
    expect(lines.find((l) => l.startsWith('Bo,'))).toMatch(/^Bo,S2,,/);

    // exam-service down: the gradebook still downloads, without the column.
    app.access.down = true;
    try {
      const without = await app.inject({ method: 'GET', url, headers: owner });
      expect(without.statusCode).toBe(200);
      expect(without.body.split('\r\n')[0]).toMatch(/^Name,Candidate ID,Q1 /);
    } finally {
      app.access.down = false;
    }
  });

  it('starts the file with a UTF-8 byte-order mark only when asked (bom=true), accents intact', async () => {
    const exam = app.exams.put(
      makeExam({ questions: [{ id: 'ñ', type: 'short-answer', title: 'Óptica', acceptedAnswers: ['sí'] }] }),
    );
    await sit(exam.id, { 0: 'sí' }, { name: 'José Núñez', studentId: 'N1' });
    const owner = creatorHeaders(app, exam.ownerId);
    for (const format of ['full', 'gradebook']) {
      const plain = await app.inject({
        method: 'GET',
        url: `/api/exams/${exam.id}/results.csv?format=${format}`,
        headers: owner,
      });
      expect(plain.rawPayload[0]).not.toBe(0xef);
      expect(plain.body).toContain('Q1 Óptica (1 pt)');
      expect(plain.body).toContain('José Núñez,N1,');
      const excel = await app.inject({
        method: 'GET',
        url: `/api/exams/${exam.id}/results.csv?format=${format}&bom=true`,
        headers: owner,
      });
      expect([...excel.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(excel.rawPayload.subarray(3).toString('utf8')).toBe(plain.body);
    }
    const bad = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/results.csv?bom=yes`, headers: owner });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('bom');
  });

  it('exports only the header for an own exam without submissions', async () => {
    const exam = app.exams.put(makeExam());
    const response = await app.inject({
      method: 'GET',
      url: `/api/exams/${exam.id}/results.csv`,
      headers: creatorHeaders(app, exam.ownerId),
    });
    expect(response.body).toBe(
      'name,studentId,startedAt,completedAt,timeSpent,Q1 Cell powerhouse (1 pt),Q2 Largest organ (1 pt),Q3 Lab report (1 pt),Q4 Fibonacci (1 pt),score,maxScore,percentage,status,focusLost,blockedPastes,fullscreenExits,typedPercent,pastedPercent,assistantPercent,transcriptionLike,typedCharsPerMinute,aidedTheta,aidedSe,unaidedTheta,unaidedSe,abilityGap,abilityGapLow,abilityGapHigh,abilityGapFlag,rair,rairNumerator,rairDenominator,rsr,rsrNumerator,rsrDenominator,errorAdoption,errorAdoptionNumerator,errorAdoptionDenominator,framing,verification,integration,independence\r\n',
    );
  });
});
