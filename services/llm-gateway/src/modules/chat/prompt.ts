import type { InternalExam } from '@exam/domain/internal';
import { plantedInstruction } from '@exam/domain/planted-errors';
import type { PublicPassage } from '@exam/domain/passages';
import type { PublicQuestion } from '@exam/domain/question';
import { splitGapText } from '@exam/domain/question-kinds';
import type { ProviderMessage } from '../../adapters/providers/types.ts';

/** Spec section 9: every AI request asks for at most 1000 tokens. */
export const MAX_TOKENS = 1000;
export const DEFAULT_TEMPERATURE = 0.7;

type AiSettings = InternalExam['aiSettings'];

export const PromptText = {
  base: 'You are a helpful AI assistant for a candidate taking an exam. Follow the guidelines set by the exam creator below.',
  stopSolutions:
    'Do not provide complete solutions or final answers to the exam questions. Guide the candidate with explanations, hints and questions so that they reach the answer themselves.',
  noCodeExecution:
    'Do not execute, run or debug code for the candidate, and do not predict the exact output of their code. You may explain concepts, syntax and error messages in general terms.',
} as const;

/** Spec section 9: very clear above 0.7, moderate above 0.4, otherwise ambiguous. */
export function clarityOf(level: number): 'very clear' | 'moderate' | 'ambiguous' {
  const ratio = level / 10;
  if (ratio > 0.7) return 'very clear';
  if (ratio > 0.4) return 'moderate';
  return 'ambiguous';
}

/** Spec section 9: max(0.1, 1 − level/10) when course assistance applies, 0.7 otherwise. */
export function temperatureOf(ai: Pick<AiSettings, 'courseAssistanceEnabled' | 'courseAssistanceLevel'>): number {
  if (!ai.courseAssistanceEnabled) return DEFAULT_TEMPERATURE;
  return Math.round(Math.max(0.1, 1 - ai.courseAssistanceLevel / 10) * 100) / 100;
}

