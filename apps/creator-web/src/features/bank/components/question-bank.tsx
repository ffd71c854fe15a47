import type { BankQuestion } from '@exam/domain/bank';
import type { Question } from '@exam/domain/question';
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
import { BankQuestionDialog } from './bank-question-dialog.tsx';
import { questionName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';

type Editing = { bankQuestion: BankQuestion | undefined } | null;

/**
 * The creator's question bank (docs/product.md#question-bank): questions saved once, found by text or topic,
 * edited, deleted, and added to exams from the exam editor's "Add from bank".
 */
export function QuestionBank() {
  const { t } = useTranslation(['bank', 'common']);
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
    const done = { onSuccess: () => (setEditing(null), toast.success(t('questionBank.questionSaved'))), onError };
    const current = editing?.bankQuestion;
    if (current) update.mutate({ bankId: current.id, question }, done);
    else create.mutate({ question }, done);
  };
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => (setDeleting(null), toast.success(t('questionBank.questionDeletedFromYour'))),
      onError,
    });
  };
  const questions = bank.data ?? [];

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={t('questionBank.questionBank')}
        description={t('questionBank.questionsYouSaveOnce')}
        actions={
          <Button onClick={() => setEditing({ bankQuestion: undefined })}>
            <Plus aria-hidden className="h-4 w-4" /> {t('questionBank.newQuestion')}
          </Button>
        }
      />
      <div className="grid gap-4 md:grid-cols-2">
        <Field label={t('questionBank.search')}>
          <Input
            placeholder={t('questionBank.wordsInTheQuestion')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </Field>
        <Field label={t('questionBank.topic')}>
          <Input placeholder={t('questionBank.eGRecursion')} value={topic} onChange={(e) => setTopic(e.target.value)} />
        </Field>
      </div>
      <Card>
        {bank.isError ? (
          <p className="p-5 text-sm text-danger">{userMessageOf(bank.error)}</p>
        ) : bank.isSuccess && questions.length === 0 ? (
          <EmptyState
            icon={<Library aria-hidden />}
            title={search || topic ? t('questionBank.noQuestionsMatch') : t('questionBank.yourBankIsEmpty')}
            description={t('questionBank.saveAQuestionFrom')}
          />
        ) : (
          <Table aria-label={t('questionBank.questionBank')}>
            <TableHead>
              <tr>
                <TableHeaderCell>{t('questionBank.question')}</TableHeaderCell>
                <TableHeaderCell>{t('questionBank.type')}</TableHeaderCell>
                <TableHeaderCell>{t('questionBank.topic')}</TableHeaderCell>
                <TableHeaderCell>{t('questionBank.points')}</TableHeaderCell>
                <TableHeaderCell>
                  <span className="sr-only">{t('questionBank.actions')}</span>
                </TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {questions.map((b) => (
                <TableRow key={b.id} data-testid="bank-row">
                  <TableCell className="max-w-96 truncate font-medium text-ink">
                    {questionName(b.question.title)}
                  </TableCell>
                  <TableCell>{t(`common:questionType.${b.question.type}`)}</TableCell>
                  <TableCell>{b.question.topic || '—'}</TableCell>
                  <TableCell className="tabular-nums">{b.question.points}</TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1.5">
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('questionBank.editQuestionname', {
                          questionName: questionName(b.question.title),
                        })}
                        onClick={() => setEditing({ bankQuestion: b })}
                      >
                        <Pencil aria-hidden className="h-4 w-4" /> {t('questionBank.edit')}
                      </Button>
                      <Button
                        variant="secondary"
                        size="sm"
                        className="text-danger"
                        aria-label={t('questionBank.deleteQuestionname', {
                          questionName: questionName(b.question.title),
                        })}
                        onClick={() => setDeleting(b)}
                      >
                        <Trash2 aria-hidden className="h-4 w-4" /> {t('questionBank.delete')}
                      </Button>
                    </div>
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
        title={t('questionBank.deleteThisQuestionFrom')}
        description={
          deleting
            ? t('questionBank.questionnameWillBeDeleted', { questionName: questionName(deleting.question.title) })
            : ''
        }
        confirmLabel={t('questionBank.delete')}
        destructive
        isPending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </div>
  );
}
