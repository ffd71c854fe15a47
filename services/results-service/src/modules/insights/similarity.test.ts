import type { TranscriptMessage } from '@exam/domain/internal';
import type { PublicExam } from '@exam/domain/public-exam';
import { SimilarityReportSchema, type SimilarityReport } from '@exam/domain/similarity';
import { buildInternalExam } from '@exam/domain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, creatorHeaders, startAttempt, type TestApp } from '../../testing/app.ts';
import { fakeTranscripts } from '../../testing/fakes.ts';

const starterCode = 'def mean_of_positive(values):\n    # your code here\n    return 0\n';

const original = `def mean_of_positive(values):
    total = 0
    count = 0
    for v in values:
        if v > 0:
            total += v
            count += 1
    if count == 0:
        return None
    return total / count
`;

/** `original` with the names changed, comments added and the layout redone. */
const disguised = `# average of the positive numbers
def mean_of_positive( xs ) :
    s = 0 ; n = 0   # running sums
    for x in xs :
        if x > 0 :
            s += x
            n += 1
    if n == 0 : return None
    return s / n
`;

const honest = `def mean_of_positive(values):
    positives = [v for v in values if v > 0]
    return sum(positives) / len(positives) if positives else None
`;

const questions = [
  { id: 'warmup', type: 'mcq', title: 'Warm-up', options: ['a', 'b'], correctAnswer: 'a' },
  { id: 'mean', type: 'coding', title: 'Mean of the positives', language: 'python', starterCode },
  { id: 'sq', type: 'coding', title: 'Squares', language: 'python' },
];

let messageCounter = 0;
const reply = (content: string, questionIndex: number | null = null): TranscriptMessage => ({
  id: `m${++messageCounter}`,
  role: 'assistant',
  content,
  questionIndex,
  isError: false,
  files: [],
  createdAt: new Date().toISOString(),
});

