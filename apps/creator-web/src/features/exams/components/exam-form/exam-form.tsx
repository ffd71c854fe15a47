import { CreateExamSchema, type CreateExam, type Exam } from '@exam/domain/exam';
import { type CourseMaterial } from '@exam/domain/exam-ai';
import { workspaceAiIssue } from '@exam/domain/workspace-agents';
import type { RegradeReport } from '@exam/domain/result';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button } from '@exam/ui/button';
import { PageHeader } from '@exam/ui/page-header';
import { toast } from '@exam/ui/toaster';
import { ArrowLeft, Save, Send } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { FormProvider, useForm, useWatch, type Path } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../../config/paths.ts';
import { ApiError, userMessageOf } from '../../../../lib/api-client.ts';
import { useCreateExam, useUpdateExam } from '../../api/manage-exams.ts';
import { useRegradeExam } from '../../api/regrade-exam.ts';
import { AccessCard } from './access-card.tsx';
import { AiSettingsCard, type RenderTestAssistant } from './ai-settings-card.tsx';
import { AvailabilityCard } from './availability-card.tsx';
import {
  afterCreate,
  formIssues,
  isCreateAction,
  planUpdate,
  type AfterWrite,
  type ExamFormAction,
} from './exam-form-actions.ts';
import { DetailsCard } from './details-card.tsx';
import { emptyExamForm, examToForm, toRequestBody, type ApiKeyMode, type ExamFormInput } from './exam-form-model.ts';
import { OrderPoolsCard } from './order-pools-card.tsx';
import { QuestionsCard } from './questions-card.tsx';
import { PassagesCard } from './passages-card.tsx';
import { RegradeDialog } from './regrade-dialog.tsx';
import { RubricsCard } from './rubrics-card.tsx';
import { SectionsCard } from './sections-card.tsx';
import { WorkspaceCard } from './workspace-card.tsx';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { useTranslation } from 'react-i18next';
import { examCan } from '../../lib/capabilities.ts';

/**
 * What the app shows of the assistant audit of a saved exam with the assistant on: in the page's header, and beside
 * the publish button (advisory; publishing stays possible).
 */
export type RenderAuditStatus = (props: { examId: string; placement: 'header' | 'publish' }) => ReactNode;

/**
 * The exam body as exam-service checks it, with the workspace agent's cross-field rule (workspace-agents.ts) the
 * shared schema leaves to the server, so the editor says why beside the agent before anything is sent.
 */
const FormSchema = CreateExamSchema.superRefine((exam, ctx) => {
  const issue = workspaceAiIssue(exam);
  if (issue) ctx.addIssue({ code: 'custom', ...issue });
});

