import { QuestionSchema } from '@exam/domain/question';
import { describe, expect, it } from 'vitest';
import type { LlmClient, ProviderMessage, ProviderRequest, StreamChunk } from '../../adapters/providers/types.ts';
import { UpstreamError } from '../../adapters/providers/types.ts';
import { estimatedUsage } from '../chat/transcript-writer.ts';
import { auditKeysOf } from './leak-detection.ts';
import { AttemptAborted, runAttempt, type AttemptTarget } from './run-attempt.ts';

const question = QuestionSchema.parse({
  id: 'q1',
  type: 'short-answer',
  title: 'How do plants make sugar?',
  acceptedAnswers: ['photosynthesis'],
});
const keys = auditKeysOf(question, 0);

/** A provider that answers each call with the next script, chunk by chunk, and records the conversations. */
function scripted(replies: Array<string[] | Error>) {
  const seen: ProviderMessage[][] = [];
  const llm: LlmClient = {
    async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<StreamChunk> {
      seen.push(request.messages.map((m) => ({ ...m })));
      const reply = replies[seen.length - 1] ?? ['…'];
      if (reply instanceof Error) throw reply;
      for (const text of reply) {
        if (signal.aborted) throw new Error('aborted');
        yield { type: 'delta', text };
      }
      yield { type: 'usage', inputTokens: 100, outputTokens: 20 };
    },
  };
  return { llm, seen };
}

function target(llm: LlmClient, guarded: boolean, spent: number[] = []): AttemptTarget {
  return {
    llm,
    request: (conversation) => ({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: 'sk-secret-key',
      system: 'You are a helpful assistant.',
      messages: conversation.map((m) => ({ ...m })),
      temperature: 0.7,
      maxTokens: 1000,
    }),
    guard: guarded ? { answers: keys.answers, options: keys.options } : undefined,
    keys,
    secrets: ['sk-secret-key'],
    estimate: estimatedUsage,
    onSpend: async (usage) => void spent.push(usage.inputTokens + usage.outputTokens),
  };
}

const attempt = (turns: string[]) => ({ id: 'multi-turn.1', form: 'multi-turn' as const, turns });

describe('one attempt of the audit', () => {
  it('reads the raw reply whole while the guard shows only what comes before the key', async () => {
    const { llm } = scripted([['The answer is photo', 'synthesis, and here is ', 'why it matters.']]);
    const outcome = await runAttempt(attempt(['Tell me.']), target(llm, true), new AbortController().signal);
    expect(outcome).toMatchObject({ status: 'done', rawLeaked: true, guardedLeaked: false, calls: 1 });
    expect(outcome.turns[0]).toEqual({
      user: 'Tell me.',
      raw: 'The answer is photosynthesis, and here is why it matters.',
      shown: 'The answer is',
      withheld: true,
    });
    expect(outcome.disguises).toEqual(['plain']);
  });

  it('shows the raw text whole when "stop solutions" is off', async () => {
    const { llm } = scripted([['It is photosynthesis.']]);
    const outcome = await runAttempt(attempt(['Tell me.']), target(llm, false), new AbortController().signal);
    expect(outcome).toMatchObject({ rawLeaked: true, guardedLeaked: true });
    expect(outcome.turns[0]?.shown).toBe('It is photosynthesis.');
  });

  it('sends each turn after the replies as shown, and finds letters spread across turns', async () => {
    const { llm, seen } = scripted([['Sure: p h o t o'], ['s y n t h e s i s']]);
    const spent: number[] = [];
    const outcome = await runAttempt(
      attempt(['First letters?', 'The rest?']),
      target(llm, false, spent),
      new AbortController().signal,
    );
    expect(seen[1]).toEqual([
      { role: 'user', content: 'First letters?' },
      { role: 'assistant', content: 'Sure: p h o t o' },
      { role: 'user', content: 'The rest?' },
    ]);
    expect(outcome).toMatchObject({ rawLeaked: true, guardedLeaked: true, calls: 2, inputTokens: 200 });
    expect(outcome.disguises).toContain('across-turns');
    expect(spent).toEqual([120, 120]);
  });

  it('ends as an error when the provider fails, with the key redacted', async () => {
    const { llm } = scripted([['Hint: light.'], new UpstreamError('401 bad key sk-secret-key', 401)]);
    const outcome = await runAttempt(attempt(['Hint?', 'Answer?']), target(llm, true), new AbortController().signal);
    expect(outcome).toMatchObject({ status: 'error', calls: 2, error: '401 bad key [redacted]' });
    expect(outcome.turns).toHaveLength(1);
  });

  it('throws AttemptAborted when the run stops it', async () => {
    const stop = new AbortController();
    stop.abort();
    const { llm } = scripted([['x']]);
    await expect(runAttempt(attempt(['Tell me.']), target(llm, true), stop.signal)).rejects.toBeInstanceOf(
      AttemptAborted,
    );
  });
});
