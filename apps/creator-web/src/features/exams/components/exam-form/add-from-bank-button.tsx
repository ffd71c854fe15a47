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
import { QUESTION_TYPE_LABELS } from './question-editor.tsx';

/**
 * Picks questions of the bank and appends copies of them to the exam (new ids, no rubric or pool), so a later
 * edit of the bank never changes this exam.
 */
export function AddFromBankButton({ onAdd }: { onAdd: (questions: QuestionInput[]) => void }) {
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
    onAdd(picked.map((b) => copyForExam(b.question, newQuestionId())));
    toast.success(`Added ${picked.length} ${picked.length === 1 ? 'question' : 'questions'} from your bank`);
    close();
  };
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <Library aria-hidden className="h-4 w-4" /> Add from bank
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? setOpen(true) : close())}
        title="Add from your question bank"
        description="The questions are copied into this exam; editing the bank later does not change it."
        className="w-[min(92vw,40rem)]"
        footer={
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button disabled={chosen.length === 0} onClick={add}>
              Add {chosen.length || ''} {chosen.length === 1 ? 'question' : 'questions'}
            </Button>
          </>
        }
      >
        <Input
          aria-label="Search the bank"
          placeholder="Search by text or topic"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <div className="mt-3 flex max-h-80 flex-col gap-1 overflow-y-auto">
          {bank.isPending && <p className="text-sm text-muted">Loading…</p>}
          {bank.isError && <p className="text-sm text-danger">{userMessageOf(bank.error)}</p>}
          {bank.isSuccess && questions.length === 0 && (
            <p className="text-sm text-muted">No questions in your bank{search ? ' match' : ' yet'}.</p>
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
                  · {QUESTION_TYPE_LABELS[b.question.type]}
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
