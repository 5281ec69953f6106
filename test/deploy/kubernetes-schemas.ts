/**
 * A manifest validated against the Kubernetes API's OpenAPI schemas as the npm package
 * `kubernetes-models` ships them (KEDA's from `@kubernetes-models/keda`): the model for its
 * apiVersion and kind, loaded by name. A kind with no model here is refused, so that a new
 * document cannot slip past unchecked.
 */
const PACKAGES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'rbac.authorization.k8s.io/v1': 'kubernetes-models/rbac.authorization.k8s.io/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
};

type Model = new (data: Record<string, unknown>) => { validate(): void };

export async function validateManifest(manifest: Record<string, unknown>): Promise<void> {
  const { apiVersion, kind } = manifest as { apiVersion?: string; kind?: string };
  const from = apiVersion ? PACKAGES[apiVersion] : undefined;
  const models = from && kind && /^[A-Z][A-Za-z]+$/.test(kind) ? ((await import(from)) as Record<string, Model | undefined>) : undefined;
  const model = models?.[kind!];
  if (!model) throw new Error(`no schema for ${apiVersion} ${kind}`);
  new model(manifest).validate();
}
