import { QuestionSchema } from '@exam/domain/exam';
import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { BookmarkPlus } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { useSaveBankQuestion } from '../../../../lib/bank-api.ts';
import type { ExamFormInput } from './exam-form-model.ts';

/** Saves the question as it stands in the editor to the creator's bank (docs/product.md#question-bank). */
export function SaveToBankButton({ index }: { index: number }) {
  const { getValues } = useFormContext<ExamFormInput>();
  const save = useSaveBankQuestion();
  const n = index + 1;
  const onSave = () => {
    const parsed = QuestionSchema.safeParse(getValues(`questions.${index}`));
    if (!parsed.success) {
      toast.error(`Question ${n} cannot be saved yet: ${parsed.error.issues[0]?.message ?? 'it is incomplete'}.`);
      return;
    }
    const question = { ...parsed.data, title: parsed.data.title.trim() || `Question ${n}` };
    save.mutate(
      { question },
      {
        onSuccess: () => toast.success(`Question ${n} saved to your question bank`),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={save.isPending}
      aria-label={`Save to bank: question ${n}`}
      onClick={onSave}
    >
      <BookmarkPlus aria-hidden className="h-4 w-4" /> Save to bank
    </Button>
  );
}
