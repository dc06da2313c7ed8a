/**
 * The single table's physical shape, shared by the CDK stack and the local stack so they cannot
 * drift. Entity modules (shared/<entity>/keys.ts) decide what goes into these attributes.
 */
export const tableSchema = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expiresAt',
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
  ],
} as const;

export type IndexName = (typeof tableSchema.globalSecondaryIndexes)[number]['indexName'];
