/** A construct id from a name of infra/queues.ts, infra/streams.ts or the route table: `campaign-send` → `CampaignSend`. */
export const pascal = (name: string) => name.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase());
