import { QUESTION_TYPES, QuestionSchema, type Question, type QuestionType } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { useState } from 'react';
import { FormProvider, useForm, type Path } from 'react-hook-form';
import { RichTextField } from '../../../components/rich-text-field.tsx';
import { FeedbackFields } from '../../../components/question-kinds/feedback-fields.tsx';
import { KindFields } from '../../../components/question-kinds/kind-fields.tsx';
import { kindDefaults, type QuestionInput, type QuestionsForm } from '../../../lib/question-form.ts';
import { useTranslation } from 'react-i18next';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

type Draft = {
  type: QuestionType;
  title: string;
  topic: string;
  content: string;
  points: string;
  options: string;
  correctAnswer: string;
  acceptedAnswers: string;
};

const draftOf = (q: Question | undefined): Draft => ({
  type: q?.type ?? 'short-answer',
  title: q?.title ?? '',
  topic: q?.topic ?? '',
  content: q?.content ?? '',
  points: String(q?.points ?? 1),
  options: (q?.options ?? []).join('\n'),
  correctAnswer: q?.correctAnswer ?? '',
  acceptedAnswers: (q?.acceptedAnswers ?? []).join('\n'),
});

/** The further types (question-kinds.ts): their fields are edited with the exam editor's own question editors. */
const KIND_TYPES: readonly QuestionType[] = [
  'essay',
  'true-false',
  'ordering',
  'matching',
  'fill-blanks',
  'numeric',
  'calculated',
];
/** The fields the kind editors and the feedback section write; every other field comes from the draft. */
const KIND_FIELDS = [
  'feedback',
  'optionFeedback',
  'essay',
  'items',
  'pairs',
  'distractors',
  'gapText',
  'blanks',
  'units',
  'calculated',
] as const;
/** Keys the kind editors also write for their types (true/false's key, numeric values, scoring, tolerance). */
const KIND_KEYS = ['correctAnswer', 'acceptedAnswers', 'scoring', 'matching'] as const;

const kindInput = (type: QuestionType, question: Question | undefined): QuestionInput =>
  question && question.type === type
    ? question
    : { id: question?.id ?? 'bank', type, title: '', ...kindDefaults(type) };

/**
 * Types a bank question or edits one: wording, topic, points and the simple keys (an MCQ's options and its one
 * correct option, a short answer's accepted answers); a question of the further types with the exam editor's own
 * editors for its type, and the feedback of any type. Settings this form does not show are kept as they are.
 */