/** Create and edit share this form (/creator/new-exam and /creator/edit-exam/{id}). */
export function ExamForm({
  exam,
  renderTestAssistant,
  renderAuditStatus,
}: {
  exam?: Exam;
  renderTestAssistant: RenderTestAssistant;
  renderAuditStatus?: RenderAuditStatus;
}) {
  const { t } = useTranslation('editor');
  const navigate = useNavigate();
  const form = useForm<ExamFormInput, unknown, CreateExam>({
    resolver: zodResolver(FormSchema),
    defaultValues: exam ? examToForm(exam) : emptyExamForm(),
  });
  const [materials, setMaterials] = useState<CourseMaterial[]>(exam?.aiSettings.courseMaterials ?? []);
  const hasStoredKey = exam?.aiSettings.hasApiKey ?? false;
  const [apiKeyMode, setApiKeyMode] = useState<ApiKeyMode>(hasStoredKey ? 'keep' : 'replace');
  const [isLeaving, setIsLeaving] = useState(false);
  const createExam = useCreateExam();
  const updateExam = useUpdateExam();
  const regrade = useRegradeExam();
  const [regradeOffer, setRegradeOffer] = useState<{ report: RegradeReport; after: AfterWrite } | null>(null);
  const title = useWatch({ control: form.control, name: 'title' }) ?? '';
  const isBusy = createExam.isPending || updateExam.isPending || isLeaving;
  const isPublishedExam = exam !== undefined && !exam.isDraft;

  const showServerError = (error: unknown) => {
    // A 400 names the fields; mark them in place so nothing typed is lost.
    const issues = formIssues(error instanceof ApiError ? error.issues : []);
    for (const issue of issues) {
      form.setError(issue.path as Path<ExamFormInput>, { type: 'server', message: issue.message });
    }
    toast.error(issues.length > 0 ? t('examForm.pleaseFixTheHighlighted') : userMessageOf(error));
  };

  const leaveAfter = ({ message, to, delay }: AfterWrite) => {
    setIsLeaving(true);
    toast.success(message);
    window.setTimeout(() => void navigate(to), delay);
  };

  // Changed keys, points or rubrics of a published exam: a dry run says what a regrade would change first.
  const offerRegrade = (examId: string, after: AfterWrite) => {
    regrade.mutate(
      { examId, dryRun: true },
      {
        onSuccess: (report) =>
          report.changed > 0 || report.testsRerun > 0 ? setRegradeOffer({ report, after }) : leaveAfter(after),
        onError: () => leaveAfter(after),
      },
    );
  };
  const applyRegrade = () => {
    if (!regradeOffer || !exam) return;
    regrade.mutate(
      { examId: exam.id, dryRun: false },
      {
        onSuccess: (report) => {
          toast.success(
            report.testsRerun > 0
              ? t('examForm.regradedChangedResultsTestsrerun', {
                  changed: report.changed,
                  testsRerun: report.testsRerun,
                })
              : t('examForm.regradedChangedResults', { changed: report.changed }),
          );
          setRegradeOffer(null);
          leaveAfter(regradeOffer.after);
        },
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  };

  const send = (action: ExamFormAction, values: CreateExam) => {
    const body = toRequestBody(values, materials, apiKeyMode);
    if (isCreateAction(action)) {
      const isDraft = action === 'create-draft';
      createExam.mutate(
        { ...body, isDraft },
        { onSuccess: (created) => leaveAfter(afterCreate(isDraft, created)), onError: showServerError },
      );
      return;
    }
    if (!exam) return;
    const { isDraft: _isDraft, ...fields } = body;
    const update = planUpdate(action, exam, fields);
    updateExam.mutate(
      { examId: exam.id, body: update.body },
      {
        onSuccess: () => (action === 'update-published' ? offerRegrade(exam.id, update) : leaveAfter(update)),
        onError: showServerError,
      },
    );
  };

  const run = (action: ExamFormAction) =>
    form.handleSubmit(
      (values) => send(action, values),
      () => toast.error(t('examForm.pleaseFixTheHighlighted')),
    );

  const heading = !exam
    ? t('examForm.createNewExam')
    : isPublishedExam
      ? t('examForm.editPublishedExam')
      : t('examForm.editDraftExam');
  const canPublish = title.trim().length > 0 && !isBusy;
  // The audit is of the saved assistant, so the saved settings decide whether there is one to speak of.
  const auditStatus = (placement: 'header' | 'publish') =>
    exam?.aiSettings.enabled && renderAuditStatus ? renderAuditStatus({ examId: exam.id, placement }) : null;

  return (
    <FormProvider {...form}>
      <PageHeader
        title={heading}
        description={
          exam
            ? t('examForm.lastEditedLasteditedat', { lastEditedAt: formatDateTime(exam.lastEditedAt) })
            : t('examForm.setUpTheDetails')
        }
        actions={auditStatus('header')}
        back={
          <Button asChild variant="ghost" size="sm" className="-ml-3">
            <Link to={paths.dashboard}>
              <ArrowLeft aria-hidden className="h-4 w-4" /> {t('examForm.backToDashboard')}
            </Link>
          </Button>
        }
      />
      <form className="flex flex-col gap-6 pb-28" noValidate onSubmit={(event) => event.preventDefault()}>
        {/* The retention period is the owner's to set ('candidates:data'); a new exam is the creator's own. */}
        <DetailsCard canSetRetention={exam ? examCan(exam, 'candidates:data') : true} />
        <AvailabilityCard examId={exam?.id} />
        <PassagesCard />
        <QuestionsCard examId={exam?.id} />
        <RubricsCard />
        <OrderPoolsCard />
        <SectionsCard />
        <RegradeDialog
          report={regradeOffer?.report ?? null}
          isPending={regrade.isPending}
          onApply={applyRegrade}
          onKeep={() => {
            const after = regradeOffer?.after;
            setRegradeOffer(null);
            if (after) leaveAfter(after);
          }}
        />
        <AccessCard examId={exam?.id} hasAccessCode={exam?.hasAccessCode ?? false} />
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
          renderTestAssistant={renderTestAssistant}
        />
        <ExamFormActions
          mode={!exam ? 'new' : isPublishedExam ? 'published' : 'draft'}
          canPublish={canPublish}
          isBusy={isBusy}
          run={run}
          auditStatus={auditStatus('publish')}
        />
      </form>
    </FormProvider>
  );
}

/** The sticky bar of save and publish buttons; which ones show depends on the exam being new, a draft or published. */
function ExamFormActions({
  mode,
  canPublish,
  isBusy,
  run,
  auditStatus,
}: {
  mode: 'new' | 'draft' | 'published';
  canPublish: boolean;
  isBusy: boolean;
  run: (action: ExamFormAction) => () => void;
  /** Said beside the publish button of a draft: what the latest assistant audit found. */
  auditStatus: ReactNode;
}) {
  const { t } = useTranslation('editor');
  return (
    <div className="fixed inset-x-0 bottom-0 z-20 border-t border-line bg-surface/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center justify-end gap-3 px-6 py-3">
        {!canPublish && mode !== 'published' && (
          <p className="mr-auto text-xs text-muted">{t('examForm.addATitleTo')}</p>
        )}
        {mode === 'draft' && canPublish && auditStatus && <div className="mr-auto">{auditStatus}</div>}
        {mode === 'new' && (
          <>
            <Button variant="secondary" disabled={isBusy} onClick={run('create-draft')}>
              <Save aria-hidden className="h-4 w-4" /> {t('examForm.saveAsDraft')}
            </Button>
            <Button disabled={!canPublish} onClick={run('create-publish')}>
              <Send aria-hidden className="h-4 w-4" /> {t('examForm.publishExam')}
            </Button>
          </>
        )}
        {mode === 'draft' && (
          <>
            <Button variant="secondary" disabled={isBusy} onClick={run('save-draft')}>
              <Save aria-hidden className="h-4 w-4" /> {t('examForm.saveChanges')}
            </Button>
            <Button disabled={!canPublish} onClick={run('publish-draft')}>
              <Send aria-hidden className="h-4 w-4" /> {t('examForm.publishExam')}
            </Button>
          </>
        )}
        {mode === 'published' && (
          <Button disabled={isBusy} onClick={run('update-published')}>
            <Save aria-hidden className="h-4 w-4" /> {t('examForm.updatePublishedExam')}
          </Button>
        )}
      </div>
    </div>
  );
}
