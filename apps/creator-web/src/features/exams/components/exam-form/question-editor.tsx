import { CODING_LANGUAGES, type CodingLanguage } from '@exam/domain/question';
import { Badge } from '@exam/ui/badge';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import { RichTextField } from '../../../../components/rich-text-field.tsx';
import { InlineRichText } from '@exam/ui/rich-text';
import type { ExamFormInput } from './exam-form-model.ts';
import { MatchingFields, MultipleAnswersFields, PointsField, RubricSelect, useHasKey } from './question-scoring.tsx';
import { CodingFields } from './coding-fields.tsx';
import { SaveToBankButton } from './save-to-bank-button.tsx';
import { PlantedErrorField } from './planted-error-field.tsx';
import { PoolSelect } from './pool-select.tsx';
import { SectionSelect } from './section-select.tsx';
import { PassageSelect } from './passage-select.tsx';
import { KindFields } from '../../../../components/question-kinds/kind-fields.tsx';
import { FeedbackFields } from '../../../../components/question-kinds/feedback-fields.tsx';
import { StringListEditor } from '../../../../components/string-list-editor.tsx';
import { ReorderControls } from './reorder-controls.tsx';
import { useTranslation } from 'react-i18next';

export const LANGUAGE_LABELS: Record<CodingLanguage, string> = {
  python: 'Python',
  javascript: 'JavaScript',
  sql: 'SQL',
  r: 'R',
  java: 'Java',
  cpp: 'C++',
};
export const LANGUAGE_OPTIONS = CODING_LANGUAGES.map((value) => ({ value, label: LANGUAGE_LABELS[value] }));

