import type { RepositoryFile } from '@exam/domain/coding';
import type { WorkspaceFile } from '@exam/domain/internal';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDiff } from '../../../../components/code-diff.tsx';
import { AGENT_ACTIVITY_ID } from '../../lib/agent-activity.ts';
import { repositoryChanges, type RepositoryChange } from '../../lib/repository-diff.ts';

const TONES: Record<RepositoryChange['state'], BadgeTone> = {
  changed: 'warning',
  added: 'success',
  deleted: 'danger',
  unchanged: 'neutral',
};

function ChangeItem({ change }: { change: RepositoryChange }) {
  const { t } = useTranslation('grading');
  const [open, setOpen] = useState(false);
  const comparable = change.state !== 'unchanged' && !change.unreadable;
  return (
    <li className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono text-ink">{change.path}</span>
        <Badge tone={TONES[change.state]}>{t(`agenticTask.state.${change.state}`)}</Badge>
        {change.unreadable && <span className="text-xs text-muted">{t('agenticTask.unreadable')}</span>}
        {comparable && (
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            aria-label={t(open ? 'agenticTask.hideDiffOf' : 'agenticTask.showDiffOf', { path: change.path })}
          >
            {open ? t('fileChanges.hideDiff') : t('fileChanges.showDiff')}
          </Button>
        )}
      </div>
      {open && (
        <CodeDiff
          leftLabel={t('agenticTask.starter')}
          left={change.starter}
          rightLabel={t('agenticTask.collected')}
          right={change.collected}
        />
      )}
    </li>
  );
}

/**
 * An agentic task under its question: the diff from the starter repository to the collected workspace, beside the
 * tests' verdicts above it and a way to the agent's calls and the timeline below.
 */
export function AgenticTask({
  starterFiles,
  files,
  root,
  questionIndex,
}: {
  starterFiles: RepositoryFile[];
  files: Record<string, WorkspaceFile>;
  /** Where the repository sits in the workspace ('' or `q<N>/`). */
  root: string;
  questionIndex: number;
}) {
  const { t } = useTranslation('grading');
  const changes = useMemo(() => repositoryChanges(starterFiles, files, root), [starterFiles, files, root]);
  const changed = changes.filter((c) => c.state !== 'unchanged').length;
  return (
    <section
      aria-label={t('agenticTask.title')}
      data-testid={`agentic-task-${questionIndex}`}
      className="flex flex-col gap-2"
    >
      <p className="text-xs font-medium uppercase tracking-wide text-muted">{t('agenticTask.title')}</p>
      <p className="text-sm text-ink">
        {Object.keys(files).length === 0
          ? t('agenticTask.nothingCollected')
          : t('agenticTask.summary', { count: changed, total: changes.length, root: root || './' })}
      </p>
      <ul aria-label={t('agenticTask.filesLabel')} className="flex flex-col gap-2">
        {changes.map((change) => (
          <ChangeItem key={change.path} change={change} />
        ))}
      </ul>
      <a href={`#${AGENT_ACTIVITY_ID}`} className="text-sm text-brand-700 underline">
        {t('agenticTask.toActivity')}
      </a>
    </section>
  );
}
