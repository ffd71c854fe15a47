import { WORKSPACE_TYPES, WORKSPACE_TYPE_LABELS, type WorkspaceType } from '@exam/domain/exam';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { WorkspaceAiField } from './workspace-ai-field.tsx';
import { useTranslation } from 'react-i18next';

const WORKSPACE_OPTIONS = WORKSPACE_TYPES.map((value) => ({ value, label: WORKSPACE_TYPE_LABELS[value] }));

export function WorkspaceCard() {
  const { t } = useTranslation('editor');
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<ExamFormInput>();
  const enabled = useWatch({ control, name: 'codingWorkspace.enabled' });
  return (
    <Card>
      <CardHeader title={t('workspaceCard.workspace')} description={t('workspaceCard.aRemoteEditorInside')} />
      <CardBody className="flex flex-col gap-5">
        <Controller
          control={control}
          name="codingWorkspace.enabled"
          render={({ field }) => (
            <SwitchField
              label={t('workspaceCard.enableCodingWorkspace')}
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
        {enabled && (
          <>
            <Controller
              control={control}
              name="codingWorkspace.workspaceType"
              render={({ field }) => (
                <Field label={t('workspaceCard.workspaceType')} className="max-w-72">
                  <Select
                    value={field.value ?? 'vscode'}
                    options={WORKSPACE_OPTIONS}
                    onValueChange={(v) => field.onChange(v as WorkspaceType)}
                  />
                </Field>
              )}
            />
            <WorkspaceAiField />
            <Controller
              control={control}
              name="codingWorkspace.saveFilesInResults"
              render={({ field }) => (
                <SwitchField
                  label={t('workspaceCard.saveFilesInResults')}
                  hint={t('workspaceCard.keepTheCandidateS')}
                  checked={field.value ?? true}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            <Controller
              control={control}
              name="codingWorkspace.allowPackageRegistries"
              render={({ field }) => (
                <SwitchField
                  label={t('workspaceCard.allowPackageRegistries')}
                  hint={t('workspaceCard.letTheWorkspaceInstall')}
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            <Field
              label={t('workspaceCard.expectedCandidates')}
              hint={t('workspaceCard.expectedCandidatesHint')}
              error={errors.codingWorkspace?.expectedCandidates?.message}
              className="max-w-md"
            >
              <Input
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                className="max-w-40"
                {...register('codingWorkspace.expectedCandidates', {
                  setValueAs: (value: unknown) => (value === '' || value === null ? null : Number(value)),
                })}
              />
            </Field>
          </>
        )}
      </CardBody>
    </Card>
  );
}
