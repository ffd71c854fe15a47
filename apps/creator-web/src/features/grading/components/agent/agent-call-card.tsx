import { WORKSPACE_AGENTS, type AgentCall } from '@exam/domain/workspace-agents';
import { Badge, type BadgeTone } from '@exam/ui/badge';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed } from '../../lib/replay-model.ts';
import { callAnchor, changeAnchor, type FileChangeView } from '../../lib/agent-activity.ts';

/** Arguments longer than this (or than a few lines) are folded: a patch or a file's text can run to pages. */
const FOLD_CHARS = 240;
const FOLD_LINES = 4;

const STATUS_TONES: Record<AgentCall['status'], BadgeTone> = {
  ok: 'success',
  refused: 'warning',
  withheld: 'warning',
  error: 'danger',
};

function Text({ text, empty }: { text: string; empty: string }) {
  return text === '' ? (
    <p className="text-sm italic text-muted">{empty}</p>
  ) : (
    <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-md bg-canvas p-2 font-mono text-xs text-ink">
      {text}
    </pre>
  );
}

function ToolCall({ tool }: { tool: AgentCall['toolCalls'][number] }) {
  const { t } = useTranslation('grading');
  const long = tool.arguments.length > FOLD_CHARS || tool.arguments.split('\n').length > FOLD_LINES;
  const args = (
    <pre className="max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-md bg-canvas p-2 font-mono text-xs text-ink">
      {tool.arguments}
    </pre>
  );
  return (
    <li className="flex flex-col gap-1">
      <span className="font-mono text-sm font-medium text-ink">{tool.name}</span>
      {long ? (
        <details>
          <summary className="cursor-pointer text-xs text-muted">
            {t('agentCalls.foldedArguments', { count: tool.arguments.length })}
          </summary>
          {args}
        </details>
      ) : (
        args
      )}
    </li>
  );
}

/**
 * One call the workspace agent made through the gateway: agent, status (with its reason), what it carried in, the
 * reply, the tool calls it asked for and the results it brought back, and the file changes it caused.
 */
export function AgentCallCard({
  call,
  number,
  startedAt,
  changes,
}: {
  call: AgentCall;
  number: number;
  /** The attempt's start, for the elapsed times. */
  startedAt: number;
  changes: FileChangeView[];
}) {
  const { t } = useTranslation('grading');
  const titleId = useId();
  const agent = WORKSPACE_AGENTS[call.agent]?.label ?? call.agent;
  return (
    <article
      id={callAnchor(call.id)}
      aria-labelledby={titleId}
      tabIndex={-1}
      className="flex flex-col gap-2 rounded-md border border-line p-3 target:ring-2 target:ring-brand-500"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h4 id={titleId} className="text-sm font-semibold text-ink">
          {t('agentCalls.callN', { n: number })}
        </h4>
        <span className="text-sm text-ink">{agent}</span>
        <span className="text-xs text-muted">{call.model}</span>
        <span className="tabular-nums text-xs text-muted">{formatElapsed(Date.parse(call.startedAt) - startedAt)}</span>
        <Badge tone={STATUS_TONES[call.status]}>{t(`agentCalls.status.${call.status}`)}</Badge>
        <span className="text-xs text-muted">
          {t('agentCalls.tokens', { input: call.inputTokens, output: call.outputTokens })}
        </span>
      </header>
      {call.reason && call.status !== 'ok' && (
        <p className="text-sm text-ink" data-testid="agent-call-reason">
          {t('agentCalls.reason', { reason: call.reason })}
        </p>
      )}
      <section aria-label={t('agentCalls.input')}>
        <h5 className="text-xs font-medium uppercase tracking-wide text-muted">{t('agentCalls.input')}</h5>
        <Text text={call.input} empty={t('agentCalls.nothing')} />
      </section>
      {call.toolResults.length > 0 && (
        <section aria-label={t('agentCalls.toolResults')}>
          <h5 className="text-xs font-medium uppercase tracking-wide text-muted">{t('agentCalls.toolResults')}</h5>
          <ul className="flex flex-col gap-1">
            {call.toolResults.map((result) => (
              <li key={result.callId}>
                <span className="font-mono text-xs text-muted">{result.callId}</span>
                <Text text={result.output} empty={t('agentCalls.nothing')} />
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-label={t('agentCalls.reply')}>
        <h5 className="text-xs font-medium uppercase tracking-wide text-muted">{t('agentCalls.reply')}</h5>
        <Text text={call.reply} empty={t('agentCalls.noReply')} />
      </section>
      {call.toolCalls.length > 0 && (
        <section aria-label={t('agentCalls.toolCalls')}>
          <h5 className="text-xs font-medium uppercase tracking-wide text-muted">{t('agentCalls.toolCalls')}</h5>
          <ul className="flex flex-col gap-2">
            {call.toolCalls.map((tool) => (
              <ToolCall key={tool.id} tool={tool} />
            ))}
          </ul>
        </section>
      )}
      {changes.length > 0 && (
        <section aria-label={t('agentCalls.filesChanged')}>
          <h5 className="text-xs font-medium uppercase tracking-wide text-muted">{t('agentCalls.filesChanged')}</h5>
          <ul className="flex flex-wrap gap-2">
            {changes.map((change) => (
              <li key={`${change.path}-${change.index}`}>
                <a
                  href={`#${changeAnchor(change.path, change.index)}`}
                  className="font-mono text-xs text-brand-700 underline"
                >
                  {change.deleted ? t('agentCalls.deletedPath', { path: change.path }) : change.path}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
