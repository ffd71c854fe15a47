import type { WorkspaceAi } from '@exam/domain/workspace-agents';
import { WORKSPACE_AGENTS } from '@exam/domain/workspace-agents';
import { Bot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import '../lib/workspace-ai-i18n.ts';

/**
 * What AI the candidate has in the workspace (docs/product.md#ai-in-the-workspace): the agent in the terminal with
 * an example command, and that its calls are recorded; or that there is none. The chat assistant alone (the
 * default) says nothing new: its panel speaks for itself.
 */
export function WorkspaceAiNote({ ai }: { ai: WorkspaceAi | undefined }) {
  const { t } = useTranslation('workspace-ai');
  if (!ai || ai.mode === 'chat') return null;
  if (ai.mode === 'none' || !ai.agent)
    return (
      <p data-testid="workspace-ai" className="border-b border-line px-3 py-2 text-sm text-ink">
        {t('none')}
      </p>
    );
  const agent = WORKSPACE_AGENTS[ai.agent];
  return (
    <div data-testid="workspace-ai" className="flex items-start gap-2 border-b border-line px-3 py-2 text-sm text-ink">
      <Bot aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="min-w-0">
        <p>{t('agent', { agent: agent.label })}</p>
        <p className="text-muted">
          {t('example')} <code className="rounded bg-canvas px-1 font-mono text-xs">{agent.example}</code>
        </p>
        <p className="text-muted">{t('recorded')}</p>
      </div>
    </div>
  );
}
