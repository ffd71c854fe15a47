import type { ServiceName } from '../../packages/domain/src/service-routes.ts';

export type ProxiedBackend = {
  name: ServiceName | 'workspace';
  /** Where the proxy listens for this service. */
  frontendPort: number;
  /** The replicas' ports, in order (server r0, r1…). */
  replicaPorts: number[];
  /** The editors' listener has no /ready of its own: it is checked at the TCP level only. */
  healthPath?: string;
};

/**
 * The generated haproxy configuration: one frontend and one round-robin backend per service.
 *
 * Health: every replica is probed with `GET /ready` every 500 ms (250 ms while it changes state; three
 * failures take it out, two successes put it back), and `observe layer4` takes it out at the first refused
 * connection, without waiting for the next probe: a killed replica is out at once, a slow one stays in.
 *
 * Retries: a request whose connection to a replica failed never reached it, so any request is re-sent to
 * the other replica (`retry-on conn-failure`, `option redispatch 1`). A request the replica received and
 * then answered nothing to (it died: `empty-response`) may have been applied, so it is re-sent only when
 * repeating it is harmless: the idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS: an answer save is a
 * PUT with its seq, and the higher seq wins) and the candidate's submit, which results-service makes
 * idempotent (a repeat returns the first submission). Every other POST (starting an attempt, proctoring
 * events, a chat message, internal calls that queue work) is left to its client: the browser's outbox and
 * the chat's clientMessageId make those retries safe at the application level, where the proxy cannot see.
 * A response that has started (a chat's event stream) is never retried by haproxy at all.
 */
export function haproxyConfig(backends: ProxiedBackend[], opts: { statsPort?: number } = {}): string {
  const lines = [
    'global',
    // Two descriptors per connection; the machine's open-file limit is 20,000.
    '  maxconn 5000',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 120s',
    // Long enough for a whole assistant reply: an event stream counts as one response.
    '  timeout server 120s',
    '  timeout http-keep-alive 10s',
    '  timeout queue 5s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
    // A probe may take 2 s: on a loaded box /ready waits for a pooled connection, and a replica that is merely
    // busy must not leave the rotation (with both out, haproxy answers 503 itself).
    '  timeout check 2s',
    '  default-server inter 500ms fastinter 250ms downinter 250ms fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down',
    '',
  ];
  if (opts.statsPort) {
    lines.push(
      'frontend stats',
      `  bind 127.0.0.1:${opts.statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      '  stats refresh 1s',
      '',
    );
  }
  for (const backend of backends) {
    lines.push(
      `frontend ${backend.name}`,
      `  bind 127.0.0.1:${backend.frontendPort}`,
      `  default_backend ${backend.name}`,
      '',
      `backend ${backend.name}`,
      '  balance roundrobin',
      '  acl idempotent method GET HEAD PUT DELETE OPTIONS',
      '  acl submit method POST',
      '  acl submit_path path_reg ^/api/attempts/[^/]+/submit$',
      '  http-request disable-l7-retry unless idempotent || submit submit_path',
    );
    if (backend.healthPath) lines.push(`  option httpchk GET ${backend.healthPath}`, '  http-check expect status 200');
    backend.replicaPorts.forEach((port, index) => lines.push(`  server r${index} 127.0.0.1:${port} check`));
    lines.push('');
  }
  return lines.join('\n');
}
