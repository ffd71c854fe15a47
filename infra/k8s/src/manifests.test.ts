import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { SERVICE_ROUTES } from '@exam/domain/service-routes';
import { GENERATED_DIR, generatedFiles } from './generate.ts';
import { manifestsOf, type Manifest } from './manifests.ts';
import { migrationJobsOf, servicesWithMigrateEntry } from './migrations.ts';
import { DEFAULT_OPTIONS, SECRET_NAME } from './options.ts';
import { INTERNAL_CALLS, SERVICES, WEB_APPS } from './topology.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the manifests are read back as plain YAML objects */
type Obj = any;

const opts = DEFAULT_OPTIONS;
const objects: Manifest[] = Object.values(manifestsOf(opts)).flat();
const plain: Obj[] = objects.map((o) => JSON.parse(JSON.stringify(o.toJSON())));
const ofKind = (kind: string) => plain.filter((o) => o.kind === kind);
const named = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('the Kubernetes manifests', () => {
  it('are all valid against the Kubernetes API schemas', () => {
    expect(objects.length).toBeGreaterThan(30);
    for (const object of objects)
      expect(() => object.validate(), `${object.kind} ${object.metadata?.name}`).not.toThrow();
  });

  it('rejects an object the API server would reject, so the check above is a real one', () => {
    const bad = new Deployment({ metadata: { name: 'x' }, spec: { replicas: 'two' as never } as never });
    expect(() => bad.validate()).toThrow(/replicas/);
  });

  it('are committed exactly as generated, so the YAML never drifts from the TypeScript', () => {
    const files = generatedFiles();
    expect(readdirSync(GENERATED_DIR).sort()).toEqual(Object.keys(files).sort());
    for (const [file, text] of Object.entries(files)) {
      expect(readFileSync(join(GENERATED_DIR, file), 'utf8'), `${file}: run pnpm --filter @exam/k8s generate`).toBe(
        text,
      );
      // And they read back as the same objects.
      for (const doc of parseAllDocuments(text)) expect(doc.errors).toEqual([]);
    }
  });

  it('run every service and web app as a locked-down, probed, sized Deployment with a Service, autoscaler and budget', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const deployment = named('Deployment', component);
      expect(deployment, component).toBeDefined();
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.containers).toHaveLength(1);
      const [container] = pod.containers;
      const portNames = container.ports.map((p: Obj) => p.name);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
      expect(portNames).toContain('http');
      expect(container.securityContext).toMatchObject({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.resources.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container.envFrom).toEqual([
        { configMapRef: { name: 'exam-config' } },
        { secretRef: { name: SECRET_NAME } },
      ]);
      expect(deployment.spec.replicas).toBe(opts.replicas[component]);
      expect(matches(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);

      const service = named('Service', component);
      for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
      expect(named('HorizontalPodAutoscaler', component).spec).toMatchObject({
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: component },
        minReplicas: opts.replicas[component],
        metrics: [{ type: 'Resource', resource: { name: 'cpu' } }],
      });
      expect(
        matches(
          named('PodDisruptionBudget', component).spec.selector.matchLabels,
          deployment.spec.template.metadata.labels,
        ),
      ).toBe(true);
    }
  });

  it('makes every pod refuse generated secrets', () => {
    expect(named('ConfigMap', 'exam-config').data.REQUIRE_EXPLICIT_SECRETS).toBe('true');
  });

  it('has every Service select the pods of exactly one Deployment', () => {
    for (const service of ofKind('Service')) {
      const selected = ofKind('Deployment').filter((d) =>
        matches(service.spec.selector, d.spec.template.metadata.labels),
      );
      expect(
        selected.map((d) => d.metadata.name),
        service.metadata.name,
      ).toEqual([service.metadata.name]);
    }
  });

  it('routes creator.domain to creator-web, exam.domain to taker-web and the editors to their own host', () => {
    const rules = named('Ingress', 'exam').spec.rules.map((r: Obj) => [r.host, r.http.paths[0].backend.service]);
    expect(rules).toEqual([
      ['creator.domain', { name: 'creator-web', port: { name: 'http' } }],
      ['exam.domain', { name: 'taker-web', port: { name: 'http' } }],
      ['workspace.exam.domain', { name: 'workspace-orchestrator', port: { name: 'workspace' } }],
    ]);
  });

  describe('network policies', () => {
    const policyOf = (name: string) => named('NetworkPolicy', name);
    const podNames = (peers: Obj[] = []) =>
      peers.map((p) => p.podSelector?.matchLabels?.['app.kubernetes.io/name']).filter(Boolean);
    const admitted = (service: string) => policyOf(service).spec.ingress.flatMap((r: Obj) => podNames(r.from));
    const reached = (component: string) => policyOf(component).spec.egress.flatMap((r: Obj) => podNames(r.to));

    it('deny everything in the namespace by default', () => {
      expect(policyOf('default-deny').spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    });

    it('let each web server reach exactly the services the routing table names', () => {
      const routed = [...new Set(SERVICE_ROUTES.map(([, s]) => s))].sort();
      for (const app of WEB_APPS) expect(reached(app).sort()).toEqual(routed);
    });

    it('let a service be called only by the web servers and by the services that call it', () => {
      for (const service of SERVICES) {
        const callers = SERVICES.filter((caller) => INTERNAL_CALLS[caller].includes(service));
        expect(admitted(service).sort(), service).toEqual([...WEB_APPS, ...callers].sort());
        expect(reached(service).sort(), service).toEqual([...INTERNAL_CALLS[service]].sort());
      }
      // exam-service never calls the orchestrator, so it cannot reach it; the gateway (solvability check) can.
      expect(admitted('workspace-orchestrator')).not.toContain('exam-service');
      expect(admitted('workspace-orchestrator')).toContain('llm-gateway');
    });

    it("match the call graph drawn in ARCHITECTURE.md's system diagram", () => {
      const doc = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../ARCHITECTURE.md'), 'utf8');
      const short: Record<string, string> = {
        ES: 'exam-service',
        RS: 'results-service',
        GW: 'llm-gateway',
        WO: 'workspace-orchestrator',
      };
      const drawn = new Map<string, Set<string>>(SERVICES.map((s) => [s, new Set()]));
      for (const [, from, to] of doc.matchAll(/^\s*(ES|RS|GW|WO) -- .*--> (ES|RS|GW|WO)\b/gm))
        drawn.get(short[from!]!)!.add(short[to!]!);
      for (const service of SERVICES)
        expect([...drawn.get(service)!].sort(), service).toEqual([...INTERNAL_CALLS[service]].sort());
    });

    it("let workspace pods reach llm-gateway's port (its agent endpoint) and nothing else new", () => {
      const workspacePolicies = ofKind('NetworkPolicy').filter(
        (o) => o.metadata.namespace === opts.workspacesNamespace,
      );
      const egress = workspacePolicies.flatMap((p: Obj) => p.spec.egress ?? []);
      expect(egress).toEqual([
        {
          to: [
            {
              namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': opts.namespace } },
              podSelector: { matchLabels: expect.objectContaining({ 'app.kubernetes.io/name': 'llm-gateway' }) },
            },
          ],
          ports: [{ protocol: 'TCP', port: 4003 }],
        },
      ]);
      const fromWorkspaces = policyOf('llm-gateway').spec.ingress.filter(
        (r: Obj) =>
          r.from[0]?.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === opts.workspacesNamespace,
      );
      expect(fromWorkspaces).toEqual([{ from: [expect.any(Object)], ports: [{ protocol: 'TCP', port: 4003 }] }]);
    });

    it('let every service and migration reach PostgreSQL, and every service Redis', () => {
      for (const service of SERVICES) {
        const ports = policyOf(service)
          .spec.egress.filter((r: Obj) => r.to?.[0]?.ipBlock)
          .flatMap((r: Obj) => r.ports.map((p: Obj) => p.port));
        expect(ports).toEqual(expect.arrayContaining([5432, 6379]));
      }
      expect(policyOf('migrations').spec.egress[0].ports).toEqual([{ protocol: 'TCP', port: 5432 }]);
    });
  });

  it("gives the orchestrator, and only it, rights over pods, services, claims and policies in the workspaces' namespace", () => {
    const role = named('Role', 'workspace-orchestrator');
    expect(role.metadata.namespace).toBe(opts.workspacesNamespace);
    const granted = role.rules.filter((r: Obj) => r.verbs.includes('create')).flatMap((r: Obj) => r.resources);
    expect(granted.sort()).toEqual(['networkpolicies', 'persistentvolumeclaims', 'pods', 'pods/exec', 'services']);
    // Nothing else in the namespace is readable: one ConfigMap by name (the engine's host id), no Secrets.
    const reads = role.rules.filter((r: Obj) => !r.verbs.includes('create'));
    expect(reads.flatMap((r: Obj) => r.resources).sort()).toEqual(['configmaps', 'pods/log', 'pods/status']);
    expect(role.rules.find((r: Obj) => r.resources.includes('configmaps')).resourceNames).toEqual(['kube-root-ca.crt']);
    expect(named('RoleBinding', 'workspace-orchestrator').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'workspace-orchestrator', namespace: opts.namespace },
    ]);
    const accounts = ofKind('Deployment').filter((d) => d.spec.template.spec.automountServiceAccountToken);
    expect(accounts.map((d) => [d.metadata.name, d.spec.template.spec.serviceAccountName])).toEqual([
      ['workspace-orchestrator', 'workspace-orchestrator'],
    ]);
  });

  it("runs a service's migrate entry as a Job when the service has one, and makes no Job otherwise", () => {
    const root = mkdtempSync(join(tmpdir(), 'k8s-migrate-'));
    mkdirSync(join(root, 'services/results-service/src'), { recursive: true });
    writeFileSync(join(root, 'services/results-service/src/migrate.ts'), '');
    expect(servicesWithMigrateEntry(root)).toEqual(['results-service']);
    const [job] = migrationJobsOf(opts, servicesWithMigrateEntry(root));
    expect(() => job!.validate()).not.toThrow();
    const pod = job!.spec!.template.spec!;
    expect(pod.containers[0]).toMatchObject({
      image: 'exam/results-service:latest',
      command: ['node', 'src/migrate.ts'],
    });
    expect(pod.restartPolicy).toBe('Never');
    // No Service selects a Job's pods.
    for (const service of ofKind('Service'))
      expect(matches(service.spec.selector, job!.spec!.template.metadata!.labels!)).toBe(false);
    expect(ofKind('Job').map((j) => j.metadata.name)).toEqual(servicesWithMigrateEntry().map((s) => `${s}-migrate`));
  });

  it('gives every Deployment its port and the shutdown timing beside its own env', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const [container] = named('Deployment', component).spec.template.spec.containers;
      const names = container.env.map((e: { name: string }) => e.name);
      expect(names, component).toEqual(expect.arrayContaining(['SHUTDOWN_DELAY_MS', 'SHUTDOWN_DRAIN_MS']));
      if ((SERVICES as readonly string[]).includes(component)) expect(names, component).toContain('PORT');
    }
  });

  it('migrates every service by its Job, so no replica migrates at start', () => {
    expect(servicesWithMigrateEntry()).toEqual([...SERVICES]);
    for (const service of SERVICES) {
      const [container] = named('Deployment', service).spec.template.spec.containers;
      expect(container.env, service).toContainEqual({ name: 'MIGRATE_ON_START', value: 'false' });
    }
    for (const job of ofKind('Job')) {
      const [container] = job.spec.template.spec.containers;
      expect(container.env ?? [], job.metadata.name).not.toContainEqual(
        expect.objectContaining({ name: 'MIGRATE_ON_START' }),
      );
    }
  });

  it('runs every pod as production, which refuses generated secrets', () => {
    expect(named('ConfigMap', 'exam-config').data.NODE_ENV).toBe('production');
  });
});
