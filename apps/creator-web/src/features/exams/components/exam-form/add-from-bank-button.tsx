import { copyForExam } from '@exam/domain/bank';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { Input } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Library } from 'lucide-react';
import { useState } from 'react';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { useBankQuestions } from '../../../../lib/bank-api.ts';
import { newQuestionId, type QuestionInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

/**
 * Picks questions of the bank and appends copies of them to the exam (new ids, no rubric, pool or section: those
 * name parts of the exam the question came from), so a later edit of the bank never changes this exam.
 */
export function AddFromBankButton({ onAdd }: { onAdd: (questions: QuestionInput[]) => void }) {
  const { t } = useTranslation(['editor', 'common']);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const bank = useBankQuestions({ search }, open);
  const questions = bank.data ?? [];
  const close = () => {
    setOpen(false);
    setChosen([]);
  };
  const add = () => {
    const picked = questions.filter((b) => chosen.includes(b.id));
    onAdd(picked.map((b) => ({ ...copyForExam(b.question, newQuestionId()), sectionId: null })));
    toast.success(t('addFromBankButton.added', { count: picked.length }));
    close();
  };
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Library aria-hidden className="h-4 w-4" /> {t('addFromBankButton.addFromBank')}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? setOpen(true) : close())}
        title={t('addFromBankButton.addFromYourQuestion')}
        description={t('addFromBankButton.theQuestionsAreCopied')}
        className="w-[min(92vw,40rem)]"
        footer={
          <>
            <Button variant="secondary" onClick={close}>
              {t('addFromBankButton.cancel')}
            </Button>
            <Button disabled={chosen.length === 0} onClick={add}>
              {chosen.length === 0
                ? t('addFromBankButton.addNone')
                : t('addFromBankButton.addCount', { count: chosen.length })}
            </Button>
          </>
        }
      >
        <Input
          aria-label={t('addFromBankButton.searchTheBank')}
          placeholder={t('addFromBankButton.searchByTextOr')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <div className="mt-3 flex max-h-80 flex-col gap-1 overflow-y-auto">
          {bank.isPending && <p className="text-sm text-muted">{t('addFromBankButton.loading')}</p>}
          {bank.isError && <p className="text-sm text-danger">{userMessageOf(bank.error)}</p>}
          {bank.isSuccess && questions.length === 0 && (
            <p className="text-sm text-muted">
              {t('addFromBankButton.noQuestionsInYour')}
              {search ? t('addFromBankButton.match') : t('addFromBankButton.yet')}.
            </p>
          )}
          {questions.map((b) => (
            <label key={b.id} className="flex items-start gap-2 rounded-md p-2 text-sm hover:bg-canvas">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 accent-brand-600"
                checked={chosen.includes(b.id)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, b.id] : c.filter((id) => id !== b.id)))}
              />
              <span>
                <span className="font-medium text-ink">{b.question.title}</span>
                <span className="text-muted">
                  {' '}
                  · {t(`common:questionType.${b.question.type}`)}
                  {b.question.topic ? ` · ${b.question.topic}` : ''}
                </span>
              </span>
            </label>
          ))}
        </div>
      </Dialog>
    </>
  );
}
