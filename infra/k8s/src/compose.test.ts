import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { portOf, SERVICES, WEB_APPS } from './topology.ts';

// The compose file is checked by `docker-compose config` too (README, "Deploying"); this suite needs no tool
// and holds it to the same rules as the Kubernetes manifests.
const INFRA = join(dirname(fileURLToPath(import.meta.url)), '../..');
/* eslint-disable @typescript-eslint/no-explicit-any -- the compose file is read as plain YAML */
const compose: any = parse(readFileSync(join(INFRA, 'compose.yaml'), 'utf8'), { merge: true });

describe('the compose file', () => {
  it('runs PostgreSQL, Redis, every service, both web servers and the proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['postgres', 'redis', 'proxy', ...SERVICES, ...WEB_APPS].sort(),
    );
  });

  it('gives every component a replica count from its own variable and a healthcheck on its /ready', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const service = compose.services[component];
      const variable = `${component.toUpperCase().replace(/-/g, '_')}_REPLICAS`;
      expect(service.deploy.replicas, component).toBe(`\${${variable}:-2}`);
      expect(service.healthcheck.test.join(' '), component).toContain(`http://127.0.0.1:${portOf(component)}/ready`);
    }
  });

  it('locks every platform container down and makes it refuse generated secrets', () => {
    for (const component of [...SERVICES, ...WEB_APPS]) {
      const service = compose.services[component];
      expect(service, component).toMatchObject({ read_only: true, cap_drop: ['ALL'], tmpfs: ['/tmp'] });
      expect(service.security_opt).toContain('no-new-privileges:true');
      expect(service.environment.REQUIRE_EXPLICIT_SECRETS).toBe('true');
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
      ['${WORKSPACE_HOST}', 'http://workspace-orchestrator:4005'],
    ]);
    expect(compose.services.proxy.environment).toMatchObject({
      CREATOR_HOST: '${CREATOR_HOST:-creator.domain}',
      TAKER_HOST: '${TAKER_HOST:-exam.domain}',
    });
  });
});
