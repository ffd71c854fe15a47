import type { CompactOperation } from '@exam/domain/answer-operations';
import { InsightsReportSchema, type InsightsReport } from '@exam/domain/insights';
import type { TranscriptMessage } from '@exam/domain/internal';
import { buildInternalExam } from '@exam/domain/testing';
import { fitAidedAbility, type AbilitySet } from '@exam/psychometrics/aided-ability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOperations, answers } from '../../db/schema.ts';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { fakeClock, fakeTranscripts } from '../../testing/fakes.ts';
import { AIDED_ABILITY_REASONS } from './aided-ability-figures.ts';

const T0 = new Date('2033-03-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000).toISOString();

/**
 * Two sections: "solo" without the assistant (U1–U4), then "with-ai" with it (A1–A4). A1 and A2 carry planted
 * errors; A3 is keyed but has none; A4 is keyed by an option too short to be looked for in replies.
 */
const mcq = (id: string, sectionId: string) => ({
  id,
  type: 'mcq',
  title: id,
  options: ['x', 'y'],
  correctAnswer: 'x',
  sectionId,
});
const questions = [
  mcq('u1', 'solo'),
  mcq('u2', 'solo'),
  mcq('u3', 'solo'),
  mcq('u4', 'solo'),
  {
    id: 'a1',
    type: 'mcq',
    title: 'Capital of France',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    correctAnswer: 'Paris',
    plantedError: 'Lyon',
    sectionId: 'with-ai',
  },
  {
    id: 'a2',
    type: 'short-answer',
    title: 'Six times seven',
    acceptedAnswers: ['42'],
    plantedError: '41',
    sectionId: 'with-ai',
  },
  {
    id: 'a3',
    type: 'mcq',
    title: 'What do we breathe in',
    options: ['Oxygen', 'Nitrogen', 'Helium'],
    correctAnswer: 'Oxygen',
    sectionId: 'with-ai',
  },
  mcq('a4', 'with-ai'),
];
const A1 = 4;
const A2 = 5;
const A3 = 6;
const SETS: AbilitySet[] = ['unaided', 'unaided', 'unaided', 'unaided', 'aided', 'aided', 'aided', 'aided'];
const sections = [
  { id: 'solo', title: 'On your own', assistant: false },
  { id: 'with-ai', title: 'With the assistant', assistant: true },
];
const aiSettings = {
  enabled: true,
  plantedErrors: { enabled: true, share: 0.5 },
  hasApiKey: true,
  apiKeyLast4: '1234',
  courseMaterials: [],
  encryptedApiKey: null,
};

/** An answer as saved, and the operations that made it (the compact form, ms after the start); none: only saved. */
type Answer = { value: string; savedAt: number; ops?: CompactOperation[] };
const chose = (value: string, t: number): Answer => ({ value, savedAt: t / 1000, ops: [[t, 0, value, 0]] });

let messageId = 0;
const turn = (
  seconds: number,
  questionIndex: number,
  reply: string,
  planted?: { error: string; verified: boolean },
): TranscriptMessage[] => [
  {
    id: `m${++messageId}`,
    role: 'user',
    content: 'Can you help with this one?',
    questionIndex,
    isError: false,
    files: [],
    createdAt: at(seconds - 1),
  },
  {
    id: `m${++messageId}`,
    role: 'assistant',
    content: reply,
    questionIndex,
    isError: false,
    files: [],
    createdAt: at(seconds),
    ...(planted ? { planted: { questionIndex, ...planted } } : {}),
  },
];

describe('aided and unaided ability and reliance in GET /api/exams/{examId}/insights', () => {
  const clock = fakeClock(T0);
  const transcripts = fakeTranscripts();
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { clock, transcripts } });
  });
  afterAll(() => app.close());

  /**
   * Starts an attempt at T0, stores its answers and their operations as the autosave would (written straight to
   * the tables, so the fixture holds whatever the room's section rules let a page send), and submits at 120 s.
   */
  async function sit(examId: string, name: string, given: Record<number, Answer | string>) {
    clock.advance(T0.getTime() - clock.now().getTime());
    const attempt = await startAttempt(app, examId, { name, studentId: `${name}-${examId}` });
    for (const [index, raw] of Object.entries(given)) {
      const answer = typeof raw === 'string' ? { value: raw, savedAt: 60 } : raw;
      const questionIndex = Number(index);
      await app.db.insert(answers).values({
        attemptId: attempt.attemptId,
        questionIndex,
        answer: answer.value,
        seq: 1,
        updatedAt: new Date(at(answer.savedAt)),
        operationsEnd: answer.ops?.length ?? 0,
      });
      if (answer.ops)
        await app.db.insert(answerOperations).values({
          attemptId: attempt.attemptId,
          questionIndex,
          start: 0,
          end: answer.ops.length,
          ops: answer.ops,
          bytes: JSON.stringify(answer.ops).length,
        });
    }
    clock.advance(120_000);
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submit.statusCode).toBe(200);
    return { attemptId: attempt.attemptId, resultId: submit.json<{ resultId: string }>().resultId };
  }

  /**
   * Eight candidates. Their marks (1 right, 0 wrong, – blank), the fixture of the ability check:
   *        U1 U2 U3 U4 | A1 A2 A3 A4
   *   Pat   1  0  0  –  | 0  –  1  1
   *   Quin  1  1  0  0  | 1  1  0  1
   *   Rae   0  0  0  0  | 0  1  1  1
   *   Sol   1  1  1  0  | 1  1  1  0
   *   Tam   1  1  1  1  | 1  0  0  0
   *   Val   0  1  0  1  | 0  1  1  1
   *   Wen   1  0  1  0  | 1  0  0  1
   *   Xan   0  0  1  1  | 0  1  1  0
   */
  const MARKS = [
    [1, 0, 0, null, 0, null, 1, 1],
    [1, 1, 0, 0, 1, 1, 0, 1],
    [0, 0, 0, 0, 0, 1, 1, 1],
    [1, 1, 1, 0, 1, 1, 1, 0],
    [1, 1, 1, 1, 1, 0, 0, 0],
    [0, 1, 0, 1, 0, 1, 1, 1],
    [1, 0, 1, 0, 1, 0, 0, 1],
    [0, 0, 1, 1, 0, 1, 1, 0],
  ];
  const mark = (row: number, j: number) => (MARKS[row]![j] === 1 ? 'x' : 'y');
  const unaided = (row: number) => Object.fromEntries([0, 1, 2, 3].map((j) => [j, mark(row, j)]));

  async function cohort() {
    const exam = app.exams.put(buildInternalExam({ questions, sections, aiSettings }));
    const owner = creatorHeaders(app, exam.ownerId);
    const { 3: _blank, ...patUnaided } = unaided(0);
    // Reliance, worked case by case in the test below.
    const pat = await sit(exam.id, 'Pat', {
      ...patUnaided,
      [A1]: {
        value: 'Lyon',
        savedAt: 25,
        ops: [
          [10_000, 0, 'Paris', 0],
          [25_000, 0, 5, 'Lyon', 0],
        ],
      },
      [A3]: chose('Oxygen', 35_000),
      7: 'x',
    });
    const quin = await sit(exam.id, 'Quin', {
      ...unaided(1),
      [A1]: chose('Paris', 10_000),
      [A2]: chose('42', 30_000),
      [A3]: chose('Nitrogen', 5_000),
      7: 'x',
    });
    const rae = await sit(exam.id, 'Rae', {
      ...unaided(2),
      [A1]: 'Nice',
      // No operations recorded: the answer counts from its save at 10 s, as the timeline closes the gap.
      [A2]: { value: '42', savedAt: 10 },
      [A3]: {
        value: 'Oxygen',
        savedAt: 55,
        ops: [
          [5_000, 0, 'Helium', 0],
          [55_000, 0, 6, 'Oxygen', 0],
        ],
      },
      7: 'x',
    });
    const sol = await sit(exam.id, 'Sol', {
      ...unaided(3),
      [A1]: 'Paris',
      [A2]: {
        value: '42',
        savedAt: 25,
        ops: [
          [10_000, 0, '41', 0],
          [25_000, 0, 2, '42', 0],
        ],
      },
      [A3]: 'Oxygen',
      7: 'y',
    });
    const others = [
      ['Tam', { [A1]: 'Paris', [A2]: '41', [A3]: 'Nitrogen', 7: 'y' }],
      ['Val', { [A1]: 'Lille', [A2]: '42', [A3]: 'Oxygen', 7: 'x' }],
      ['Wen', { [A1]: 'Paris', [A2]: '40', [A3]: 'Helium', 7: 'x' }],
      ['Xan', { [A1]: 'Lyon', [A2]: '42', [A3]: 'Oxygen', 7: 'y' }],
    ] as const;
    const rest = [];
    for (const [i, [name, aided]] of others.entries())
      rest.push(await sit(exam.id, name, { ...unaided(4 + i), ...aided }));

    transcripts.put(exam.id, {
      attemptId: pat.attemptId,
      messages: [
        ...turn(20, A1, 'It is Lyon, the old capital.', { error: 'Lyon', verified: true }),
        ...turn(30, A3, 'We breathe in oxygen.'),
      ],
    });
    transcripts.put(exam.id, {
      attemptId: quin.attemptId,
      messages: [
        ...turn(20, A1, 'That would be Lyon.', { error: 'Lyon', verified: true }),
        ...turn(22, A2, 'Six sevens are 41.', { error: '41', verified: true }),
        ...turn(30, A3, 'Oxygen is what the lungs take in.'),
      ],
    });
    transcripts.put(exam.id, {
      attemptId: rae.attemptId,
      messages: [
        ...turn(15, A1, 'Think about where the government sits.'),
        ...turn(40, A2, 'The answer is 42.'),
        ...turn(50, A3, 'Oxygen.'),
      ],
    });
    transcripts.put(exam.id, {
      attemptId: sol.attemptId,
      messages: [
        // Asked to plant, but the reply left the error out: not a planted turn, and no key either.
        ...turn(12, A1, 'Check a map of France.', { error: 'Lyon', verified: false }),
        ...turn(20, A2, 'It is 42.'),
      ],
    });
    return { exam, owner, pat, quin, rae, sol, all: [pat, quin, rae, sol, ...rest] };
  }

  const insights = async (examId: string, headers: Record<string, string>): Promise<InsightsReport> => {
    const response = await app.inject({ method: 'GET', url: `/api/exams/${examId}/insights`, headers });
    expect(response.statusCode).toBe(200);
    return InsightsReportSchema.parse(response.json());
  };

  it('gives each candidate aided and unaided ability from the sections, blanks missing, as the model fits the marks', async () => {
    const { exam, owner, all, rae } = await cohort();
    const report = await insights(exam.id, owner);
    // The same model on the hand-written matrix: the service must have put each question in its set, scored full
    // points 1 and anything else 0, and left Pat's blank U4 and A2 out rather than wrong.
    const fit = fitAidedAbility(MARKS, SETS);
    expect(fit.reason).toBeUndefined();
    all.forEach(({ resultId }, row) => {
      const ability = report.candidates.find((c) => c.resultId === resultId)?.ability;
      const expected = fit.candidates[row]!;
      expect(ability?.aided.theta).toBeCloseTo(expected.aided.theta!, 6);
      expect(ability?.aided.se).toBeCloseTo(expected.aided.se!, 6);
      expect(ability?.unaided.theta).toBeCloseTo(expected.unaided.theta!, 6);
      expect(ability?.unaided.se).toBeCloseTo(expected.unaided.se!, 6);
      expect(ability?.gap.estimate).toBeCloseTo(expected.gap.estimate!, 6);
      expect(ability?.gap.low).toBeCloseTo(expected.gap.low!, 6);
      expect(ability?.gap.high).toBeCloseTo(expected.gap.high!, 6);
      expect(ability?.gap.flag).toBe(expected.gap.flag);
      // The interval is the estimate ± 1.96 standard errors.
      expect(ability!.gap.high! - ability!.gap.estimate!).toBeCloseTo(1.96 * ability!.gap.se!, 2);
    });
    // Rae got every unaided question wrong and most aided ones right: the widest gap of the cohort.
    const gaps = report.candidates.map((c) => [c.resultId, c.ability!.gap.estimate!] as const);
    expect(gaps.reduce((a, b) => (b[1] > a[1] ? b : a))[0]).toBe(rae.resultId);
    // The ranking's ability is still the one-dimensional figure.
    expect(report.candidates.every((c) => typeof c.abilityScore === 'number')).toBe(true);

    expect(report.aidedAbility).toMatchObject({
      available: true,
      reason: null,
      items: { aided: 4, unaided: 4 },
      converged: fit.converged,
    });
    expect(report.aidedAbility?.population?.correlation).toBeCloseTo(fit.population!.correlation, 6);
    expect(report.aidedAbility?.gap?.mean).toBeCloseTo(fit.gap!.estimates!.mean, 6);
    expect(report.aidedAbility?.gap?.quantiles?.p50).toBeCloseTo(fit.gap!.estimates!.quantiles.p50, 6);
    expect(report.aidedAbility?.gap?.reliability).toBeCloseTo(fit.gap!.reliability!, 6);
    expect(report.aidedAbility?.gap?.flagged).toEqual(fit.gap!.flagged);
    expect(report.explanations['candidate.abilityGap']).toMatch(/95% interval/);
  });

  it('computes RAIR, RSR and error adoption exactly as worked by hand', async () => {
    const { exam, owner, pat, quin, rae, sol } = await cohort();
    const report = await insights(exam.id, owner);
    const of = (resultId: string) => report.candidates.find((c) => c.resultId === resultId)!.reliance!;
    /*
     * One case per keyed question with advice (before = the answer just before the first assistant turn on it):
     *   Pat  A1 before Paris (right), planted Lyon (AI wrong), submitted Lyon  → RSR 0/1, adopted 1/1
     *        A3 before blank (wrong), reply says Oxygen (AI right), submitted Oxygen → RAIR 1/1
     *   Quin A1 before Paris (right), planted Lyon, submitted Paris            → RSR 1/1, adopted 0/1
     *        A2 before blank, planted 41, submitted 42                         → adopted 0/1 (not in RSR: first wrong)
     *        A3 before Nitrogen (wrong), reply Oxygen (right), kept Nitrogen   → RAIR 0/1
     *   Rae  A1 reply states neither the key nor an error                      → no case
     *        A2 before 42 (saved at 10 s, no operations), reply 42             → first right, AI right: in neither
     *        A3 before Helium (wrong), reply Oxygen, submitted Oxygen          → RAIR 1/1
     *   Sol  A1 unverified planted turn, no key in it                          → no case
     *        A2 before 41 (wrong), reply 42 (right), submitted 42              → RAIR 1/1
     * Per candidate: Pat RAIR 1/1, RSR 0/1, adoption 1/1; Quin RAIR 0/1, RSR 1/1, adoption 0/2;
     *                Rae RAIR 1/1, RSR –, adoption –; Sol RAIR 1/1, RSR –, adoption –.
     * Pooled: RAIR (1+0+1+1)/(1+1+1+1) = 3/4; RSR (0+1)/(1+1) = 1/2; adoption (1+0)/(1+2) = 1/3; 8 cases.
     * Mean of candidates: RAIR (1+0+1+1)/4 = 0.75; RSR (0+1)/2 = 0.5; adoption (1+0)/2 = 0.5.
     */
    expect(of(pat.resultId)).toMatchObject({
      rair: { value: 1, numerator: 1, denominator: 1 },
      rsr: { value: 0, numerator: 0, denominator: 1 },
      errorAdoption: { value: 1, numerator: 1, denominator: 1 },
      cases: 2,
      planted: [{ questionIndex: A1, error: 'Lyon', adopted: true }],
    });
    expect(of(quin.resultId)).toMatchObject({
      rair: { value: 0, numerator: 0, denominator: 1 },
      rsr: { value: 1, numerator: 1, denominator: 1 },
      errorAdoption: { value: 0, numerator: 0, denominator: 2 },
      cases: 3,
      planted: [
        { questionIndex: A1, error: 'Lyon', adopted: false },
        { questionIndex: A2, error: '41', adopted: false },
      ],
    });
    expect(of(rae.resultId)).toMatchObject({
      rair: { value: 1, numerator: 1, denominator: 1 },
      rsr: { value: null, numerator: 0, denominator: 0 },
      errorAdoption: { value: null, denominator: 0 },
      cases: 2,
      planted: [],
    });
    expect(of(sol.resultId)).toMatchObject({ rair: { value: 1, denominator: 1 }, cases: 1, planted: [] });

    expect(report.reliance).toMatchObject({
      plantedErrors: true,
      pooled: {
        rair: { value: 0.75, numerator: 3, denominator: 4 },
        rsr: { value: 0.5, numerator: 1, denominator: 2 },
        errorAdoption: { numerator: 1, denominator: 3 },
        cases: 8,
      },
      meanOfCandidates: {
        rair: { value: 0.75, candidates: 4 },
        rsr: { value: 0.5, candidates: 2 },
        errorAdoption: { value: 0.5, candidates: 2 },
      },
      plantedByQuestion: [
        { questionIndex: A1, turns: 2, adopted: 1 },
        { questionIndex: A2, turns: 1, adopted: 0 },
      ],
    });
    expect(report.reliance?.pooled.errorAdoption.value).toBeCloseTo(1 / 3, 12);
  });

  it('exports the ability and reliance columns in the results CSV, as the report gives them', async () => {
    const { exam, owner, pat, rae } = await cohort();
    const report = await insights(exam.id, owner);
    const csv = await app.inject({ method: 'GET', url: `/api/exams/${exam.id}/results.csv`, headers: owner });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.split('\r\n').filter(Boolean);
    const header = lines[0]!.split(',');
    const rowOf = (name: string) => {
      const cells = lines.find((l) => l.startsWith(`${name},`))!.split(',');
      return (column: string) => cells[header.indexOf(column)];
    };
    const thousandths = (v: number | null | undefined) => String(Math.round(v! * 1000) / 1000);
    const patCells = rowOf('Pat');
    const patAbility = report.candidates.find((c) => c.resultId === pat.resultId)!.ability!;
    expect(patCells('aidedTheta')).toBe(thousandths(patAbility.aided.theta));
    expect(patCells('aidedSe')).toBe(thousandths(patAbility.aided.se));
    expect(patCells('unaidedTheta')).toBe(thousandths(patAbility.unaided.theta));
    expect(patCells('unaidedSe')).toBe(thousandths(patAbility.unaided.se));
    expect(patCells('abilityGap')).toBe(thousandths(patAbility.gap.estimate));
    expect(patCells('abilityGapLow')).toBe(thousandths(patAbility.gap.low));
    expect(patCells('abilityGapHigh')).toBe(thousandths(patAbility.gap.high));
    expect(patCells('abilityGapFlag')).toBe(patAbility.gap.flag ?? 'none');
    expect(['rair', 'rairNumerator', 'rairDenominator'].map(patCells)).toEqual(['1', '1', '1']);
    expect(['rsr', 'rsrNumerator', 'rsrDenominator'].map(patCells)).toEqual(['0', '0', '1']);
    expect(['errorAdoption', 'errorAdoptionNumerator', 'errorAdoptionDenominator'].map(patCells)).toEqual([
      '1',
      '1',
      '1',
    ]);
    // No case for RSR: blank figure, its counts 0 of 0.
    expect(['rsr', 'rsrNumerator', 'rsrDenominator'].map(rowOf('Rae'))).toEqual(['', '0', '0']);
    expect(rae.resultId).toBeTruthy();
  });

  it('keeps the sets the candidates sat when the exam changes later, and says why when they sat no contrast', async () => {
    const { exam, owner } = await cohort();
    const before = await insights(exam.id, owner);
    expect(before.aidedAbility).toMatchObject({ available: true, items: { aided: 4, unaided: 4 } });
    // The creator later gives every section the assistant: the attempts' snapshots still say which questions
    // were sat without it, and the figures rest on what the candidates sat.
    app.exams.put({ ...exam, sections: sections.map((s) => ({ ...s, assistant: true, timeLimitMinutes: null })) });
    const after = await insights(exam.id, owner);
    expect(after.aidedAbility).toMatchObject({ available: true, items: { aided: 4, unaided: 4 } });
    expect(after.candidates.map((c) => c.ability)).toEqual(before.candidates.map((c) => c.ability));

    // An exam sat with the assistant in every section has no unaided set.
    const allAided = app.exams.put(
      buildInternalExam({
        questions,
        sections: sections.map((s) => ({ ...s, assistant: true })),
        aiSettings,
        ownerId: exam.ownerId,
      }),
    );
    for (const name of ['Ann', 'Ben']) await sit(allAided.id, name, { 0: 'x', [A1]: 'Paris' });
    const report = await insights(allAided.id, owner);
    expect(report.aidedAbility).toMatchObject({
      available: false,
      reason: AIDED_ABILITY_REASONS.noSets,
      items: { aided: 0, unaided: 0 },
      population: null,
      gap: null,
    });
    expect(report.reasons.aidedAbility).toBe(AIDED_ABILITY_REASONS.noSets);
    expect(report.candidates.every((c) => c.ability === null)).toBe(true);
  });

  it('leaves reliance null with the reason when llm-gateway is down, and the ability still computed', async () => {
    const { exam, owner } = await cohort();
    transcripts.down = true;
    try {
      const report = await insights(exam.id, owner);
      expect(report.reliance).toBeNull();
      expect(report.reasons.reliance).toMatch(/llm-gateway is unavailable/);
      expect(report.candidates.every((c) => c.reliance === null)).toBe(true);
      expect(report.aidedAbility?.available).toBe(true);
    } finally {
      transcripts.down = false;
    }
  });

  it('has no reliance figures for an exam without planted errors where nobody asked about a keyed question', async () => {
    const exam = app.exams.put(buildInternalExam({ questions: questions.map((q) => ({ ...q, plantedError: null })) }));
    const owner = creatorHeaders(app, exam.ownerId);
    for (const name of ['Ann', 'Ben']) await sit(exam.id, name, { 0: 'x', [A1]: 'Paris' });
    const report = await insights(exam.id, owner);
    expect(report.reliance).toBeNull();
    expect(report.candidates.map((c) => c.reliance)).toEqual([null, null]);
    // Sections unset: no aided/unaided contrast either.
    expect(report.aidedAbility).toMatchObject({ available: false, reason: AIDED_ABILITY_REASONS.noSets });
  });
});
