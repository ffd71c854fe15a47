// The gateway's neighbours for the benchmark, in one process: a fake OpenAI-compatible upstream that
// streams TOKENS_PER_SECOND tokens after a FIRST_TOKEN_MS first token (a structured-output request, a
// grading suggestion, gets a sample's JSON text at the same pace), and fake exam-service and results-service
// internal routes (the benchmark creator's session included). Prints "ready <upstreamPort> <platformPort>" once both listen.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FIRST_TOKEN_MS = 300;
export const TOKENS_PER_SECOND = 50;
export const BENCH_EXAM_ID = 'bench-exam';
export const BENCH_OWNER_ID = 'bench-owner';

export const tokenText = (i: number) => `tok${i} `;

/**
 * Reliance calibration's two exams (planted.ts): the benchmark's exam with its question carrying a planted error,
 * the mode on (the default share) or off, and nothing else different. The error is a word every reply of four
 * tokens or more states ("tok3"), so the upstream needs no second script and every planted turn is verified.
 */
export const BENCH_PLANTED_EXAM_ID = 'bench-exam-planted';
export const BENCH_PLANTED_OFF_EXAM_ID = 'bench-exam-planted-off';
export const BENCH_PLANTED_ERROR = 'tok3';

/**
 * The assistant audit's exam (audit-latency.ts): the benchmark's exam with 20 keyed short answers, the size the
 * audit's goal names, owned by the same creator, whose session the fake exam-service answers as open.
 */
export const BENCH_AUDIT_EXAM_ID = 'bench-exam-audit';
export const BENCH_AUDIT_ITEMS = 20;
export const BENCH_CREATOR_SESSION = 'bench-session';

/** The agent endpoint's exam (agents.ts): the benchmark's exam with Qwen Code (Chat Completions) in the workspace. */
export const BENCH_AGENT_EXAM_ID = 'bench-exam-agent';
export const BENCH_AGENT = 'qwen-code';

/** An attempt id that names its exam, so the fake results-service answers the exam the attempt token names. */
export const attemptIdOn = (examId: string) => `${examId}~${randomUUID()}`;
const examOfAttempt = (attemptId: string) => (attemptId.includes('~') ? attemptId.split('~')[0]! : BENCH_EXAM_ID);

function chunk(content: string | null, usage?: { prompt_tokens: number; completion_tokens: number }) {
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-4o-mini' };
  const body = usage
    ? { ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
    : {
        ...base,
        choices: [
          { index: 0, delta: content === null ? {} : { content }, finish_reason: content === null ? 'stop' : null },
        ],
      };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** A grading sample as a model writes one: about 110 tokens of JSON, sent in GRADING_PIECES deltas. */
export const GRADING_SAMPLE = {
  points: 2,
  rubric: [
    { criterionId: 'c-def', points: 1 },
    { criterionId: 'c-null', points: 1 },
  ],
  rationale:
    'The answer states that the p-value is a probability computed under the null hypothesis, and ties it to data as extreme as observed. It does not say what a small value means for the decision.',
  quote: 'probability of seeing data at least this extreme',
};
const GRADING_PIECES = 25;

/** Structured output as OpenAI streams it: the JSON text in content deltas, then the usage and [DONE]. */
function structuredReply(res: ServerResponse) {
  const text = JSON.stringify(GRADING_SAMPLE);
  const size = Math.ceil(text.length / GRADING_PIECES);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  let at = 0;
  let timer: NodeJS.Timeout | undefined;
  const next = () => {
    if (res.destroyed) return;
    res.write(chunk(text.slice(at, at + size)));
    at += size;
    if (at < text.length) {
      timer = setTimeout(next, 1000 / TOKENS_PER_SECOND);
      return;
    }
    res.write(chunk(null));
    res.end(`${chunk(null, { prompt_tokens: 600, completion_tokens: GRADING_PIECES })}data: [DONE]\n\n`);
  };
  timer = setTimeout(next, FIRST_TOKEN_MS);
  res.on('close', () => clearTimeout(timer));
}

/** The client asks for its reply length with `tokens=N` in its message (the benchmark's two phases differ). */
function upstream(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (part: string) => (body += part));
  req.on('end', () => {
    if (body.includes('"json_schema"')) return structuredReply(res);
    const tokenCount = Number(/tokens=(\d+)/.exec(body)?.[1] ?? 20);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (res.destroyed) return;
      res.write(chunk(tokenText(sent)));
      sent += 1;
      if (sent < tokenCount) {
        timer = setTimeout(next, 1000 / TOKENS_PER_SECOND);
        return;
      }
      res.write(chunk(null));
      res.end(`${chunk(null, { prompt_tokens: 300, completion_tokens: tokenCount })}data: [DONE]\n\n`);
    };
    timer = setTimeout(next, FIRST_TOKEN_MS);
    res.on('close', () => clearTimeout(timer));
  });
}

