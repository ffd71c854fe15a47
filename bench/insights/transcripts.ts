// A stand-in for llm-gateway's GET /internal/exams/{id}/transcripts serving conversations for the
// seeded attempts, so the benchmark also exercises AI reference, copy writing and Reasoning.
import { createServer, type Server } from 'node:http';
import { attemptIdOf, BENCH_EXAM_ID, benchQuestions, typeOf } from './seed.ts';

/**
 * Every third candidate asks the assistant about one question (two exchanges); every ninth gets a
 * reply that contains, word for word, the wrong short answer the seed gave them, so some answers
 * count as copied.
 */
export function benchTranscripts(candidates: number, questionCount: number) {
  const questions = benchQuestions(questionCount);
  const shortAnswers = questions.flatMap((q, j) => (typeOf(j) === 'short-answer' ? [j] : []));
  const at = new Date(Date.UTC(2025, 10, 3, 9)).toISOString();
  const transcripts = [];
  for (let c = 0; c < candidates; c += 3) {
    const asked = c % questionCount;
    const topic = questions[asked]!.topic.toLowerCase();
    const reply =
      c % 9 === 0 && shortAnswers.length > 0
        ? `One way to put it: i think it is about ${questions[shortAnswers[c % shortAnswers.length]!]!.topic.toLowerCase()} and the records of part ${c % 7} — check it.`
        : `Think about how ${topic} applies to the scenario before you choose; the records are the key.`;
    const message = (n: number, role: 'user' | 'assistant', content: string) => ({
      id: `m-${c}-${n}`,
      role,
      content,
      questionIndex: asked,
      isError: false,
      files: [],
      createdAt: at,
    });
    transcripts.push({
      attemptId: attemptIdOf(c),
      messages: [
        message(1, 'user', `Can you give me a hint for question ${asked + 1}?`),
        message(2, 'assistant', reply),
        message(3, 'user', 'Thanks, and what about the second part?'),
        message(4, 'assistant', `The second part asks the same about ${topic}; reread the question.`),
      ],
    });
  }
  return { transcripts };
}

export function startTranscriptStub(
  port: number,
  internalToken: string,
  candidates: number,
  questionCount: number,
): Promise<Server> {
  const body = JSON.stringify(benchTranscripts(candidates, questionCount));
  const path = `/internal/exams/${encodeURIComponent(BENCH_EXAM_ID)}/transcripts`;
  const server = createServer((req, res) => {
    if (req.headers['x-internal-token'] !== internalToken || req.url !== path) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

/**
 * exam-service's creator-session check (ARCHITECTURE.md, "Creator sessions"): every creator request to
 * results-service asks it, so the bench's creator token names a session this stand-in reports as open.
 */
export const BENCH_SESSION_ID = 'bench-session';

export function startSessionStub(port: number, internalToken: string, ownerId: string): Promise<Server> {
  const path = `/internal/creator-sessions/${BENCH_SESSION_ID}`;
  const server = createServer((req, res) => {
    if (req.headers['x-internal-token'] !== internalToken || req.url !== path) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ userId: ownerId }));
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}
