import { WORKSPACE_TYPES, WORKSPACE_TYPE_LABELS, type WorkspaceType } from '@exam/domain/exam';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';

const WORKSPACE_OPTIONS = WORKSPACE_TYPES.map((value) => ({ value, label: WORKSPACE_TYPE_LABELS[value] }));

export function WorkspaceCard() {
  const { control } = useFormContext<ExamFormInput>();
  const enabled = useWatch({ control, name: 'codingWorkspace.enabled' });
  return (
    <Card>
      <CardHeader title="Workspace" description="A remote editor inside the exam page for coding tasks." />
      <CardBody className="flex flex-col gap-5">
        <Controller
          control={control}
          name="codingWorkspace.enabled"
          render={({ field }) => (
            <SwitchField
              label="Enable Coding Workspace"
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
                <Field label="Workspace Type" className="max-w-72">
                  <Select
                    value={field.value ?? 'vscode'}
                    options={WORKSPACE_OPTIONS}
                    onValueChange={(v) => field.onChange(v as WorkspaceType)}
                  />
                </Field>
              )}
            />
            <Controller
              control={control}
              name="codingWorkspace.saveFilesInResults"
              render={({ field }) => (
                <SwitchField
                  label="Save Files in Results"
                  hint="Keep the candidate's workspace files with the submission."
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
                  label="Allow Package Registries"
                  hint="Let the workspace install packages (pip, npm…). Off keeps it offline."
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </>
        )}
      </CardBody>
    </Card>
  );
}
