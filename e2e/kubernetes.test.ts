import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as kubernetesModels from '@kubernetes/client-node/dist/gen/models/all.js';
import { QUEUE_NAMES } from '@renamer/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { bullPrefix } from '../packages/jobs/src/queues';

/**
 * infra/k8s as a cluster would get it: the production overlay rendered by `kubectl kustomize`, every object
 * validated against the Kubernetes (and KEDA) schemas of `kubernetes-models`, and the settings that must agree
 * with the code checked against it.
 */

const OVERLAY = fileURLToPath(new URL('../infra/k8s/overlays/production', import.meta.url));
const BASE = fileURLToPath(new URL('../infra/k8s/base', import.meta.url));
const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!kubectl) {
  console.warn(
    'e2e/kubernetes.test.ts: kubectl is not installed, so the manifests are not checked (a CI run fails on the skip): install kubectl from https://kubernetes.io/docs/tasks/tools/ (it is not in Debian’s archive).',
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the rendered objects are checked by their schemas, not by TypeScript
type Rendered = any;
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  [key: string]: Rendered;
};
const render = (dir: string): Manifest[] =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' })).map(
    (document) => document.toJSON() as Manifest,
  );

/** The model class of an object's apiVersion and kind, from kubernetes-models or @kubernetes-models/keda. */
async function modelOf(manifest: Manifest) {
  const [group, version] = manifest.apiVersion.includes('/')
    ? manifest.apiVersion.split('/')
    : ['', manifest.apiVersion];
  const module =
    group === 'keda.sh'
      ? `@kubernetes-models/keda/keda.sh/${version}`
      : `kubernetes-models/${group ? `${group}/` : ''}${version}`;
  const models = (await import(module)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[manifest.kind];
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  return Model;
}

type FieldMap = { baseName: string; type: string }[];
const modelsByType = kubernetesModels as unknown as Record<string, { attributeTypeMap?: FieldMap } | undefined>;

/**
 * Field names the Kubernetes API does not know, found by walking the object along the type map of the official
 * client's models (`V1Deployment` → `V1DeploymentSpec` → …): the schemas above accept any extra field, and a
 * misspelled optional one (`replica`, `imagePullPolcy`) would otherwise be silently ignored by a cluster.
 */
function unknownFields(value: Rendered, type: string, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  const item = /^Array<(.+)>$/.exec(type)?.[1];
  if (item) return (value as Rendered[]).flatMap((entry, index) => unknownFields(entry, item, `${path}[${index}]`));
  const valueType = /^\{ \[key: string\]: (.+); \}$/.exec(type)?.[1];
  if (valueType)
    return Object.entries(value).flatMap(([key, entry]) => unknownFields(entry, valueType, `${path}.${key}`));
  const fields = modelsByType[type]?.attributeTypeMap;
  if (!fields) return [];
  const known = new Map(fields.map((field) => [field.baseName, field.type]));
  return Object.entries(value).flatMap(([key, entry]) =>
    known.has(key) ? unknownFields(entry, known.get(key)!, `${path}.${key}`) : [`${path}.${key}`],
  );
}

/** The client model of a built-in object (`apps/v1` `Deployment` → `V1Deployment`); none for KEDA's. */
const builtInType = (manifest: Manifest) => {
  const type = `V${manifest.apiVersion.split('/').at(-1)!.slice(1)}${manifest.kind}`;
  return modelsByType[type]?.attributeTypeMap ? type : undefined;
};

const byKind = (manifests: Manifest[], kind: string) => manifests.filter((manifest) => manifest.kind === kind);

describe.skipIf(!kubectl)('the Kubernetes manifests (kubectl kustomize)', () => {
  let production: Manifest[];
  beforeAll(() => {
    production = render(OVERLAY);
  });

  it('render, base and production overlay, into objects the Kubernetes and KEDA schemas accept', async () => {
    for (const manifests of [render(BASE), production]) {
      for (const manifest of manifests) {
        const Model = await modelOf(manifest);
        expect(() => new Model(manifest).validate(), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
      }
    }
    expect(
      production.every((manifest) => manifest.kind === 'Namespace' || manifest.metadata.namespace === 'renamer'),
    ).toBe(true);
  });

  it('hold no field name the Kubernetes API does not know (every built-in object, base and production)', () => {
    for (const manifest of [...render(BASE), ...production]) {
      const type = builtInType(manifest);
      if (type) expect(unknownFields(manifest, type, `${manifest.kind} ${manifest.metadata.name}`)).toEqual([]);
    }
    expect(
      production
        .filter((manifest) => !builtInType(manifest))
        .map((manifest) => manifest.kind)
        .sort(),
    ).toEqual(['ScaledObject', 'TriggerAuthentication']);
  });

  it('fail on a typo, a wrong value or a misspelled field, so CI catches either', async () => {
    const [deployment] = byKind(production, 'Deployment');
    const wrongValue = structuredClone(deployment!);
    wrongValue.spec.replicas = 'three';
    const Model = await modelOf(wrongValue);
    expect(() => new Model(wrongValue).validate()).toThrow();
    const misspelled = structuredClone(deployment!);
    misspelled.spec.template.spec.containers[0].imagePullPolcy = 'Always';
    misspelled.spec.replica = 3;
    expect(unknownFields(misspelled, 'V1Deployment', 'Deployment')).toEqual([
      'Deployment.spec.template.spec.containers[0].imagePullPolcy',
      'Deployment.spec.replica',
    ]);
  });

  it('give every service probes on its health routes, requests and limits, a graceful stop and a disruption budget', () => {
    const deployments = byKind(production, 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([
      'renamer-admin-api',
      'renamer-api',
      'renamer-worker',
    ]);
    const budgets = byKind(production, 'PodDisruptionBudget');
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(container.livenessProbe.httpGet.path).toBe('/health/live');
      expect(container.resources.requests).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
      expect(container.resources.limits).toMatchObject({ cpu: expect.anything(), memory: expect.anything() });
      expect(container.lifecycle.preStop).toBeDefined();
      expect(container.image).toMatch(/^registry\.example\/renamer\/[a-z-]+:1\.0\.0$/);
      const labels = deployment.spec.template.metadata.labels;
      expect(
        budgets.some((budget) => Object.entries(budget.spec.selector.matchLabels).every(([k, v]) => labels[k] === v)),
      ).toBe(true);
    }
    const worker = deployments.find((deployment) => deployment.metadata.name === 'renamer-worker')!;
    const config = byKind(production, 'ConfigMap')[0]!.data;
    // Longer than the worker's own grace: a job's lock time plus its 5 s margin, plus the preStop pause.
    const preStop = worker.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds;
    expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      Number(config.WORKER_LOCK_MS) / 1000 + 5 + preStop,
    );
  });

  it('scale the API on CPU and the workers with KEDA on the BullMQ wait list the workers really read', () => {
    const [hpa] = byKind(production, 'HorizontalPodAutoscaler');
    expect(hpa!.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'renamer-api' });
    expect(hpa!.spec.metrics[0].resource.name).toBe('cpu');
    const [scaled] = byKind(production, 'ScaledObject');
    expect(scaled!.spec.scaleTargetRef.name).toBe('renamer-worker');
    const config = byKind(production, 'ConfigMap')[0]!.data;
    expect(QUEUE_NAMES).toContain('images');
    expect(scaled!.spec.triggers[0].metadata.listName).toBe(`${bullPrefix(config.REDIS_PREFIX)}:images:wait`);
  });

  it('run the migrations as a Job before the pods, route /api/admin/ to the admin API, and keep WebSockets open', () => {
    const [job] = byKind(production, 'Job');
    expect(job!.metadata.annotations?.['helm.sh/hook']).toContain('pre-upgrade');
    expect(job!.spec.template.spec.containers[0].image).toMatch(/renamer\/migrate/);
    const [ingress] = byKind(production, 'Ingress');
    const paths = ingress!.spec.rules[0].http.paths;
    expect(paths.find((path: Rendered) => path.path === '/api/admin/').backend.service.name).toBe('renamer-admin-api');
    expect(paths.find((path: Rendered) => path.path === '/').backend.service.name).toBe('renamer-api');
    expect(
      Number(ingress!.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-read-timeout']),
    ).toBeGreaterThanOrEqual(3600);
    expect(ingress!.spec.tls[0].hosts).toEqual(['renamer.app']);
    // The production secret comes from the cluster's secret store, never from the repository.
    expect(byKind(production, 'Secret')).toEqual([]);
  });
});
