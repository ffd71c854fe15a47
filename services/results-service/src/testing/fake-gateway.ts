import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CollaborationSuggestionRequestSchema,
  type CollaborationSuggestionReply,
  type CollaborationSuggestionRequest,
} from '@exam/domain/collaboration';
import {
  InternalSuggestRequestSchema,
  type InternalSuggestReply,
  type InternalSuggestRequest,
  type SuggestionAvailability,
  type SuggestionSample,
} from '@exam/domain/question-grading';
import { TEST_SECRETS } from '@exam/server-kit/testing';
import { createHttpGradingSuggester } from '../adapters/grading-suggestions.ts';

/** What the fake gateway answers one suggestion request with: a reply, or an error status and message. */
export type FakeSuggestAnswer =
  | { samples: SuggestionSample[]; usage?: InternalSuggestReply['usage'] }
  | { status: 409 | 429 | 502 | 503; message?: string };

export type SuggestCall = { examId: string; request: InternalSuggestRequest; headers: IncomingMessage['headers'] };

export type CollaborationCall = { examId: string; request: CollaborationSuggestionRequest };
/** What the fake gateway answers a collaboration suggestion with: the reply, or an error status and message. */
export type FakeCollaborationAnswer =
  CollaborationSuggestionReply | { status: 409 | 429 | 502 | 503; message?: string };

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * llm-gateway's internal grading routes on a real HTTP port, so results-service's adapter and its error mapping are
 * exercised as in production: POST /internal/exams/{examId}/grading-suggestions (checked against
 * InternalSuggestRequestSchema) and GET /internal/exams/{examId}/grading-usage. Records every request, counts the
 * suggestion calls in flight (and the most at once), and answers as `answer` says, after `delayMs`.
 */
export async function startFakeGateway() {
  const calls: SuggestCall[] = [];
  const collaborationCalls: CollaborationCall[] = [];
  let inFlight = 0;
  let inFlightPeak = 0;
  /** Provider calls in flight: the gateway asks for every sample of an answer at once. */
  let samplesInFlight = 0;
  let samplesPeak = 0;
  const state = {
    delayMs: 0,
    /** Answers each call; by default every sample gives 1 point, quoting nothing. */
    answer: (call: SuggestCall): FakeSuggestAnswer | Promise<FakeSuggestAnswer> => ({
      samples: Array.from({ length: call.request.samples }, () => ({
        points: 1,
        rubric: [],
        rationale: 'Fine.',
        quote: '',
      })),
    }),
    /** Answers each collaboration suggestion; by default level 2 on both, quoting nothing. */
    answerCollaboration: (_call: CollaborationCall): FakeCollaborationAnswer => ({
      framing: { level: 2, rationale: 'Mixed.', quotes: [] },
      verification: { level: 2, rationale: 'Sometimes.', quotes: [] },
      provider: 'openai',
      model: 'gpt-test',
      usage: { inputTokens: 900, outputTokens: 120 },
    }),
  };
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => (text += part));
    req.on('end', () => {
      void handle(req, res, text).catch((err: unknown) =>
        send(res, 500, { error: { code: 'INTERNAL', message: String(err) } }),
      );
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, text: string) {
    if (req.headers['x-internal-token'] !== TEST_SECRETS.INTERNAL_TOKEN)
      return send(res, 401, { error: { code: 'UNAUTHENTICATED', message: 'internal token' } });
    const usage = /^\/internal\/exams\/([^/]+)\/grading-usage$/.exec(req.url ?? '');
    if (usage && req.method === 'GET') {
      const body: SuggestionAvailability = {
        available: true,
        reason: null,
        provider: 'openai',
        model: 'gpt-test',
        budgetTokens: 400_000,
        usedTokens: 0,
      };
      return send(res, 200, body);
    }
    const collaboration = /^\/internal\/exams\/([^/]+)\/collaboration-suggestions$/.exec(req.url ?? '');
    if (collaboration && req.method === 'POST') {
      const parsed = CollaborationSuggestionRequestSchema.safeParse(JSON.parse(text));
      if (!parsed.success) return send(res, 400, { error: { code: 'VALIDATION', message: parsed.error.message } });
      const call = { examId: decodeURIComponent(collaboration[1]!), request: parsed.data };
      collaborationCalls.push(call);
      const answer = state.answerCollaboration(call);
      if ('status' in answer)
        return send(res, answer.status, {
          error: { code: String(answer.status), message: answer.message ?? 'refused' },
        });
      return send(res, 200, answer);
    }
    const suggest = /^\/internal\/exams\/([^/]+)\/grading-suggestions$/.exec(req.url ?? '');
    if (!suggest || req.method !== 'POST') return send(res, 404, { error: { code: 'NOT_FOUND', message: 'no route' } });
    const parsed = InternalSuggestRequestSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return send(res, 400, { error: { code: 'VALIDATION', message: parsed.error.message } });
    const call: SuggestCall = { examId: decodeURIComponent(suggest[1]!), request: parsed.data, headers: req.headers };
    calls.push(call);
    inFlight += 1;
    inFlightPeak = Math.max(inFlightPeak, inFlight);
    samplesInFlight += call.request.samples;
    samplesPeak = Math.max(samplesPeak, samplesInFlight);
    try {
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      const answer = await state.answer(call);
      if ('status' in answer)
        return send(res, answer.status, {
          error: { code: String(answer.status), message: answer.message ?? 'refused' },
        });
      const reply: InternalSuggestReply = {
        samples: answer.samples,
        provider: 'openai',
        model: 'gpt-test',
        usage: answer.usage ?? { inputTokens: 500, outputTokens: 100 },
      };
      send(res, 200, reply);
    } finally {
      inFlight -= 1;
      samplesInFlight -= call.request.samples;
    }
  }

  // Longer than any test: a kept-alive socket the server closes just as the client reuses it would read as the
  // gateway being down (ECONNRESET), which is not what a test means to say.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    calls,
    collaborationCalls,
    /** The most suggestion requests (answers) that were in flight at once. */
    peak: () => inFlightPeak,
    /** The most provider calls (samples of the answers in flight) at once. */
    peakProviderCalls: () => samplesPeak,
    inFlight: () => inFlight,
    resetPeaks() {
      inFlightPeak = inFlight;
      samplesPeak = samplesInFlight;
    },
    /** results-service's real adapter, pointed at this fake. */
    suggester(timeoutMs = 10_000) {
      return createHttpGradingSuggester(url, TEST_SECRETS.INTERNAL_TOKEN, { timeoutMs });
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
}
export type FakeGateway = Awaited<ReturnType<typeof startFakeGateway>>;
