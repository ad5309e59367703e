import { JOB_CATALOG, type JobName, type JobPayload } from '@renamer/contracts';
import { bullmqTelemetry } from '@renamer/telemetry';
import { type ConnectionOptions, FlowProducer, type JobNode } from 'bullmq';
import { bullPrefix, jobOptions } from './queues';

export interface CatalogJob<N extends JobName = JobName> {
  name: N;
  payload: JobPayload<N>;
}

export function createFlowProducer(connection: ConnectionOptions, redisPrefix: string) {
  const telemetry = bullmqTelemetry();
  return new FlowProducer({ connection, prefix: bullPrefix(redisPrefix), ...(telemetry && { telemetry }) });
}

function node<N extends JobName>({ name, payload }: CatalogJob<N>) {
  const definition = JOB_CATALOG[name];
  const data = definition.payload.parse(payload);
  return { name, queueName: definition.queue, data, opts: jobOptions(name, data) };
}

/**
 * Queues a parent job that runs once all its children finished. A child that fails for good does not
 * hold the parent back (`ignoreDependencyOnFailure`): one broken image must not leave a batch waiting.
 */
export async function addFlow(
  producer: FlowProducer,
  parent: CatalogJob,
  children: readonly CatalogJob[],
): Promise<JobNode> {
  return producer.add({
    ...node(parent),
    children: children.map((child) => {
      const built = node(child);
      return { ...built, opts: { ...built.opts, ignoreDependencyOnFailure: true } };
    }),
  });
}
