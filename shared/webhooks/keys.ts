import { projectPartition } from '../projects/keys';

/**
 * Table keys of outbound webhooks: built here and nowhere else. Deliveries and concurrency slots
 * live in one partition per endpoint, so a 50,000-recipient campaign fanned out to 10 endpoints
 * writes to 10 partitions, and a delivery log is one Query.
 *
 * | item               | PK                              | SK                      | TTL (expiresAt) |
 * |--------------------|---------------------------------|-------------------------|-----------------|
 * | endpoint           | PROJECT#<pid>                   | WEBHOOK#<id>            |                 |
 * | subscription index | PROJECT#<pid>                   | WEBHOOKS                |                 |
 * | delivery           | PROJECT#<pid>#WEBHOOK#<id>      | DELIVERY#<deliveryId>   | 30 days         |
 * | concurrency slot   | PROJECT#<pid>#WEBHOOK#<id>      | SLOT#<n>                |                 |
 */
export const webhookKeys = {
  endpoint: (projectId: string, endpointId: string) => ({ PK: projectPartition(projectId), SK: `WEBHOOK#${endpointId}` }),
  endpointPrefix: 'WEBHOOK#',
  /** One item per project: which enabled endpoints want which kinds, read once per stream batch. */
  index: (projectId: string) => ({ PK: projectPartition(projectId), SK: 'WEBHOOKS' }),
  /** The index attribute of one endpoint: its kinds (a top-level attribute, so no parent map must exist). */
  indexAttribute: (endpointId: string) => `endpoint_${endpointId}`,
  indexAttributePrefix: 'endpoint_',
  endpointPartition: (projectId: string, endpointId: string) => `${projectPartition(projectId)}#WEBHOOK#${endpointId}`,
  delivery: (projectId: string, endpointId: string, deliveryId: string) => ({ PK: webhookKeys.endpointPartition(projectId, endpointId), SK: `DELIVERY#${deliveryId}` }),
  deliveryPrefix: 'DELIVERY#',
  slot: (projectId: string, endpointId: string, slot: number) => ({ PK: webhookKeys.endpointPartition(projectId, endpointId), SK: `${webhookKeys.slotPrefix}${slot}` }),
  slotPrefix: 'SLOT#',
};
