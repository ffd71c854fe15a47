import { QuestionSchema } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { toast } from '@exam/ui/toaster';
import { BookmarkPlus } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { useSaveBankQuestion } from '../../../../lib/bank-api.ts';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

/** Saves the question as it stands in the editor to the creator's bank (docs/product.md#question-bank). */
export function SaveToBankButton({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { getValues } = useFormContext<ExamFormInput>();
  const save = useSaveBankQuestion();
  const n = index + 1;
  const onSave = () => {
    const parsed = QuestionSchema.safeParse(getValues(`questions.${index}`));
    if (!parsed.success) {
      toast.error(
        t('saveToBankButton.cannotSave', {
          n,
          reason: parsed.error.issues[0]?.message ?? t('saveToBankButton.itIsIncomplete'),
        }),
      );
      return;
    }
    const question = { ...parsed.data, title: parsed.data.title.trim() || t('saveToBankButton.questionN', { n }) };
    save.mutate(
      { question },
      {
        onSuccess: () => toast.success(t('saveToBankButton.questionNSavedTo', { n })),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={save.isPending}
      aria-label={t('saveToBankButton.saveQuestionNTo', { n })}
      onClick={onSave}
    >
      <BookmarkPlus aria-hidden className="h-4 w-4" /> {t('saveToBankButton.saveToBank')}
    </Button>
  );
}