export function BankQuestionDialog({
  open,
  question,
  isPending,
  onOpenChange,
  onSave,
}: {
  open: boolean;
  question: Question | undefined;
  isPending: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (question: Question) => void;
}) {
  const { t } = useTranslation(['bank', 'common']);
  const [draft, setDraft] = useState<Draft>(() => draftOf(question));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The kind editors read and write a question at `questions.0`, as in the exam editor.
  const kindForm = useForm<QuestionsForm>({ defaultValues: { questions: [kindInput(draft.type, question)] } });
  const isKind = KIND_TYPES.includes(draft.type);
  const set = (field: keyof Draft) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    if (field === 'type') kindForm.reset({ questions: [kindInput(value as QuestionType, question)] });
    // The calculated question's samples show the title and content with the values in.
    if (field === 'title' || field === 'content') kindForm.setValue(`questions.0.${field}`, value);
    // An MCQ's per-option feedback is listed by its options.
    if (field === 'options') kindForm.setValue('questions.0.options', lines(value));
  };
  const submit = () => {
    const options = draft.type === 'mcq' ? lines(draft.options) : [];
    const kind = kindForm.getValues('questions.0');
    const kindFields = Object.fromEntries(KIND_FIELDS.map((f) => [f, kind[f]]));
    const kindKeys = isKind ? Object.fromEntries(KIND_KEYS.map((f) => [f, kind[f]])) : {};
    const parsed = QuestionSchema.safeParse({
      ...(question ?? { id: 'bank' }),
      ...kindFields,
      type: draft.type,
      title: draft.title.trim(),
      topic: draft.topic.trim(),
      content: draft.content,
      points: Number(draft.points),
      options,
      correctAnswer: draft.type === 'mcq' && draft.correctAnswer.trim() ? draft.correctAnswer.trim() : undefined,
      acceptedAnswers: draft.type === 'short-answer' ? lines(draft.acceptedAnswers) : [],
      ...(draft.type === 'coding' ? { language: question?.language ?? 'python' } : {}),
      ...kindKeys,
      ...(isKind && draft.type === 'numeric'
        ? { acceptedAnswers: (kind.acceptedAnswers ?? []).filter((a) => a.trim() !== '') }
        : {}),
    });
    kindForm.clearErrors();
    if (!parsed.success) {
      // The kind editors' fields show their messages in place; the draft's fields beside their inputs.
      const own = parsed.error.issues.filter(
        (i) =>
          !(KIND_FIELDS as readonly unknown[]).includes(i.path[0]) &&
          !(isKind && (KIND_KEYS as readonly unknown[]).includes(i.path[0])),
      );
      for (const issue of parsed.error.issues.filter((i) => !own.includes(i)))
        kindForm.setError(`questions.0.${issue.path.join('.')}` as Path<QuestionsForm>, { message: issue.message });
      setErrors(Object.fromEntries(own.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    if (!parsed.data.title) {
      setErrors({ title: t('bankQuestionDialog.enterTheQuestion') });
      return;
    }
    setErrors({});
    onSave(parsed.data);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={question ? t('bankQuestionDialog.editBankQuestion') : t('bankQuestionDialog.newBankQuestion')}
      className="w-[min(92vw,40rem)]"
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            {t('bankQuestionDialog.cancel')}
          </Button>
          <Button disabled={isPending} onClick={submit}>
            {t('bankQuestionDialog.saveQuestion')}
          </Button>
        </>
      }
    >
      <div className="flex max-h-[60vh] flex-col gap-4 overflow-y-auto pr-1">
        {!question && (
          <Field label={t('bankQuestionDialog.questionType')}>
            <Select
              value={draft.type}
              options={QUESTION_TYPES.map((value) => ({ value, label: t(`common:questionType.${value}`) }))}
              onValueChange={(v) => set('type')(v as QuestionType)}
            />
          </Field>
        )}
        <Field label={t('bankQuestionDialog.question')} error={errors.title}>
          <Input value={draft.title} onChange={(e) => set('title')(e.target.value)} />
        </Field>
        <div className="grid gap-4 md:grid-cols-2">
          <Field label={t('bankQuestionDialog.topic')} error={errors.topic}>
            <Input value={draft.topic} onChange={(e) => set('topic')(e.target.value)} />
          </Field>
          <Field label={t('bankQuestionDialog.points')} error={errors.points}>
            <Input
              type="number"
              min={0.01}
              step={0.01}
              value={draft.points}
              onChange={(e) => set('points')(e.target.value)}
            />
          </Field>
        </div>
        <RichTextField label={t('bankQuestionDialog.content')} error={errors.content} text={draft.content} stacked>
          <Textarea rows={4} value={draft.content} onChange={(e) => set('content')(e.target.value)} />
        </RichTextField>
        {draft.type === 'mcq' && (
          <>
            <Field label={t('bankQuestionDialog.optionsOnePerLine')} error={errors.options}>
              <Textarea rows={4} value={draft.options} onChange={(e) => set('options')(e.target.value)} />
            </Field>
            <Field
              label={t('bankQuestionDialog.correctOption')}
              hint={t('bankQuestionDialog.exactlyAsOneOf')}
              error={errors.correctAnswer}
            >
              <Input value={draft.correctAnswer} onChange={(e) => set('correctAnswer')(e.target.value)} />
            </Field>
          </>
        )}
        {draft.type === 'short-answer' && (
          <Field label={t('bankQuestionDialog.acceptedAnswersOnePer')} error={errors.acceptedAnswers}>
            <Textarea rows={3} value={draft.acceptedAnswers} onChange={(e) => set('acceptedAnswers')(e.target.value)} />
          </Field>
        )}
        <FormProvider {...kindForm}>
          {isKind && <KindFields index={0} />}
          <FeedbackFields index={0} />
        </FormProvider>
      </div>
    </Dialog>
  );
}
