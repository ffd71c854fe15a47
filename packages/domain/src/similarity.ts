import { z } from 'zod';
import { tokenize } from './code-tokens.ts';
import type { CodingLanguage } from './question.ts';

/**
 * Code similarity of coding answers (docs/product.md#code-similarity), after MOSS: S. Schleimer, D. S. Wilkerson
 * and A. Aiken, "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003.
 *
 * Each answer is tokenised (code-tokens.ts: identifiers, numbers and strings become class tokens, comments and
 * layout vanish), every run of K consecutive tokens (a k-gram) is hashed, and winnowing keeps, from every window
 * of W consecutive k-gram hashes, the smallest (the rightmost on a tie, the paper's "robust winnowing"). The kept
 * hashes are the answer's fingerprints. The paper's guarantees, in tokens: a shared run of at least
 * W + K − 1 = 8 tokens is always caught, and a shared run shorter than K = 5 tokens never counts.
 *
 * Why K = 5 and W = 4: once names are erased, runs of 2–4 tokens (`I = I + I`, `( I )`) occur in nearly every
 * program, so K below 5 makes unrelated answers look alike; exam answers are short (often 10–60 lines), so K and
 * W much above that would leave a short answer with too few fingerprints to compare and would miss a copied
 * statement of one line (`for I in I ( I ) :` is 8 tokens, exactly the guarantee). Winnowing keeps about
 * 2/(W+1) = 40 % of the k-grams.
 *
 * The similarity of A and B is the number of fingerprints they share over the size of the smaller set: the
 * share of the shorter answer found in the other (MOSS reports "percentage of A matched" both ways; both
 * directions are reported too). Fingerprints of the question's starter code are removed first, so the
 * creator's template never makes two candidates look alike, and answers too short to judge are not compared.
 */

export const SIMILARITY_K = 5;
export const SIMILARITY_WINDOW = 4;
/** Answers with fewer tokens are too short to tell copying from the one obvious solution. */
export const MIN_SIMILARITY_TOKENS = 10;
/** Answers with fewer fingerprints left once the starter code's are removed are not compared either. */
export const MIN_SIMILARITY_FINGERPRINTS = 2;
/** At most this many answers per question are compared pairwise (n² pairs); the report says when it is reached. */
export const MAX_COMPARED_ANSWERS = 500;
/** At most this many flagged pairs (and assistant matches) per question are returned, the most similar first. */
export const MAX_REPORTED_PAIRS = 200;

