import { describe, expect, it } from 'vitest';
import { testConfig } from './testing/app.ts';

describe('WARM_POOL_TYPES', () => {
  it('takes a comma-separated list of workspace types, empty meaning all of them', () => {
    expect(testConfig({ WARM_POOL_TYPES: 'vscode, excel' }).WARM_POOL_TYPES).toEqual(['vscode', 'excel']);
    expect(testConfig({ WARM_POOL_TYPES: '' }).WARM_POOL_TYPES).toEqual([]);
  });

  it('names the variable and the bad type when a type is unknown', () => {
    expect(() => testConfig({ WARM_POOL_TYPES: 'vscode,word' })).toThrow(/WARM_POOL_TYPES\.1: Invalid option/);
  });
});

describe('EGRESS_ALLOWED_HOSTS', () => {
  it('defaults to the registries of the coding languages an exam may use, on ports 443 and 80', () => {
    expect(testConfig().EGRESS_ALLOWED_HOSTS.map((h) => h.host)).toEqual([
      'registry.npmjs.org',
      'pypi.org',
      'files.pythonhosted.org',
      'repo.maven.apache.org',
      'repo1.maven.org',
      'cloud.r-project.org',
      'cran.r-project.org',
    ]);
    expect(testConfig().EGRESS_PROXY_PORT).toBe(3128);
  });

  it('names every entry it cannot read', () => {
    expect(() => testConfig({ EGRESS_ALLOWED_HOSTS: 'pypi.org,not a host,npm.test:0' })).toThrow(
      /EGRESS_ALLOWED_HOSTS: "not a host" is not a host or host:port[\s\S]*"npm.test:0"/,
    );
  });
});
