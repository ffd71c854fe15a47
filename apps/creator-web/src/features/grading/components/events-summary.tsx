import { Card, CardBody, CardHeader } from '@exam/ui/card';

const LABELS: Record<string, string> = {
  'focus-lost': 'Focus lost',
  'focus-gained': 'Focus regained',
  'fullscreen-exit': 'Left full screen',
  'fullscreen-enter': 'Entered full screen',
  'paste-blocked': 'External pastes blocked',
  'paste-allowed': 'Pastes allowed',
  copy: 'Copies inside the exam',
};

/**
 * How often each proctoring event happened during the attempt: the server's count over every stored event
 * (the result lists only the newest ones).
 */
export function EventsSummary({ summary }: { summary: Record<string, number> }) {
  const counts = new Map(Object.entries(summary));
  return (
    <Card>
      <CardHeader title="Events" description="Proctoring events recorded during the attempt." />
      <CardBody>
        {counts.size === 0 ? (
          <p className="text-sm text-muted">No events were recorded.</p>
        ) : (
          <dl aria-label="Event counts" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {[...counts].map(([type, count]) => (
              <div key={type}>
                <dt className="text-xs text-muted">{LABELS[type] ?? type}</dt>
                <dd className="text-lg font-semibold tabular-nums">{count}</dd>
              </div>
            ))}
          </dl>
        )}
      </CardBody>
    </Card>
  );
}