describe('GET /api/exams/{examId}/insights/similarity', () => {
  const transcripts = fakeTranscripts();
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ deps: { transcripts } });
  });
  afterAll(() => app.close());

  /** Starts, answers by question id (wherever the candidate's order put it) and submits. */
  async function sit(examId: string, name: string, answers: Record<string, string>) {
    const attempt = await startAttempt(app, examId, { name, studentId: `ID-${name}` });
    const view = (
      await app.inject({ method: 'GET', url: `/api/attempts/${attempt.attemptId}/exam`, headers: attempt.headers })
    ).json() as PublicExam;
    for (const [id, answer] of Object.entries(answers)) {
      const index = view.questions.findIndex((q) => q.id === id);
      const saved = await app.inject({
        method: 'PUT',
        url: `/api/attempts/${attempt.attemptId}/answers/${index}`,
        headers: attempt.headers,
        payload: { answer, seq: 1 },
      });
      expect(saved.statusCode).toBe(200);
    }
    const submit = await app.inject({
      method: 'POST',
      url: `/api/attempts/${attempt.attemptId}/submit`,
      headers: attempt.headers,
    });
    expect(submit.statusCode).toBe(200);
    return { attemptId: attempt.attemptId, resultId: submit.json().resultId as string };
  }

  async function similarity(examId: string, headers: Record<string, string>, threshold?: number) {
    const query = threshold === undefined ? '' : `?threshold=${threshold}`;
    return app.inject({ method: 'GET', url: `/api/exams/${examId}/insights/similarity${query}`, headers });
  }
  const parse = (body: unknown): SimilarityReport => SimilarityReportSchema.parse(body);
  const meanOf = (report: SimilarityReport) => report.questions.find((q) => q.questionIndex === 1)!;
  const pairIds = (report: SimilarityReport) =>
    meanOf(report).pairs.map((p) => [p.a.resultId, p.b.resultId].sort().join('+'));

  /** Ada wrote `original`, Bob disguised a copy of it, Cy wrote his own, Dee left the starter code. */
  async function cohort(overrides: Record<string, unknown> = {}) {
    const exam = app.exams.put(buildInternalExam({ questions, similarityThreshold: 0.8, ...overrides }));
    const ada = await sit(exam.id, 'Ada', { mean: original, sq: 'print([i * i for i in range(10)])' });
    const bob = await sit(exam.id, 'Bob', { mean: disguised });
    const cy = await sit(exam.id, 'Cy', { mean: honest });
    const dee = await sit(exam.id, 'Dee', { mean: starterCode, warmup: 'a' });
    return { exam, owner: creatorHeaders(app, exam.ownerId), ada, bob, cy, dee };
  }

  it('flags a renamed and reformatted copy and leaves an honest answer and the bare starter code alone', async () => {
    const { exam, owner, ada, bob, cy } = await cohort();
    const response = await similarity(exam.id, owner);
    expect(response.statusCode).toBe(200);
    const report = parse(response.json());
    expect(report.threshold).toBe(0.8);
    expect(report.examThreshold).toBe(0.8);
    expect(report.questions.map((q) => q.questionIndex)).toEqual([1, 2]);
    const mean = meanOf(report);
    expect(mean).toMatchObject({ title: 'Mean of the positives', answered: 4, compared: 3, tooShort: 1 });
    expect(mean.isCapped).toBe(false);
    expect(pairIds(report)).toEqual([[ada.resultId, bob.resultId].sort().join('+')]);
    const [pair] = mean.pairs;
    expect(pair!.similarity).toBeGreaterThanOrEqual(0.8);
    const ids = [pair!.a, pair!.b].map((c) => ({ name: c.name, studentId: c.studentId }));
    expect(ids).toEqual(
      expect.arrayContaining([
        { name: 'Ada', studentId: 'ID-Ada' },
        { name: 'Bob', studentId: 'ID-Bob' },
      ]),
    );
    expect([pair!.a.code, pair!.b.code].sort()).toEqual([original, disguised].sort());
    expect(JSON.stringify(mean.pairs)).not.toContain(cy.resultId);
    expect(report.assistantMatchesUnavailable).toBeNull();
  });

  it('flags more pairs at a lower threshold and fewer at a higher one', async () => {
    const { exam, owner } = await cohort();
    const loose = parse((await similarity(exam.id, owner, 0.3)).json());
    const strict = parse((await similarity(exam.id, owner, 1)).json());
    const flagged = parse((await similarity(exam.id, owner, 0.8)).json());
    expect(loose.threshold).toBe(0.3);
    expect(meanOf(loose).flaggedPairs).toBeGreaterThanOrEqual(meanOf(flagged).flaggedPairs);
    expect(meanOf(strict).flaggedPairs).toBeLessThanOrEqual(meanOf(flagged).flaggedPairs);
    for (const pair of meanOf(loose).pairs) expect(pair.similarity).toBeGreaterThanOrEqual(0.3);
    // Sorted, most similar first.
    const figures = meanOf(loose).pairs.map((p) => p.similarity);
    expect(figures).toEqual([...figures].sort((a, b) => b - a));
  });

  it('defaults to the threshold saved on the exam', async () => {
    const { exam, owner } = await cohort({ similarityThreshold: 1 });
    const report = parse((await similarity(exam.id, owner)).json());
    expect(report.threshold).toBe(1);
    expect(meanOf(report).pairs.every((p) => p.similarity === 1)).toBe(true);
  });

  it('answers 400 to a threshold outside 0.3–1', async () => {
    const { exam, owner } = await cohort();
    expect((await similarity(exam.id, owner, 0.1)).statusCode).toBe(400);
    expect((await similarity(exam.id, owner, 1.5)).statusCode).toBe(400);
  });

  it('answers 404 to another creator and 401 or 403 to a candidate', async () => {
    const { exam } = await cohort();
    expect((await similarity(exam.id, creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    expect((await similarity('exam-that-does-not-exist', creatorHeaders(app, 'someone-else'))).statusCode).toBe(404);
    const candidate = await startAttempt(app, exam.id, { name: 'Eve' });
    expect([401, 403]).toContain((await similarity(exam.id, candidate.headers)).statusCode);
    expect((await similarity(exam.id, {})).statusCode).toBe(401);
  });

  it("flags an answer copied from the assistant's reply in the candidate's own conversation", async () => {
    const { exam, owner, cy, bob } = await cohort();
    transcripts.put(exam.id, {
      attemptId: cy.attemptId,
      messages: [reply(`Here is one way:\n\n\`\`\`python\n${honest}\`\`\`\n\nIt filters first.`, 1)],
    });
    // Bob's conversation holds unrelated code: his answer is not the assistant's.
    transcripts.put(exam.id, {
      attemptId: bob.attemptId,
      messages: [reply('```python\nfor i in range(3):\n    print(i * i, end=" ")\n```')],
    });
    const report = parse((await similarity(exam.id, owner)).json());
    const matches = meanOf(report).assistantMatches;
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ similarity: 1, isIdentical: true, candidate: { resultId: cy.resultId } });
    expect(matches[0]!.excerpt).toBe(honest);
  });

  it('says why assistant matches are missing when llm-gateway is down, and still compares candidates', async () => {
    const { exam, owner } = await cohort();
    transcripts.down = true;
    try {
      const report = parse((await similarity(exam.id, owner)).json());
      expect(report.assistantMatchesUnavailable).toMatch(/llm-gateway is unavailable/);
      expect(meanOf(report).pairs).toHaveLength(1);
      expect(meanOf(report).assistantMatches).toEqual([]);
    } finally {
      transcripts.down = false;
    }
  });

  it("maps a shuffled exam's answers back to the exam's questions", async () => {
    const { exam, owner, ada, bob } = await cohort({ shuffleQuestions: true });
    const report = parse((await similarity(exam.id, owner)).json());
    expect(pairIds(report)).toEqual([[ada.resultId, bob.resultId].sort().join('+')]);
    expect(meanOf(report).answered).toBe(4);
  });
});
