import type { TokenUsage } from '@exam/domain/llm';
import type { StreamChunk } from '../../adapters/providers/types.ts';
import type { AnswerGuard } from './answer-guard.ts';

/** A provider reply read through the "stop solutions" guard: all that came, what the candidate would have seen. */
export type GuardedRead = {
  /** Everything the provider sent (up to where reading stopped). */
  raw: string;
  /** What the candidate's stream would have shown: the guard's releases, nothing after it stopped the reply. */
  shown: string;
  withheld: boolean;
  /** The provider's own count, when it sent one. */
  usage: TokenUsage | undefined;
};

/**
 * Reads a reply chunk by chunk through the same AnswerGuard the candidate's stream runs (stream-reply.ts), for the
 * checks that ask the assistant as a candidate would. Without a guard ("stop solutions" off) everything is shown.
 * `readAll` goes on reading the raw text after the guard stopped the reply (the audit's raw leak rate needs it);
 * otherwise reading ends there, as the candidate's stream does. `read` holds what came so far, also when the
 * stream fails part-way (a caller may estimate what a failed call spent from it).
 */
export function guardedReader(guard: AnswerGuard | undefined, opts: { readAll: boolean }) {
  const read: GuardedRead = { raw: '', shown: '', withheld: false, usage: undefined };
  return {
    read,
    async consume(chunks: AsyncIterable<StreamChunk>): Promise<GuardedRead> {
      for await (const chunk of chunks) {
        if (chunk.type === 'usage') {
          read.usage = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens, estimated: false };
          continue;
        }
        read.raw += chunk.text;
        if (read.withheld) continue;
        const step = guard ? guard.push(chunk.text) : { release: chunk.text, leak: undefined };
        read.shown += step.release;
        if (step.leak) {
          read.withheld = true;
          if (!opts.readAll) break;
        }
      }
      if (guard && !read.withheld) {
        const step = guard.end();
        read.shown += step.release;
        read.withheld = step.leak !== undefined;
      }
      return read;
    },
  };
}