const now = new Date().toISOString();
const exam = {
  id: BENCH_EXAM_ID,
  ownerId: BENCH_OWNER_ID,
  title: 'Benchmark exam',
  description: '',
  header: '',
  rules: '',
  timerEnabled: false,
  timerMinutes: 60,
  fullScreenEnabled: false,
  questions: [
    {
      id: 'q1',
      type: 'short-answer',
      title: 'What is a p-value?',
      content: '',
      topic: '',
      options: [],
      acceptedAnswers: ['secret'],
    },
  ],
  codingWorkspace: { enabled: false, saveFilesInResults: true, workspaceType: 'vscode', allowPackageRegistries: false },
  aiSettings: {
    enabled: true,
    provider: 'openai',
    model: 'gpt-4o-mini',
    baseUrl: '',
    customPrompt: 'Be brief.',
    startMessage: '',
    stopSolutions: true,
    copyLLMResponse: true,
    uploadDocuments: false,
    processCode: false,
    courseAssistanceEnabled: true,
    courseAssistanceLevel: 5,
    contextLength: 1000,
    // High enough that no budget, per attempt, exam-wide or for grading, refuses a message of the run.
    budget: {
      messagesPerWindow: 1000,
      windowMinutes: 10,
      tokensPerAttempt: 5_000_000,
      examRequestsPerHour: 100_000,
      examTokensPerHour: 100_000_000,
      gradingTokens: 100_000_000,
    },
    hasApiKey: false,
    apiKeyLast4: null,
    courseMaterials: [],
    encryptedApiKey: null,
  },
  materialTexts: [{ name: 'notes.txt', text: 'The standard error is sigma over root n. '.repeat(40) }],
  hasAccessCode: false,
  isLive: true,
  isDraft: false,
  publishedAt: now,
  createdAt: now,
  lastEditedAt: now,
  updatedAt: now,
};

const plantedExam = (id: string, enabled: boolean) => ({
  ...exam,
  id,
  questions: exam.questions.map((q) => ({ ...q, plantedError: BENCH_PLANTED_ERROR })),
  aiSettings: { ...exam.aiSettings, plantedErrors: { enabled, share: 0.3 } },
});
const auditExam = {
  ...exam,
  id: BENCH_AUDIT_EXAM_ID,
  questions: Array.from({ length: BENCH_AUDIT_ITEMS }, (_, i) => ({
    ...exam.questions[0]!,
    id: `a${i + 1}`,
    title: `Term ${i + 1}`,
    acceptedAnswers: [`keyword${String.fromCharCode(97 + i)}`],
  })),
};
const agentExam = {
  ...exam,
  id: BENCH_AGENT_EXAM_ID,
  codingWorkspace: { ...exam.codingWorkspace, enabled: true, ai: { mode: 'agent', agent: BENCH_AGENT } },
};
const exams = new Map(
  [
    exam,
    auditExam,
    agentExam,
    plantedExam(BENCH_PLANTED_EXAM_ID, true),
    plantedExam(BENCH_PLANTED_OFF_EXAM_ID, false),
  ].map((e) => [`/internal/exams/${e.id}`, JSON.stringify(e)]),
);

function platform(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('content-type', 'application/json');
  const found = exams.get(req.url ?? '');
  if (found) return res.end(found);
  if (req.url === `/internal/creator-sessions/${BENCH_CREATOR_SESSION}`)
    return res.end(JSON.stringify({ userId: BENCH_OWNER_ID }));
  // workspace-orchestrator's snapshot, which the gateway asks for at each agent call's start.
  if (req.method === 'POST' && /^\/internal\/attempts\/[^/]+\/workspace-snapshot$/.test(req.url ?? '')) {
    req.resume();
    res.statusCode = 202;
    return res.end('{}');
  }
  const attempt = /^\/internal\/attempts\/([^/]+)$/.exec(req.url ?? '');
  if (attempt) {
    const attemptId = decodeURIComponent(attempt[1]!);
    return res.end(
      JSON.stringify({
        attemptId,
        examId: examOfAttempt(attemptId),
        ownerId: BENCH_OWNER_ID,
        startedAt: now,
        deadline: null,
        submittedAt: null,
        isOpen: true,
      }),
    );
  }
  res.statusCode = 404;
  res.end('{}');
}

if (import.meta.main) {
  const listen = (handler: typeof platform) =>
    new Promise<number>((resolve) => {
      const server = createServer(handler);
      server.keepAliveTimeout = 60_000;
      server.listen(0, '127.0.0.1', 4096, () => resolve((server.address() as AddressInfo).port));
    });
  const [upstreamPort, platformPort] = await Promise.all([listen(upstream), listen(platform)]);
  console.log(`ready ${upstreamPort} ${platformPort}`);
}
