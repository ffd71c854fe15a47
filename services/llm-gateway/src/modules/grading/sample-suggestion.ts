import type { SuggestionSample } from '@exam/domain/question-grading';
import { UpstreamError, type LlmClient, type ProviderRequest } from '../../adapters/providers/types.ts';
import { redactSecrets } from '../chat/stream-reply.ts';
import { estimatedUsage } from '../chat/transcript-writer.ts';
import { parseSample } from './suggestion-format.ts';

export type SampleUsage = { inputTokens: number; outputTokens: number };

/** How one provider call of a suggestion ended, with what it spent (reported by the provider, or estimated). */
export type SampleOutcome =
  | { kind: 'valid'; sample: SuggestionSample; usage: SampleUsage }
  /** The reply came back but is no sample: not JSON, or outside the schema (cut short by the token limit, say). */
  | { kind: 'invalid'; reason: string; usage: SampleUsage }
  /** The call failed (upstream error, timeout, abort); `reason` has the secrets redacted. */
  | { kind: 'failed'; reason: string; status: number | undefined; usage: SampleUsage };

/** A structured reply's text read as a value: JSON, then a schema. The reason never quotes the reply. */
export type ParseReply<T> = (text: string) => { ok: true; value: T } | { ok: false; reason: string };

/** How one provider call of a structured reply ended (a sample of a suggestion, a collaboration suggestion). */
export type StructuredOutcome<T> =
  | { kind: 'valid'; value: T; usage: SampleUsage }
  | { kind: 'invalid'; reason: string; usage: SampleUsage }
  | { kind: 'failed'; reason: string; status: number | undefined; usage: SampleUsage };

/**
 * One structured call: the reply streamed to its end, its text read with `parse`. Never throws. A failed call that
 * streamed some text still cost tokens: they are estimated, as the chat does when a provider reports none; a call
 * that failed before any text is counted as nothing spent.
 */
export async function sampleStructured<T>(
  llm: LlmClient,
  request: ProviderRequest,
  signal: AbortSignal,
  secrets: string[],
  parse: ParseReply<T>,
): Promise<StructuredOutcome<T>> {
  let text = '';
  let reported: SampleUsage | undefined;
  const usage = (): SampleUsage => {
    if (reported) return reported;
    if (!text) return { inputTokens: 0, outputTokens: 0 };
    const { inputTokens, outputTokens } = estimatedUsage(request, text);
    return { inputTokens, outputTokens };
  };
  try {
    for await (const chunk of llm.stream(request, signal)) {
      if (chunk.type === 'delta') text += chunk.text;
      else reported = { inputTokens: chunk.inputTokens, outputTokens: chunk.outputTokens };
    }
  } catch (err) {
    const reason = redactSecrets(err instanceof Error ? err.message : String(err), secrets);
    return { kind: 'failed', reason, status: err instanceof UpstreamError ? err.status : undefined, usage: usage() };
  }
  const parsed = parse(text);
  return parsed.ok
    ? { kind: 'valid', value: parsed.value, usage: usage() }
    : { kind: 'invalid', reason: parsed.reason, usage: usage() };
}

/** One sample of a grading suggestion, validated with the domain's SuggestionSampleSchema (sampleStructured). */
export async function sampleSuggestion(
  llm: LlmClient,
  request: ProviderRequest,
  signal: AbortSignal,
  secrets: string[],
): Promise<SampleOutcome> {
  const outcome = await sampleStructured(llm, request, signal, secrets, (text) => {
    const parsed = parseSample(text);
    return parsed.ok ? { ok: true, value: parsed.sample } : parsed;
  });
  return outcome.kind === 'valid' ? { kind: 'valid', sample: outcome.value, usage: outcome.usage } : outcome;
}
