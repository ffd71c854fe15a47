import type { BankQuestion } from '@exam/domain/bank';
import type { Question } from '@exam/domain/exam';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { ConfirmDialog } from '@exam/ui/dialog';
import { EmptyState } from '@exam/ui/empty-state';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { PageHeader } from '@exam/ui/page-header';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { Library, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import {
  useBankQuestions,
  useDeleteBankQuestion,
  useSaveBankQuestion,
  useUpdateBankQuestion,
} from '../../../lib/bank-api.ts';
import { BankQuestionDialog, TYPE_LABELS } from './bank-question-dialog.tsx';
import { questionName } from '../../../lib/display-names.ts';

type Editing = { bankQuestion: BankQuestion | undefined } | null;

/**
 * The creator's question bank (docs/product.md#question-bank): questions saved once, found by text or topic,
 * edited, deleted, and added to exams from the exam editor's "Add from bank".
 */
export function QuestionBank() {
  const [search, setSearch] = useState('');
  const [topic, setTopic] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<BankQuestion | null>(null);
  const bank = useBankQuestions({ search, topic });
  const create = useSaveBankQuestion();
  const update = useUpdateBankQuestion();
  const remove = useDeleteBankQuestion();

  const onError = (error: unknown) => toast.error(userMessageOf(error));
  const save = (question: Question) => {
    const done = { onSuccess: () => (setEditing(null), toast.success('Question saved')), onError };
    const current = editing?.bankQuestion;
    if (current) update.mutate({ bankId: current.id, question }, done);
    else create.mutate({ question }, done);
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => (setDeleting(null), toast.success('Question deleted from your bank')),
      onError,
    });
  };
  const questions = bank.data ?? [];

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Question bank"
        description="Questions you save once and copy into any of your exams."
        actions={
          <Button onClick={() => setEditing({ bankQuestion: undefined })}>
            <Plus aria-hidden className="h-4 w-4" /> New question
          </Button>
        }
      />
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Search">
          <Input placeholder="Words in the question" value={search} onChange={(e) => setSearch(e.target.value)} />
        </Field>
        <Field label="Topic">
          <Input placeholder="e.g. Recursion" value={topic} onChange={(e) => setTopic(e.target.value)} />
        </Field>
      </div>
      <Card>
        {bank.isError ? (
          <p className="p-5 text-sm text-danger">{userMessageOf(bank.error)}</p>
        ) : bank.isSuccess && questions.length === 0 ? (
          <EmptyState
            icon={<Library aria-hidden />}
            title={search || topic ? 'No questions match' : 'Your bank is empty'}
            description="Save a question from the exam editor's Save to bank, or add one here."
          />
        ) : (
          <Table aria-label="Question bank">
            <TableHead>
              <tr>
                <TableHeaderCell>Question</TableHeaderCell>
                <TableHeaderCell>Type</TableHeaderCell>
                <TableHeaderCell>Topic</TableHeaderCell>
                <TableHeaderCell>Points</TableHeaderCell>
                <TableHeaderCell>
                  <span className="sr-only">Actions</span>
                </TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {questions.map((b) => (
                <TableRow key={b.id} data-testid="bank-row">
                  <TableCell className="max-w-96 truncate font-medium text-ink">
                    {questionName(b.question.title)}
                  </TableCell>
                  <TableCell>{TYPE_LABELS[b.question.type]}</TableCell>
                  <TableCell>{b.question.topic || '—'}</TableCell>
                  <TableCell className="tabular-nums">{b.question.points}</TableCell>
                  <TableCell className="text-right">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Edit ${questionName(b.question.title)}`}
                      onClick={() => setEditing({ bankQuestion: b })}
                    >
                      <Pencil aria-hidden className="h-4 w-4" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="text-danger"
                      aria-label={`Delete ${questionName(b.question.title)}`}
                      onClick={() => setDeleting(b)}
                    >
                      <Trash2 aria-hidden className="h-4 w-4" />
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Card>
      {editing && (
        <BankQuestionDialog
          key={editing.bankQuestion?.id ?? 'new'}
          open
          question={editing.bankQuestion?.question}
          isPending={create.isPending || update.isPending}
          onOpenChange={(open) => !open && setEditing(null)}
          onSave={save}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this question from your bank?"
        description={
          deleting
            ? `"${questionName(deleting.question.title)}" will be deleted from your bank. Exams you already added it to keep their copy.`
            : ''
        }
        confirmLabel="Delete"
        destructive
        isPending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
