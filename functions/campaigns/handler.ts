import * as v from 'valibot';
import { cancelCampaign, createCampaign, deleteCampaign, getCampaign, listCampaigns, sendCampaign, updateCampaign } from '../../shared/campaigns/campaigns';
import { createCampaignSchema, listCampaignsQuerySchema, patchCampaignSchema, sendCampaignSchema, testSendSchema } from '../../shared/campaigns/schemas';
import { getCampaignStats } from '../../shared/campaigns/stats';
import { sendTestEmails } from '../../shared/campaigns/test-send';
import { createHttpHandler } from '../../shared/http/handler';
import { parseInput } from '../../shared/http/validation';

const campaignId = v.object({ id: v.string() });

export const handler = createHttpHandler({
  'POST /campaigns': async ({ projectId, body }) => ({ statusCode: 201, data: await createCampaign(projectId, parseInput(createCampaignSchema, body)) }),

  'GET /campaigns': async ({ projectId, query }) => ({ data: await listCampaigns(projectId, parseInput(listCampaignsQuerySchema, query, 'query')) }),

  'GET /campaigns/{id}': async ({ projectId, pathParameters }) => ({ data: await getCampaign(projectId, parseInput(campaignId, pathParameters).id) }),

  'PATCH /campaigns/{id}': async ({ projectId, pathParameters, body }) => {
    const changes = parseInput(patchCampaignSchema, body);
    return { data: await updateCampaign(projectId, parseInput(campaignId, pathParameters).id, changes) };
  },

  'DELETE /campaigns/{id}': async ({ projectId, pathParameters }) => {
    const { id } = parseInput(campaignId, pathParameters);
    await deleteCampaign(projectId, id);
    return { data: { id, deleted: true } };
  },

  'POST /campaigns/{id}/send': async ({ projectId, pathParameters, body }) => {
    const { scheduledFor } = parseInput(sendCampaignSchema, body);
    return { data: await sendCampaign(projectId, parseInput(campaignId, pathParameters).id, scheduledFor) };
  },

  'POST /campaigns/{id}/cancel': async ({ projectId, pathParameters }) => ({ data: await cancelCampaign(projectId, parseInput(campaignId, pathParameters).id) }),

  'POST /campaigns/{id}/test': async ({ projectId, pathParameters, body }) => {
    const input = parseInput(testSendSchema, body);
    return { data: await sendTestEmails(projectId, parseInput(campaignId, pathParameters).id, input) };
  },

  'GET /campaigns/{id}/stats': async ({ projectId, pathParameters }) => ({ data: await getCampaignStats(projectId, parseInput(campaignId, pathParameters).id) }),
});
