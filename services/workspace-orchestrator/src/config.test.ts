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

describe('WORKSPACE_ENGINE', () => {
  it('defaults to the Docker engine', () => {
    expect(testConfig().WORKSPACE_ENGINE).toBe('docker');
  });

  it("reads the Kubernetes engine's namespace, claims and pull policy, with in-cluster defaults", () => {
    const config = testConfig({ WORKSPACE_ENGINE: 'kubernetes' });
    expect(config).toMatchObject({
      WORKSPACE_NAMESPACE: 'exam-workspaces',
      WORKSPACE_VOLUME_SIZE: '2Gi',
      WORKSPACE_IMAGE_PULL_POLICY: 'IfNotPresent',
      WORKSPACE_POD_READY_TIMEOUT_SECONDS: 120,
    });
    expect(config.KUBECONFIG).toBeUndefined();
    expect(config.WORKSPACE_STORAGE_CLASS).toBeUndefined();
    expect(
      testConfig({
        WORKSPACE_ENGINE: 'kubernetes',
        WORKSPACE_NAMESPACE: 'ws-eu',
        WORKSPACE_STORAGE_CLASS: 'ssd',
        WORKSPACE_VOLUME_SIZE: '500Mi',
        WORKSPACE_IMAGE_PULL_POLICY: 'Always',
        KUBECONFIG: '/etc/exam/kubeconfig',
      }),
    ).toMatchObject({
      WORKSPACE_NAMESPACE: 'ws-eu',
      WORKSPACE_STORAGE_CLASS: 'ssd',
      WORKSPACE_VOLUME_SIZE: '500Mi',
      WORKSPACE_IMAGE_PULL_POLICY: 'Always',
      KUBECONFIG: '/etc/exam/kubeconfig',
    });
  });

  it('names every bad Kubernetes setting', () => {
    expect(() =>
      testConfig({
        WORKSPACE_ENGINE: 'nomad',
        WORKSPACE_NAMESPACE: 'Exam_Workspaces',
        WORKSPACE_VOLUME_SIZE: 'two gigs',
        WORKSPACE_IMAGE_PULL_POLICY: 'Sometimes',
      }),
    ).toThrow(
      /WORKSPACE_ENGINE[\s\S]*WORKSPACE_NAMESPACE: must be a Kubernetes namespace name[\s\S]*WORKSPACE_VOLUME_SIZE: must be a Kubernetes quantity[\s\S]*WORKSPACE_IMAGE_PULL_POLICY/,
    );
  });
});
