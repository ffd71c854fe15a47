import { CreateExamSchema, type CourseMaterial, type CreateExam, type Exam } from '@exam/domain/exam';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@exam/ui/button';
import { PageHeader } from '@exam/ui/page-header';
import { toast } from '@exam/ui/toaster';
import { ArrowLeft, Save, Send } from 'lucide-react';
import { useState } from 'react';
import { FormProvider, useForm, useWatch, type Path } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../../lib/api-client.ts';
import { useCreateExam, useUpdateExam } from '../../api/exam-mutations.ts';
import { AiSettingsCard } from './ai-settings-card.tsx';
import { DetailsCard } from './details-card.tsx';
import { emptyExamForm, examToForm, toRequestBody, type ApiKeyMode, type ExamFormInput } from './exam-form-model.ts';
import { QuestionsCard } from './questions-card.tsx';
import { WorkspaceCard } from './workspace-card.tsx';

/** Spec section 9: draft-saved navigation delay. */
export const SAVED_REDIRECT_DELAY_MS = 1000;

type Action = 'create-draft' | 'create-publish' | 'save-draft' | 'publish-draft' | 'update-published';
const FORM_FIELDS = [
  'title',
  'description',
  'header',
  'rules',
  'timerEnabled',
  'timerMinutes',
  'fullScreenEnabled',
  'questions',
  'codingWorkspace',
  'aiSettings',
];

/** Create and edit share this form (spec: /creator/new-exam and /creator/edit-exam/{id}). */
export function ExamForm({ exam }: { exam?: Exam }) {
  const navigate = useNavigate();
  const form = useForm<ExamFormInput, unknown, CreateExam>({
    resolver: zodResolver(CreateExamSchema),
    defaultValues: exam ? examToForm(exam) : emptyExamForm(),
  });
  const [materials, setMaterials] = useState<CourseMaterial[]>(exam?.aiSettings.courseMaterials ?? []);
  const hasStoredKey = exam?.aiSettings.hasApiKey ?? false;
  const [apiKeyMode, setApiKeyMode] = useState<ApiKeyMode>(hasStoredKey ? 'keep' : 'replace');
  const [isLeaving, setIsLeaving] = useState(false);
  const createExam = useCreateExam();
  const updateExam = useUpdateExam();
  const title = useWatch({ control: form.control, name: 'title' }) ?? '';
  const isBusy = createExam.isPending || updateExam.isPending || isLeaving;
  const isPublishedExam = exam !== undefined && !exam.isDraft;

  const showServerError = (error: unknown) => {
    // A 400 names the fields; mark them in place so nothing typed is lost.
    const issues = error instanceof ApiError ? error.issues : [];
    let marked = 0;
    for (const issue of issues) {
      const path = issue.path.replace(/^body\./, '');
      if (FORM_FIELDS.includes(path.split('.')[0] ?? '')) {
        form.setError(path as Path<ExamFormInput>, { type: 'server', message: issue.message });
        marked += 1;
      }
    }
    toast.error(marked > 0 ? 'Please fix the highlighted fields.' : userMessageOf(error));
  };

  const leaveAfter = (message: string, to: string, delay: number) => {
    setIsLeaving(true);
    toast.success(message);
    window.setTimeout(() => void navigate(to), delay);
  };

  const run = (action: Action) =>
    form.handleSubmit(
      (values) => {
        const body = toRequestBody(values, materials, apiKeyMode);
        const { isDraft: _isDraft, ...fields } = body;
        if (action === 'create-draft' || action === 'create-publish') {
          const isDraft = action === 'create-draft';
          createExam.mutate(
            { ...body, isDraft },
            {
              onSuccess: (created) =>
                isDraft
                  ? leaveAfter('Exam saved as draft', paths.dashboard, SAVED_REDIRECT_DELAY_MS)
                  : leaveAfter('Exam published successfully', paths.examPublished(created.id), 0),
              onError: showServerError,
            },
          );
          return;
        }
        if (!exam) return;
        const update =
          action === 'save-draft'
            ? {
                body: { ...fields, isDraft: true },
                message: 'Draft saved successfully',
                to: paths.dashboard,
                delay: SAVED_REDIRECT_DELAY_MS,
              }
            : action === 'publish-draft'
              ? {
                  body: { ...fields, isDraft: false, isLive: true },
                  message: 'Exam published successfully',
                  to: paths.examPublished(exam.id),
                  delay: 0,
                }
              : // Updating a published exam keeps its live state (issue 2 corrects the spec here).
                {
                  body: fields,
                  message: 'Published exam updated successfully',
                  to: paths.dashboard,
                  delay: SAVED_REDIRECT_DELAY_MS,
                };
        updateExam.mutate(
          { examId: exam.id, body: update.body },
          { onSuccess: () => leaveAfter(update.message, update.to, update.delay), onError: showServerError },
        );
      },
      () => toast.error('Please fix the highlighted fields.'),
    );

  const heading = !exam ? 'Create New Exam' : isPublishedExam ? 'Edit Published Exam' : 'Edit Draft Exam';
  const canPublish = title.trim().length > 0 && !isBusy;

  return (
    <FormProvider {...form}>
      <PageHeader
        title={heading}
        description={
          exam
            ? `Last edited ${new Date(exam.lastEditedAt).toLocaleString('en-US')}`
            : 'Set up the details, questions, workspace and assistant.'
        }
        back={
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link to={paths.dashboard}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
            </Link>
          </Button>
        }
      />
      <form className="flex flex-col gap-6 pb-28" noValidate onSubmit={(event) => event.preventDefault()}>
        <DetailsCard />
        <QuestionsCard />
        <WorkspaceCard />
        <AiSettingsCard
          apiKey={{
            hasStoredKey,
            last4: exam?.aiSettings.apiKeyLast4 ?? null,
            mode: apiKeyMode,
            onModeChange: setApiKeyMode,
          }}
          materials={materials}
          onMaterialsChange={setMaterials}
        />
        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-line bg-surface/95 backdrop-blur">
          <div className="mx-auto flex max-w-6xl items-center justify-end gap-3 px-6 py-3">
            {!canPublish && !isPublishedExam && <p className="mr-auto text-xs text-muted">Add a title to publish.</p>}
            {!exam && (
              <>
                <Button variant="secondary" disabled={isBusy} onClick={run('create-draft')}>
                  <Save aria-hidden className="h-4 w-4" /> Save as Draft
                </Button>
                <Button disabled={!canPublish} onClick={run('create-publish')}>
                  <Send aria-hidden className="h-4 w-4" /> Publish Exam
                </Button>
              </>
            )}
            {exam && !isPublishedExam && (
              <>
                <Button variant="secondary" disabled={isBusy} onClick={run('save-draft')}>
                  <Save aria-hidden className="h-4 w-4" /> Save Changes
                </Button>
                <Button disabled={!canPublish} onClick={run('publish-draft')}>
                  <Send aria-hidden className="h-4 w-4" /> Publish Exam
                </Button>
              </>
            )}
            {isPublishedExam && (
              <Button disabled={isBusy} onClick={run('update-published')}>
                <Save aria-hidden className="h-4 w-4" /> Update Published Exam
              </Button>
            )}
          </div>
        </div>
      </form>
    </FormProvider>
  );
}
