import type { Timeline } from '@exam/domain/timeline';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { AlertTriangle } from 'lucide-react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AGENT_ACTIVITY_ID, callNumbers, changesByCall, fileChanges } from '../../lib/agent-activity.ts';
import { AgentCallCard } from './agent-call-card.tsx';
import { FileChanges } from './file-changes.tsx';

/**
 * The workspace agent's calls beside the file changes they caused (docs/product.md#ai-in-the-workspace): each call
 * lists the changes it made, each change links back to its call, and every change opens its diff.
 */
export function AgentActivity({ timeline }: { timeline: Timeline }) {
  const { t } = useTranslation('grading');
  const titleId = useId();
  const calls = useMemo(() => timeline.agentCalls ?? [], [timeline]);
  const changes = useMemo(() => fileChanges(timeline.workspaceFiles), [timeline]);
  const byCall = useMemo(() => changesByCall(changes), [changes]);
  const numbers = useMemo(() => callNumbers(calls), [calls]);
  const startedAt = Date.parse(timeline.startedAt);
  const assistantMissing = timeline.unavailable.includes('assistant');
  return (
    <Card>
      <section id={AGENT_ACTIVITY_ID} aria-labelledby={titleId}>
        <CardHeader
          title={<span id={titleId}>{t('agentActivity.title')}</span>}
          description={t('agentActivity.description')}
        />
        <CardBody className="grid gap-6 lg:grid-cols-2">
          <div className="flex flex-col gap-3">
            <h3 className="text-sm font-semibold text-ink">{t('agentCalls.title')}</h3>
            {assistantMissing && timeline.agentCalls !== undefined && (
              <p role="note" className="flex items-center gap-2 text-sm text-amber-800">
                <AlertTriangle aria-hidden className="h-4 w-4" /> {t('agentCalls.unavailable')}
              </p>
            )}
            {calls.length === 0 ? (
              <p className="text-sm text-muted">
                {timeline.agentCalls === undefined ? t('agentCalls.noAgent') : t('agentCalls.none')}
              </p>
            ) : (
              <ol aria-label={t('agentCalls.title')} className="flex flex-col gap-3">
                {calls.map((call) => (
                  <li key={call.id}>
                    <AgentCallCard
                      call={call}
                      number={numbers.get(call.id)!}
                      startedAt={startedAt}
                      changes={byCall.get(call.id) ?? []}
                    />
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div className="flex flex-col gap-3">
            <h3 className="text-sm font-semibold text-ink">{t('fileChanges.title')}</h3>
            <FileChanges changes={changes} callNumbers={numbers} startedAt={startedAt} />
          </div>
        </CardBody>
      </section>
    </Card>
  );
}
