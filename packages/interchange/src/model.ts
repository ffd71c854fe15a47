import { type NotImported, type ImportPreview } from '@exam/domain/interchange';
import { type Passage } from '@exam/domain/passages';
import { QuestionSchema, type Question } from '@exam/domain/question';

/** What a reader produces: questions that passed the platform's own validation, and the rest with reasons. */
export type ReadResult = Omit<ImportPreview, 'format'>;

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
  readonly warnings: NotImported[] = [];
  private n = 0;

  /** A question that is imported but loses something: listed in the preview beside it. */
  warn(ref: string, title: string, reason: string): void {
    this.warnings.push({ ref, title: title.slice(0, 200), reason });
  }

  add(ref: string, draft: QuestionDraft): boolean {
    const n = ++this.n;
    const id = draft.id ?? `q${n}`;
    const parsed = QuestionSchema.safeParse({ ...draft, id, title: draft.title.slice(0, 500) });
    if (parsed.success) {
      this.questions.push(parsed.data);
      return true;
    }
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    this.skip(ref, draft.title, `Not a valid question on this platform${where}: ${issue?.message ?? 'invalid'}`);
    return false;
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
