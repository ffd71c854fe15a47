import { Button } from '@exam/ui/button';
import { Bot, User } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeDiff } from '../../../../components/code-diff.tsx';
import { callAnchor, changeAnchor, type FileChangeView } from '../../lib/agent-activity.ts';
import { formatElapsed } from '../../lib/replay-model.ts';

function ChangeRow({
  change,
  callNumber,
  startedAt,
}: {
  change: FileChangeView;
  callNumber: number | undefined;
  startedAt: number;
}) {
  const { t } = useTranslation('grading');
  const [open, setOpen] = useState(false);
  const byAgent = change.agentCallId !== null && callNumber !== undefined;
  return (
    <li
      id={changeAnchor(change.path, change.index)}
      tabIndex={-1}
      data-testid="file-change"
      className="flex flex-col gap-2 rounded-md border border-line p-2 target:ring-2 target:ring-brand-500"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="tabular-nums text-muted">{formatElapsed(Date.parse(change.at) - startedAt)}</span>
        <span className="font-mono text-ink">{change.path}</span>
        {change.deleted && <span className="text-xs text-muted">{t('fileChanges.deleted')}</span>}
        {byAgent ? (
          <a
            href={`#${callAnchor(change.agentCallId!)}`}
            className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-2 text-xs font-medium text-brand-700 underline"
          >
            <Bot aria-hidden className="h-3 w-3" /> {t('fileChanges.byAgentCall', { n: callNumber })}
          </a>
        ) : (
          <span className="inline-flex items-center gap-1 text-xs text-muted">
            <User aria-hidden className="h-3 w-3" /> {t('fileChanges.byCandidate')}
          </span>
        )}
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          aria-label={t(open ? 'fileChanges.hideDiffOf' : 'fileChanges.showDiffOf', {
            path: change.path,
            time: formatElapsed(Date.parse(change.at) - startedAt),
          })}
        >
          {open ? t('fileChanges.hideDiff') : t('fileChanges.showDiff')}
        </Button>
      </div>
      {open && (
        <CodeDiff
          leftLabel={change.index === 0 ? t('fileChanges.beforeFirst') : t('fileChanges.before')}
          left={change.before}
          rightLabel={change.deleted ? t('fileChanges.afterDeleted') : t('fileChanges.after')}
          right={change.after}
        />
      )}
    </li>
  );
}

/**
 * Every snapshot of the workspace files in time order, each marked as the agent's (a link to the call that made
 * it) or the candidate's own, each opening the diff from the snapshot before it.
 */
export function FileChanges({
  changes,
  callNumbers,
  startedAt,
}: {
  changes: FileChangeView[];
  callNumbers: ReadonlyMap<string, number>;
  startedAt: number;
}) {
  const { t } = useTranslation('grading');
  const ordered = [...changes].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (ordered.length === 0) return <p className="text-sm text-muted">{t('fileChanges.none')}</p>;
  return (
    <ol aria-label={t('fileChanges.title')} className="flex flex-col gap-2">
      {ordered.map((change) => (
        <ChangeRow
          key={`${change.path}-${change.index}`}
          change={change}
          callNumber={change.agentCallId ? callNumbers.get(change.agentCallId) : undefined}
          startedAt={startedAt}
        />
      ))}
    </ol>
  );
}