function McqOptions({ index }: { index: number }) {
  const { t } = useTranslation(['editor', 'common']);
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const n = index + 1;
  const options = useWatch({ control, name: `questions.${index}.options` }) ?? [];
  const correct = useWatch({ control, name: `questions.${index}.correctAnswer` }) ?? '';
  const multiple = useWatch({ control, name: `questions.${index}.multipleAnswers` }) ?? false;
  const correctSet = useWatch({ control, name: `questions.${index}.correctAnswers` }) ?? [];
  const optionFeedback = useWatch({ control, name: `questions.${index}.optionFeedback` }) ?? [];
  const correctIndex = correct === '' ? -1 : options.indexOf(correct);
  const questionErrors = formState.errors.questions?.[index];
  const optionErrors = Array.isArray(questionErrors?.options)
    ? questionErrors.options.map((e) => e?.message)
    : undefined;

  // correctAnswer is the option's text, not its index, so editing the marked option carries the mark along.
  const changeOptions = (next: string[]) => {
    const stillThere = correctIndex >= 0 && next.length === options.length;
    setValue(`questions.${index}.options`, next, { shouldDirty: true });
    const nextCorrect = stillThere ? (next[correctIndex] ?? '') : next.includes(correct) ? correct : '';
    setValue(`questions.${index}.correctAnswer`, multiple ? '' : nextCorrect, { shouldDirty: true });
    // Ticked options follow their position when an option is edited, and drop out when it is removed.
    const ticked =
      next.length === options.length
        ? options.flatMap((o, i) => (correctSet.includes(o) ? [next[i] ?? ''] : []))
        : correctSet.filter((c) => next.includes(c));
    setValue(`questions.${index}.correctAnswers`, ticked, { shouldDirty: true });
    // Per-option feedback is kept by position: a removed option takes its feedback with it.
    const removed = next.length < options.length ? options.findIndex((o, i) => next[i] !== o) : -1;
    if (removed >= 0 && optionFeedback.length > removed)
      setValue(
        `questions.${index}.optionFeedback`,
        optionFeedback.filter((_f, i) => i !== removed),
        { shouldDirty: true },
      );
  };
  const tick = (option: string, on: boolean) =>
    setValue(
      `questions.${index}.correctAnswers`,
      on ? options.filter((o) => o === option || correctSet.includes(o)) : correctSet.filter((c) => c !== option),
      { shouldDirty: true },
    );

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-ink">{t('questionEditor.options')}</legend>
      <p className="-mt-1 mb-1 text-xs text-muted">
        {multiple ? t('questionEditor.tickEveryCorrectOption') : t('questionEditor.selectTheRadioButton')}
      </p>
      <div
        role={multiple ? 'group' : 'radiogroup'}
        aria-label={
          multiple
            ? t('questionEditor.questionNCorrectOptions', { n })
            : t('questionEditor.questionNCorrectOption', { n })
        }
      >
        <StringListEditor
          values={options}
          onChange={changeOptions}
          itemLabel={(i) => t('questionEditor.questionNOptionValue', { n, value: i + 1 })}
          removeLabel={(i) => t('questionEditor.removeOptionValueOf', { value: i + 1, n })}
          placeholder={(i) => t('questionEditor.optionLetter', { letter: String.fromCharCode(65 + (i % 26)) })}
          addLabel={t('questionEditor.questionNAddOption', { n })}
          addText={t('questionEditor.addOption')}
          minItems={2}
          errors={optionErrors}
          renderTrailing={(i) => (
            <OptionPreview text={options[i] ?? ''} label={t('questionEditor.optionPreview', { n, value: i + 1 })} />
          )}
          renderLeading={(i) =>
            multiple ? (
              <label className="flex shrink-0 items-center gap-1.5 text-xs text-muted">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-600"
                  aria-label={t('questionEditor.optionValueIsCorrect', { value: i + 1 })}
                  checked={correctSet.includes(options[i] ?? '')}
                  onChange={(e) => tick(options[i] ?? '', e.target.checked)}
                />
                <span aria-hidden>{t('questionEditor.correct')}</span>
              </label>
            ) : (
              <label className="flex shrink-0 items-center gap-1.5 text-xs text-muted">
                <input
                  type="radio"
                  name={`question-${index}-correct`}
                  className="h-4 w-4 accent-brand-600"
                  aria-label={t('questionEditor.optionValueOfQuestion', { value: i + 1, n })}
                  checked={i === correctIndex}
                  onChange={() => setValue(`questions.${index}.correctAnswer`, options[i] ?? '', { shouldDirty: true })}
                />
                <span aria-hidden>{t('questionEditor.correct')}</span>
              </label>
            )
          }
        />
      </div>
      {(questionErrors?.options?.message || questionErrors?.correctAnswer?.message) && (
        <p role="alert" className="text-xs text-danger">
          {questionErrors.options?.message ?? questionErrors.correctAnswer?.message}
        </p>
      )}
      {Array.isArray(questionErrors?.correctAnswers) && (
        <p role="alert" className="text-xs text-danger">
          {questionErrors.correctAnswers.find((e) => e?.message)?.message}
        </p>
      )}
    </fieldset>
  );
}

function AcceptedAnswers({ index }: { index: number }) {
  const { t } = useTranslation(['editor', 'common']);
  const { control, setValue } = useFormContext<ExamFormInput>();
  const n = index + 1;
  const answers = useWatch({ control, name: `questions.${index}.acceptedAnswers` }) ?? [];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-ink">{t('questionEditor.acceptedAnswers')}</legend>
      <p className="-mt-1 mb-1 text-xs text-muted">{t('questionEditor.answersMatchingOneOf')}</p>
      <StringListEditor
        values={answers}
        onChange={(next) => setValue(`questions.${index}.acceptedAnswers`, next, { shouldDirty: true })}
        itemLabel={(i) => t('questionEditor.questionNAcceptedAnswer', { n, value: i + 1 })}
        removeLabel={(i) => t('questionEditor.removeAcceptedAnswerValue', { value: i + 1, n })}
        placeholder={() => t('questionEditor.anAcceptedAnswer')}
        addLabel={t('questionEditor.questionNAddAccepted', { n })}
        addText={t('questionEditor.addAcceptedAnswer')}
      />
    </fieldset>
  );
}

type Props = {
  index: number;
  count: number;
  onRemove: () => void;
  onMove: (to: number) => void;
  examId?: string | undefined;
};

