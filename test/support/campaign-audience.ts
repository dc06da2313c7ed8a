import { admin, api, until } from './api-client';

/**
 * What the campaign tests send to: a verified sender domain, and a segment of exactly these
 * subscribed readers, picked out by `data[field] = value` (each reader's `data` also gets `data`).
 */
export async function givenCampaignAudience({ domain, readers, field, value, segmentName, data = {} }: { domain: string; readers: string[]; field: string; value: string; segmentName: string; data?: Record<string, unknown> }): Promise<void> {
  const added = await api('POST', '/domains', { body: { domain } });
  if (added.status !== 201) throw new Error(`POST /domains answered ${added.status}`);
  await admin('verify-domain', '--domain', domain);
  await until(async () => (await api('GET', '/domains')).body.data.items.find((item: { domain: string; status: string }) => item.domain === domain && item.status === 'VERIFIED'));
  for (const email of readers) await api('POST', '/contacts', { body: { email, subscribed: true, data: { [field]: value, ...data } } });
  const segment = await api('POST', '/segments', { body: { name: segmentName, filters: { operator: 'AND', conditions: [{ field: `data.${field}`, operator: 'equals', value }] } } });
  if (segment.status !== 201) throw new Error(`POST /segments answered ${segment.status}`);
}