/** A passage is cut to this many characters in the prompt, and all of them together to PASSAGES_MAX. */
export const PASSAGE_MAX = 6000;
export const PASSAGES_MAX = 20_000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)} […]` : text);
const list = (items: readonly string[]) => items.map((item, i) => `${i + 1}) ${item}`).join('; ');

/** The further types as the candidate sees them (PublicQuestion's fields): what to do, never the key. */
function kindLines(question: PublicQuestion): string[] {
  switch (question.type) {
    case 'essay': {
      const e = question.essay;
      const limits = [
        e?.minWords ? `at least ${e.minWords} words` : '',
        e?.maxWords ? `at most ${e.maxWords} words` : '',
      ].filter(Boolean);
      return [
        `The candidate writes an essay${limits.length ? ` (${limits.join(', ')})` : ''}${e?.formatted ? ' in a formatted editor (Markdown)' : ''}; a person marks it.`,
      ];
    }
    case 'true-false':
      return ['The candidate answers whether the statement is true or false.'];
    case 'ordering':
      return [
        `The candidate puts these items in the right order (listed here as shown, not in that order): ${list(question.items ?? [])}`,
      ];
    case 'matching':
      return [
        `The candidate picks an answer for each prompt. Prompts: ${list(question.prompts ?? [])}`,
        `Answers to pick from (some may fit none): ${(question.choices ?? []).join('; ')}`,
      ];
    case 'fill-blanks': {
      const gaps = question.gaps ?? [];
      const text = splitGapText(question.gapText ?? '')
        .map((part) => ('text' in part ? part.text : `[gap ${part.gap + 1}]`))
        .join('');
      const choices = gaps.flatMap((g, i) => (g.kind === 'choice' ? [`gap ${i + 1}: ${g.options.join(' / ')}`] : []));
      return [
        `The candidate fills in the gaps of this text:\n${text}`,
        ...(choices.length ? [`Gaps chosen from a list: ${choices.join('; ')}`] : []),
      ];
    }
    case 'numeric':
    case 'calculated': {
      const units = question.unitSymbols ?? [];
      const unitText = units.length
        ? `, in ${units.join(', ')}${question.unitRequired ? ' (the unit must be given)' : ''}`
        : '';
      return [`The candidate answers with a number${unitText}.`];
    }
    default:
      return [];
  }
}

/** A question as the assistant may see it: the candidate's view, never a key. */
function describeQuestion(question: PublicQuestion, index: number, passages: readonly PublicPassage[]): string {
  const lines = [
    `Q${index + 1}: ${question.title || `Question ${index + 1}`} (${question.type}${question.language ? `, ${question.language}` : ''})`,
  ];
  const passage = passages.findIndex((p) => p.id === question.passageId);
  if (passage >= 0)
    lines.push(
      `It refers to passage P${passage + 1}${passages[passage]!.title ? ` ("${passages[passage]!.title}")` : ''}.`,
    );
  if (question.content.trim()) lines.push(question.content.trim());
  if (question.type === 'mcq' && question.options.length) {
    lines.push(
      `Options: ${question.options.map((option, i) => `${String.fromCharCode(65 + i)}) ${option}`).join('; ')}`,
    );
  }
  lines.push(...kindLines(question));
  return lines.join('\n');
}

/** The shared passages the questions refer to, each cut to PASSAGE_MAX and all to PASSAGES_MAX characters. */
function describePassages(passages: readonly PublicPassage[]): string {
  let room = PASSAGES_MAX;
  const blocks: string[] = [];
  passages.forEach((p, i) => {
    if (room <= 0) return;
    const text = cut(cut(p.content.trim(), PASSAGE_MAX), room);
    room -= text.length;
    blocks.push(`[P${i + 1}${p.title ? `: ${p.title}` : ''}]\n${text}`);
  });
  return blocks.join('\n\n');
}

function materialsExcerpt(materials: InternalExam['materialTexts'], contextLength: number): string {
  const joined = materials
    .filter((m) => m.text.trim())
    .map((m) => `[${m.name}]\n${m.text.trim()}`)
    .join('\n\n');
  return joined.slice(0, contextLength);
}

/** questions: the candidate's view of them (answer keys are never needed, and never read). */
export type PromptInput = Pick<InternalExam, 'materialTexts'> & {
  questions: PublicQuestion[];
  /** The exam's passages the questions refer to (passagesFor), shown once each. */
  passages?: PublicPassage[] | undefined;
  aiSettings: AiSettings;
  questionIndex: number | null;
  /** A planted turn (planted-turn.ts): the error this reply is asked to state, about the question at its index. */
  planted?: { questionIndex: number; error: string } | undefined;
};

/** The system prompt, assembled by the gateway from the exam's settings (docs/product.md#the-assistant); never by the browser. */
export function buildSystemPrompt(input: PromptInput): string {
  const ai = input.aiSettings;
  const sections: string[] = [PromptText.base];
  if (input.questions.length) {
    const passages = (input.passages ?? []).filter((p) => input.questions.some((q) => q.passageId === p.id));
    sections.push(
      `The exam's questions:\n\n${input.questions.map((q, i) => describeQuestion(q, i, passages)).join('\n\n')}`,
    );
    if (passages.length) sections.push(`Passages the questions refer to:\n\n${describePassages(passages)}`);
    const current = input.questionIndex;
    if (current !== null && current >= 0 && current < input.questions.length)
      sections.push(`The candidate is currently looking at Q${current + 1}.`);
  }
  if (ai.customPrompt.trim())
    sections.push(`The exam creator's guidelines (follow them strictly):\n${ai.customPrompt.trim()}`);
  if (ai.stopSolutions) sections.push(PromptText.stopSolutions);
  if (!ai.processCode) sections.push(PromptText.noCodeExecution);
  if (ai.courseAssistanceEnabled) {
    const level = ai.courseAssistanceLevel;
    sections.push(
      `Course assistance is enabled at level ${level} of 10: help the candidate understand the course concepts behind the questions, and keep your explanations ${clarityOf(level)}.`,
    );
  }
  const excerpt = materialsExcerpt(input.materialTexts, ai.contextLength);
  if (excerpt) sections.push(`Course materials (excerpt):\n${excerpt}`);
  // Last, so nothing after it reads as taking it back; the format is the domain's, which the fakes read.
  if (input.planted) sections.push(plantedInstruction(input.planted.questionIndex + 1, input.planted.error));
  return sections.join('\n\n');
}

/**
 * The conversation as providers accept it: starts with the user, and turns alternate (consecutive
 * turns of one role, left when an error reply was dropped, are merged).
 */
export function normaliseConversation(messages: ProviderMessage[]): ProviderMessage[] {
  const result: ProviderMessage[] = [];
  for (const message of messages) {
    const last = result.at(-1);
    if (!last && message.role === 'assistant') continue;
    if (last && last.role === message.role) {
      last.content = `${last.content}\n\n${message.content}`;
      if (message.images?.length) last.images = [...(last.images ?? []), ...message.images];
      continue;
    }
    result.push({ ...message, ...(message.images ? { images: [...message.images] } : {}) });
  }
  return result;
}
