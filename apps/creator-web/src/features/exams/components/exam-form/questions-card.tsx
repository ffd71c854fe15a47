import type { CodingLanguage, QuestionType } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Select } from '@exam/ui/select';
import { Code2, FileUp, ListChecks, ListPlus, Plus, TextCursorInput } from 'lucide-react';
import { useId, useState } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { AddFromBankButton } from './add-from-bank-button.tsx';
import { newQuestion, type ExamFormInput } from './exam-form-model.ts';
import { LANGUAGE_OPTIONS, QuestionEditor } from './question-editor.tsx';
import { useTranslation } from 'react-i18next';

/** The further types (question-kinds.ts), added from one picker rather than a button each. */
const MORE_TYPES = ['essay', 'true-false', 'ordering', 'matching', 'fill-blanks', 'numeric', 'calculated'] as const;
type MoreType = (typeof MORE_TYPES)[number];

/** `examId` names a saved exam to the runner's reference runs (none while the exam is new). */
export function QuestionsCard({ examId }: { examId?: string | undefined } = {}) {
  const { t } = useTranslation(['editor', 'common']);
  const { control } = useFormContext<ExamFormInput>();
  // Questions carry their own `id`, so the field array keeps its React keys elsewhere.
  const { fields, append, remove, move } = useFieldArray({ control, name: 'questions', keyName: 'fieldKey' });
  const [codingLanguage, setCodingLanguage] = useState<CodingLanguage>('python');
  const languageId = useId();
  const moreTypeId = useId();
  const [moreType, setMoreType] = useState<MoreType>('essay');
  const add = (type: QuestionType) => append(newQuestion(type, codingLanguage), { shouldFocus: false });

  return (
    <Card>
      <CardHeader
        title={t('questionsCard.questions')}
        description={`${fields.length} ${fields.length === 1 ? 'question' : 'questions'}`}
      />
      <CardBody className="flex flex-col gap-4">
        {fields.length === 0 ? (
          <EmptyState
            icon={<ListPlus aria-hidden />}
            title={t('questionsCard.noQuestionsYet')}
            description={t('questionsCard.addAQuestionWith')}
            className="rounded-lg border border-dashed border-line"
          />
        ) : (
          fields.map((field, index) => (
            <QuestionEditor
              examId={examId}
              key={field.fieldKey}
              index={index}
              count={fields.length}
              onRemove={() => remove(index)}
              onMove={(to) => move(index, to)}
            />
          ))
        )}
        <div className="flex flex-wrap items-end gap-2 border-t border-line pt-4">
          <Button variant="secondary" onClick={() => add('mcq')}>
            <ListChecks aria-hidden className="h-4 w-4" /> {t('questionsCard.addMcq')}
          </Button>
          <Button variant="secondary" onClick={() => add('short-answer')}>
            <TextCursorInput aria-hidden className="h-4 w-4" /> {t('questionsCard.addShortAnswer')}
          </Button>
          <Button variant="secondary" onClick={() => add('file-upload')}>
            <FileUp aria-hidden className="h-4 w-4" /> {t('questionsCard.addFileUpload')}
          </Button>
          <div className="flex items-end gap-2">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={moreTypeId} className="text-xs font-medium text-muted">
                {t('questionsCard.moreTypes')}
              </label>
              <Select
                id={moreTypeId}
                value={moreType}
                options={MORE_TYPES.map((value) => ({ value, label: t(`common:questionType.${value}`) }))}
                onValueChange={(v) => setMoreType(v as MoreType)}
                className="w-44"
              />
            </div>
            <Button variant="secondary" onClick={() => add(moreType)}>
              <Plus aria-hidden className="h-4 w-4" /> {t('questionsCard.addQuestion')}
            </Button>
          </div>
          <AddFromBankButton onAdd={(questions) => append(questions, { shouldFocus: false })} />
          <div className="ml-auto flex items-end gap-2">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={languageId} className="text-xs font-medium text-muted">
                {t('questionsCard.codingLanguage')}
              </label>
              <Select
                id={languageId}
                value={codingLanguage}
                options={LANGUAGE_OPTIONS}
                onValueChange={(v) => setCodingLanguage(v as CodingLanguage)}
                className="w-36"
              />
            </div>
            <Button variant="secondary" onClick={() => add('coding')}>
              <Code2 aria-hidden className="h-4 w-4" /> {t('questionsCard.addCodingQuestion')}
            </Button>
          </div>
        </div>
      </CardBody>
    </Card>
  );
}