/** FNV-1a, 32 bits: a fixed hash, so the same code always gives the same fingerprints. */
function hashToken(token: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The hash of each k-gram of `tokens` (none when there are fewer than k). */
export function kgramHashes(tokens: readonly string[], k = SIMILARITY_K): number[] {
  const tokenHashes = tokens.map(hashToken);
  const hashes: number[] = [];
  for (let start = 0; start + k <= tokenHashes.length; start++) {
    let h = 0;
    for (let j = start; j < start + k; j++) h = (Math.imul(h, 31) + (tokenHashes[j] as number)) >>> 0;
    hashes.push(h);
  }
  return hashes;
}

/**
 * Robust winnowing (Schleimer et al., section 4): the minimum of every window of `w` hashes, the rightmost
 * on a tie, recorded once per position. Fewer hashes than a window make one window.
 */
export function winnow(hashes: readonly number[], w = SIMILARITY_WINDOW): Set<number> {
  const kept = new Set<number>();
  if (hashes.length === 0) return kept;
  const windows = Math.max(1, hashes.length - w + 1);
  const size = Math.min(w, hashes.length);
  let lastPosition = -1;
  for (let start = 0; start < windows; start++) {
    let position = start;
    for (let j = start; j < start + size; j++) if ((hashes[j] as number) <= (hashes[position] as number)) position = j;
    if (position !== lastPosition) {
      kept.add(hashes[position] as number);
      lastPosition = position;
    }
  }
  return kept;
}

export type Fingerprint = {
  tokenCount: number;
  /** The winnowed hashes, less the starter code's. */
  hashes: ReadonlySet<number>;
  /** False when the answer is too short (or all starter code) to compare. */
  isComparable: boolean;
};

/** The fingerprints of a question's starter code, removed from every answer's. */
export function starterFingerprints(starterCode: string | undefined, language: CodingLanguage): ReadonlySet<number> {
  if (!starterCode) return new Set();
  return winnow(kgramHashes(tokenize(starterCode, language)));
}

export function fingerprint(
  code: string,
  language: CodingLanguage,
  starter: ReadonlySet<number> = new Set(),
): Fingerprint {
  const tokens = tokenize(code, language);
  const hashes = new Set([...winnow(kgramHashes(tokens))].filter((h) => !starter.has(h)));
  return {
    tokenCount: tokens.length,
    hashes,
    isComparable: tokens.length >= MIN_SIMILARITY_TOKENS && hashes.size >= MIN_SIMILARITY_FINGERPRINTS,
  };
}

export type FingerprintComparison = {
  /** Shared over the smaller set, 0–1. */
  similarity: number;
  /** Share of A's fingerprints found in B, and of B's in A. */
  aMatched: number;
  bMatched: number;
  shared: number;
};

export function compareFingerprints(a: Fingerprint, b: Fingerprint): FingerprintComparison {
  if (!a.isComparable || !b.isComparable) return { similarity: 0, aMatched: 0, bMatched: 0, shared: 0 };
  const [small, large] = a.hashes.size <= b.hashes.size ? [a.hashes, b.hashes] : [b.hashes, a.hashes];
  let shared = 0;
  for (const h of small) if (large.has(h)) shared++;
  return {
    similarity: shared / small.size,
    aMatched: shared / a.hashes.size,
    bMatched: shared / b.hashes.size,
    shared,
  };
}

/** Code and prose are equal when they differ only in layout. */
export const normalizedCode = (code: string) => code.replace(/\s+/g, ' ').trim();

/** The fenced code blocks of an assistant's Markdown reply, or the whole reply when it has none. */
export function codeBlocksOf(reply: string): string[] {
  const blocks = [...reply.matchAll(/```[^\n`]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').filter((b) => b.trim());
  return blocks.length > 0 ? blocks : [reply];
}

// --- GET /api/exams/{examId}/insights/similarity -------------------------------------------------------------

const share = z.number().min(0).max(1);
const count = z.number().int().nonnegative();

export const SimilarityCandidateSchema = z.object({
  resultId: z.string(),
  name: z.string(),
  studentId: z.string(),
  /** The submitted answer, for the side-by-side view. */
  code: z.string(),
});
export type SimilarityCandidate = z.infer<typeof SimilarityCandidateSchema>;

export const SimilarPairSchema = z.object({
  a: SimilarityCandidateSchema,
  b: SimilarityCandidateSchema,
  /** Shared fingerprints over the smaller answer's, 0–1. */
  similarity: share,
  /** Share of a's fingerprints found in b's, and the other way. */
  aMatched: share,
  bMatched: share,
  sharedFingerprints: count,
});
export type SimilarPair = z.infer<typeof SimilarPairSchema>;

export const AssistantMatchSchema = z.object({
  candidate: SimilarityCandidateSchema,
  /** Share of the answer's fingerprints found in the reply's code, 0–1 (1 when identical). */
  similarity: share,
  /** The answer equals the reply's code but for layout. */
  isIdentical: z.boolean(),
  messageId: z.string(),
  /** The reply's code block the answer matches (shortened past 4,000 characters). */
  excerpt: z.string(),
});
export type AssistantMatch = z.infer<typeof AssistantMatchSchema>;

export const QuestionSimilaritySchema = z.object({
  /** The exam's index of the question (as the creator wrote the exam, whatever order candidates saw). */
  questionIndex: z.number().int().nonnegative(),
  title: z.string(),
  language: z.string().nullable(),
  /** Candidates with a non-empty answer. */
  answered: count,
  /** Answers compared pairwise: long enough and not only starter code, at most `cap`. */
  compared: count,
  /** Answers left out for being too short or only the starter code. */
  tooShort: count,
  /** More answers than the cap: only the first `cap` (by submission time) were compared. */
  isCapped: z.boolean(),
  cap: count,
  /** Pairs at or above the threshold, most similar first; at most MAX_REPORTED_PAIRS of `flaggedPairs`. */
  pairs: z.array(SimilarPairSchema),
  flaggedPairs: count,
  /** Answers matching code the assistant gave that same candidate, most similar first. */
  assistantMatches: z.array(AssistantMatchSchema),
});
export type QuestionSimilarity = z.infer<typeof QuestionSimilaritySchema>;

export const SimilarityReportSchema = z.object({
  threshold: share,
  /** The exam's saved threshold (the default of `threshold`). */
  examThreshold: share,
  method: z.object({ k: count, window: count, minTokens: count }),
  questions: z.array(QuestionSimilaritySchema),
  /** Why assistant matches could not be looked for (llm-gateway unavailable); null when they were. */
  assistantMatchesUnavailable: z.string().nullable(),
});
export type SimilarityReport = z.infer<typeof SimilarityReportSchema>;

export const SimilarityQuerySchema = z.object({
  threshold: z.coerce.number().min(0.3, 'At least 0.3').max(1, 'At most 1').optional(),
});
