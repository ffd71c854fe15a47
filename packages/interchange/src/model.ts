import { type NotImported, type ImportPreview } from '@exam/domain/interchange';
import { type Passage } from '@exam/domain/passages';
import { QuestionSchema, type Question } from '@exam/domain/question';

/**
 * What a reader produces: questions that passed the platform's own validation, and the rest with reasons.
 * Passages and warnings are optional for readers that produce none (read-import.ts fills them in).
 */
export type ReadResult = Omit<ImportPreview, 'format' | 'passages' | 'warnings'> &
  Partial<Pick<ImportPreview, 'passages' | 'warnings'>>;
/** A reader's result with its passages and warnings (the Moodle and GIFT readers). */
export type FullReadResult = Omit<ImportPreview, 'format'>;

/** A question as a reader builds it: the schema's input, completed by QuestionSchema's defaults. */
export type QuestionDraft = Partial<Question> & Pick<Question, 'type' | 'title'>;

/**
 * Collects a reader's questions. Every question goes through QuestionSchema before it is kept, so an imported
 * question is exactly one the editor could have saved; one that fails is listed with the schema's reason and
 * none of it is kept (nothing half-imported).
 */
export class ImportCollector {
  readonly questions: Question[] = [];
  readonly notImported: NotImported[] = [];
  readonly passages: Passage[] = [];
  /** Parts of kept questions that were left behind (ImportPreview.warnings). */
  readonly warnings: NotImported[] = [];
  private n = 0;

  /** A question that is imported but loses something: listed in the preview beside it. */
  warn(ref: string, title: string, reason: string): void {
    this.warnings.push({ ref, title: title.slice(0, 200), reason });
  }

  /** Keeps the question if it is valid; `warnings` name what of it was not carried over and are kept with it. */
  add(ref: string, draft: QuestionDraft, warnings: readonly string[] = []): Question | undefined {
    const n = ++this.n;
    const id = draft.id ?? `q${n}`;
    const parsed = QuestionSchema.safeParse({ ...draft, id, title: draft.title.slice(0, 500) });
    if (parsed.success) {
      this.questions.push(parsed.data);
      for (const reason of warnings) this.warnings.push({ ref, title: draft.title.slice(0, 200), reason });
      return parsed.data;
    }
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    this.skip(ref, draft.title, `Not a valid question on this platform${where}: ${issue?.message ?? 'invalid'}`);
    return undefined;
  }

  skip(ref: string, title: string, reason: string): void {
    this.notImported.push({ ref, title: title.slice(0, 200), reason });
  }
}

/** A title for a question that has none: the start of its text. */
export function titleFrom(text: string, fallback: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const clean = line.replace(/[*`#>-]/g, '').trim();
  if (clean === '') return fallback;
  return clean.length > 80 ? `${clean.slice(0, 77)}…` : clean;
}
