import type { AiProvider } from '@exam/domain/ai-catalogue';
import type { AiSettingsInputSchema, CourseMaterial } from '@exam/domain/exam-ai';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { SwitchField } from '@exam/ui/switch';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import {
  AssistanceFields,
  AssistantSwitches,
  BudgetFields,
  ExamBudgetFields,
  PlantedErrorsFields,
  PromptFields,
  ProviderAndModel,
} from './ai-settings-fields.tsx';
import { ApiKeyField } from './api-key-field.tsx';
import { CourseMaterials } from './course-materials.tsx';
import { FollowUpFields } from './follow-up-fields.tsx';
import type { ApiKeyMode, ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

export type ApiKeyState = {
  hasStoredKey: boolean;
  last4: string | null;
  mode: ApiKeyMode;
  onModeChange: (mode: ApiKeyMode) => void;
};

/** What the editor tells the Test Assistant the app puts next to the AI settings. */
export type TestAssistantSlotProps = {
  /** Undefined while the exam has never been saved. */
  examId: string | undefined;
  /** The assistant's settings on screen differ from the saved ones the gateway would use. */
  hasUnsavedChanges: boolean;
  settings: {
    provider?: AiProvider | undefined;
    startMessage?: string | undefined;
    uploadDocuments?: boolean | undefined;
    materialNames: string[];
  };
  /**
   * The AI settings on screen as a save would send them, for the Test Assistant to try without saving; undefined
   * when they name course materials not saved yet (the gateway reads only saved materials).
   */
  draft: z.input<typeof AiSettingsInputSchema> | undefined;
};
export type RenderTestAssistant = (props: TestAssistantSlotProps) => ReactNode;

type Props = {
  apiKey: ApiKeyState;
  materials: CourseMaterial[];
  onMaterialsChange: (materials: CourseMaterial[]) => void;
  renderTestAssistant: RenderTestAssistant;
};

export function AiSettingsCard({ apiKey, materials, onMaterialsChange, renderTestAssistant }: Props) {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  const enabled = useWatch({ control, name: 'aiSettings.enabled' });
  return (
    <Card>
      <CardHeader
        title={t('aiSettingsCard.aiAssistantSettings')}
        description={t('aiSettingsCard.anAssistantCandidatesCan')}
      />
      <CardBody className="flex flex-col gap-5">
        <Controller
          control={control}
          name="aiSettings.enabled"
          render={({ field }) => (
            <SwitchField
              label={t('aiSettingsCard.enableAiAssistant')}
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
        {enabled && (
          <>
            <ProviderAndModel />
            <ApiKeyField {...apiKey} />
            <PromptFields />
            <AssistantSwitches />
            <AssistanceFields />
            <PlantedErrorsFields />
            <FollowUpFields />
            <BudgetFields />
            <ExamBudgetFields />
            <CourseMaterials materials={materials} onChange={onMaterialsChange} />
            <TestAssistantSlot apiKeyMode={apiKey.mode} materials={materials} render={renderTestAssistant} />
          </>
        )}
      </CardBody>
    </Card>
  );
}

/**
 * The Test Assistant tries the exam as saved, so it is told whether the AI settings on screen are saved.
 * The app passes it in: one feature does not import another.
 */
function TestAssistantSlot({
  apiKeyMode,
  materials,
  render,
}: {
  apiKeyMode: ApiKeyMode;
  materials: CourseMaterial[];
  render: RenderTestAssistant;
}) {
  const { control, formState } = useFormContext<ExamFormInput>();
  const { examId } = useParams();
  const ai = useWatch({ control, name: 'aiSettings' });
  const savedMaterialIds = formState.defaultValues?.aiSettings?.courseMaterialIds ?? [];
  const unsaved =
    Boolean(formState.dirtyFields.aiSettings) ||
    apiKeyMode === 'remove' ||
    materials.map((m) => m.id).join() !== savedMaterialIds.join();
  const settings = {
    provider: ai?.provider,
    startMessage: ai?.startMessage,
    uploadDocuments: ai?.uploadDocuments,
    materialNames: materials.map((m) => m.name),
  };
  const savedIds = new Set(savedMaterialIds);
  const draft = materials.every((m) => savedIds.has(m.id)) ? draftSettings(ai, materials, apiKeyMode) : undefined;
  return render({ examId, hasUnsavedChanges: unsaved, settings, draft });
}

/** The AI settings as the save would send them (exam-form-model.ts toRequestBody), key mode included. */
function draftSettings(
  ai: ExamFormInput['aiSettings'],
  materials: CourseMaterial[],
  apiKeyMode: ApiKeyMode,
): z.input<typeof AiSettingsInputSchema> {
  const { apiKey: typed, ...fields } = ai ?? {};
  const typedKey = typed?.trim();
  const apiKey = apiKeyMode === 'remove' ? null : apiKeyMode === 'replace' && typedKey ? typedKey : undefined;
  return { ...fields, ...(apiKey === undefined ? {} : { apiKey }), courseMaterialIds: materials.map((m) => m.id) };
}