export function QuestionEditor({ index, count, onRemove, onMove, examId }: Props) {
  const { t } = useTranslation(['editor', 'common']);
  const { register, control, setValue, formState } = useFormContext<ExamFormInput>();
  const type = useWatch({ control, name: `questions.${index}.type` }) ?? 'mcq';
  const language = useWatch({ control, name: `questions.${index}.language` }) ?? 'python';
  const content = useWatch({ control, name: `questions.${index}.content` }) ?? '';
  const errors = formState.errors.questions?.[index];
  const hasKey = useHasKey(index);
  const n = index + 1;
  return (
    <section
      aria-label={t('questionEditor.questionN', { n })}
      className="rounded-lg border border-line bg-canvas/40 p-4"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <span className="text-sm font-semibold text-ink">{t('questionEditor.questionN', { n })}</span>
          <Badge tone="brand">{t(`common:questionType.${type}`)}</Badge>
        </div>
        <div className="flex items-center gap-1">
          <SaveToBankButton index={index} />
          <ReorderControls
            index={index}
            count={count}
            onMove={onMove}
            onRemove={onRemove}
            labels={{
              up: t('questionEditor.moveQuestionNUp', { n }),
              down: t('questionEditor.moveQuestionNDown', { n }),
              remove: t('questionEditor.removeQuestionN', { n }),
              removeText: t('questionEditor.remove'),
            }}
          />
        </div>
      </div>
      <div className="flex flex-col gap-4">
        <div className="grid gap-4 md:grid-cols-[1fr_14rem]">
          <Field label={t('questionEditor.questionNTitle', { n })} error={errors?.title?.message}>
            <Input placeholder={t('questionEditor.questionN', { n })} {...register(`questions.${index}.title`)} />
          </Field>
          <Field
            label={t('questionEditor.questionNTopic', { n })}
            hint={t('questionEditor.groupsQuestionsInInsights')}
            error={errors?.topic?.message}
          >
            <Input placeholder={t('questionEditor.eGRecursion')} {...register(`questions.${index}.topic`)} />
          </Field>
        </div>
        <RichTextField
          label={t('questionEditor.questionNContent', { n })}
          error={errors?.content?.message}
          text={content}
        >
          <Textarea
            rows={5}
            placeholder={t('questionEditor.theFullQuestionInstructions')}
            {...register(`questions.${index}.content`)}
          />
        </RichTextField>
        {type === 'coding' && (
          <Field label={t('questionEditor.questionNLanguage', { n })} className="max-w-56">
            <Select
              value={language}
              options={LANGUAGE_OPTIONS}
              onValueChange={(value) =>
                setValue(`questions.${index}.language`, value as CodingLanguage, { shouldDirty: true })
              }
            />
          </Field>
        )}
        {type === 'coding' && <CodingFields index={index} examId={examId} />}
        {type === 'mcq' && <MultipleAnswersFields index={index} />}
        {type === 'mcq' && <McqOptions index={index} />}
        {type === 'short-answer' && <AcceptedAnswers index={index} />}
        {type === 'short-answer' && <MatchingFields index={index} />}
        <KindFields index={index} />
        {!hasKey && type !== 'essay' && <p className="text-sm text-muted">{t('questionScoring.noKeyHint')}</p>}
        <div className="flex flex-wrap items-start gap-4">
          <PointsField index={index} />
          <RubricSelect index={index} />
          <PoolSelect index={index} />
          <SectionSelect index={index} />
          <PassageSelect index={index} />
        </div>
        <FeedbackFields index={index} />
        <PlantedErrorField index={index} />
        {type === 'file-upload' && <p className="text-sm text-muted">{t('questionEditor.candidatesUploadOneFile')}</p>}
      </div>
    </section>
  );
}

/** Markdown or math in an option would reach the candidate formatted: show how, under the option, as it is typed. */
const FORMATTING = /[*_`$[\]\\<]/;
function OptionPreview({ text, label }: { text: string; label: string }) {
  if (!FORMATTING.test(text)) return null;
  return (
    <div
      role="region"
      aria-label={label}
      className="ml-6 rounded-md border border-dashed border-line px-2 py-1 text-sm text-ink"
    >
      <InlineRichText>{text}</InlineRichText>
    </div>
  );
}
