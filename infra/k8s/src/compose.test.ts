import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { portOf, SERVICES, WEB_APPS } from './topology.ts';

// The compose file is checked by `docker-compose config` too (docs/deploy.md); this suite needs no tool
// and holds it to the same rules as the Kubernetes manifests.
const INFRA = join(dirname(fileURLToPath(import.meta.url)), '../..');
/* eslint-disable @typescript-eslint/no-explicit-any -- the compose file is read as plain YAML */
const compose: any = parse(readFileSync(join(INFRA, 'compose.yaml'), 'utf8'), { merge: true });

describe('the compose file', () => {
  it('runs PostgreSQL, Redis, every service with its one-shot migration, both web servers and the proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['postgres', 'redis', 'proxy', ...SERVICES, ...SERVICES.map((s) => `${s}-migrate`), ...WEB_APPS].sort(),
    );
  });

  it('migrates each service once before its replicas start, which then leave the schema alone', () => {
    for (const component of SERVICES) {
      const service = compose.services[component];
      const migrate = compose.services[`${component}-migrate`];
      expect(migrate, component).toMatchObject({
        image: service.image,
        restart: 'no',
        entrypoint: ['/usr/local/bin/node', 'src/migrate.ts'],
        depends_on: { postgres: { condition: 'service_healthy' } },
      });
      expect(migrate.environment.DATABASE_URL).toBe(compose.services['exam-service'].environment.DATABASE_URL);
      expect(service.depends_on[`${component}-migrate`], component).toEqual({
        condition: 'service_completed_successfully',
      });
      expect(service.environment.MIGRATE_ON_START, component).toBe('false');
    }
  });

  it('gives every component but the orchestrator a replica count from its own variable, and each a healthcheck on its /ready', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const service = compose.services[component];
      const variable = `${component.toUpperCase().replace(/-/g, '_')}_REPLICAS`;
      const host = component === 'workspace-orchestrator' ? '${BRIDGE_GATEWAY:-172.30.0.1}' : '127.0.0.1';
      expect(service.healthcheck.test.join(' '), component).toContain(`http://${host}:${portOf(component)}/ready`);
      if (component !== 'workspace-orchestrator') expect(service.deploy.replicas, component).toBe(`\${${variable}:-2}`);
    }
  });

  it("runs one orchestrator per host in the host's network, reaching the services through the proxy", () => {
    const orchestrator = compose.services['workspace-orchestrator'];
    expect(orchestrator).toMatchObject({ network_mode: 'host', deploy: { replicas: 1 } });
    expect(orchestrator.environment.HOST).toBe('${BRIDGE_GATEWAY:-172.30.0.1}');
    expect(orchestrator.environment.EXAM_SERVICE_URL).toBe('http://${BRIDGE_GATEWAY:-172.30.0.1}:4001');
    expect(compose.services.proxy.ports).toEqual(
      expect.arrayContaining(['${BRIDGE_GATEWAY:-172.30.0.1}:4001:9001', '${BRIDGE_GATEWAY:-172.30.0.1}:4002:9002']),
    );
    const template = readFileSync(join(INFRA, 'proxy/default.conf.template'), 'utf8');
    expect(template).toMatch(/listen 9001;\s+location \/ \{\s+set \$upstream http:\/\/exam-service:4001;/);
    expect(template).toMatch(/listen 9002;\s+location \/ \{\s+set \$upstream http:\/\/results-service:4002;/);
  });

  it('locks every platform container down and makes it refuse generated secrets', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const service = compose.services[component];
      expect(service, component).toMatchObject({ read_only: true, cap_drop: ['ALL'], tmpfs: ['/tmp'] });
      expect(service.security_opt).toContain('no-new-privileges:true');
      expect(service.environment.REQUIRE_EXPLICIT_SECRETS).toBe('true');
      expect(service.environment.NODE_ENV).toBe('production');
      for (const secret of ['JWT_SECRET', 'INTERNAL_TOKEN', 'ENCRYPTION_KEY'])
        expect(service.environment[secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
    }
  });

  it('puts one virtual host per origin in front: the creator app, the taker app and the editors', () => {
    const template = readFileSync(join(INFRA, 'proxy/default.conf.template'), 'utf8');
    const hosts = [...template.matchAll(/server_name (\S+);\s+location \/ \{\s+set \$upstream (\S+);/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(hosts).toEqual([
      ['${CREATOR_HOST}', 'http://creator-web:5173'],
      ['${TAKER_HOST}', 'http://taker-web:5174'],
      ['${WORKSPACE_HOST}', 'http://${BRIDGE_GATEWAY}:4005'],
    ]);
    expect(compose.services.proxy.environment).toMatchObject({
      CREATOR_HOST: '${CREATOR_HOST:-creator.domain}',
      TAKER_HOST: '${TAKER_HOST:-exam.domain}',
    });
  });
});
