import { repositoryRoots } from '@exam/domain/coding';
import { RichText } from '@exam/ui/rich-text';
import { SwitchField } from '@exam/ui/switch';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';
import { RepositoryFileList } from './repository-file-list.tsx';

/**
 * What the candidate gets of an agentic task (question.ts toPublicQuestion: the starter files' paths, never the
 * hidden files), and where the files open in the workspace (repositoryRoots).
 */
function CandidatePreview({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  const questions = useWatch({ control, name: 'questions' }) ?? [];
  const question = questions[index];
  const paths = (question?.repository?.files ?? []).map((f) => f.path).filter((p) => p.trim() !== '');
  const root = question
    ? (repositoryRoots(questions.map((q, i) => ({ ...q, id: q.id ?? String(i) })))[question.id ?? String(index)] ?? '')
    : '';
  return (
    <section
      aria-label={t('repositoryFields.preview', { n: index + 1 })}
      className="flex flex-col gap-2 rounded-lg border border-dashed border-line bg-surface p-3"
    >
      <p className="text-sm font-medium text-ink">{t('repositoryFields.previewHeading')}</p>
      {question?.content ? (
        <RichText>{question.content}</RichText>
      ) : (
        <p className="text-sm text-muted">{t('repositoryFields.noTask')}</p>
      )}
      <p className="text-xs text-muted">
        {root ? t('repositoryFields.opensIn', { root }) : t('repositoryFields.opensAtRoot')}
      </p>
      {paths.length > 0 ? (
        <ul className="font-mono text-xs">
          {paths.map((p) => (
            <li key={p}>{`${root}${p}`}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted">{t('repositoryFields.noFiles')}</p>
      )}
    </section>
  );
}

/**
 * An agentic task (docs/product.md#agentic-tasks): a coding question whose candidate works in a starter repository
 * in the workspace, graded by the tests run on the collected workspace with the hidden files laid over it.
 */
export function RepositoryFields({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue } = useFormContext<ExamFormInput>();
  const repository = useWatch({ control, name: `questions.${index}.repository` });
  const workspaceOn = useWatch({ control, name: 'codingWorkspace.enabled' }) ?? false;
  return (
    <div className="flex flex-col gap-4">
      <SwitchField
        label={t('repositoryFields.agenticTask', { n: index + 1 })}
        hint={workspaceOn ? t('repositoryFields.agenticHint') : t('repositoryFields.needsWorkspace')}
        checked={Boolean(repository)}
        onCheckedChange={(on) =>
          setValue(`questions.${index}.repository`, on ? { files: [], hiddenFiles: [] } : null, { shouldDirty: true })
        }
      />
      {repository && (
        <>
          <RepositoryFileList index={index} part="files" />
          <RepositoryFileList index={index} part="hiddenFiles" />
          <CandidatePreview index={index} />
        </>
      )}
    </div>
  );
}
