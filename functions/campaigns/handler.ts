import { approveCampaignAs } from '../../shared/campaigns/approval';
import { chooseWinner } from '../../shared/campaigns/ab-test';
import { abWinnerSchema } from '../../shared/campaigns/ab-test-model';
import { cancelCampaign, createCampaign, deleteCampaign, getCampaign, getCampaignAudience, listCampaigns, sendCampaign, updateCampaign } from '../../shared/campaigns/campaigns';
import { sendAtLocalTime } from '../../shared/campaigns/local-time-send';
import { createCampaignSchema, listCampaignsQuerySchema, patchCampaignSchema, sendCampaignSchema, testSendSchema } from '../../shared/campaigns/schemas';
import { getCampaignStats } from '../../shared/campaigns/stats';
import { sendTestEmails } from '../../shared/campaigns/test-send';
import { createHttpHandler } from '../../shared/http/handler';
import { pathId } from '../../shared/http/ids';
import { parseInput } from '../../shared/http/validation';

export const handler = createHttpHandler({
  'POST /campaigns': async ({ projectId, caller, body }) => ({ statusCode: 201, data: await createCampaign(projectId, parseInput(createCampaignSchema, body), caller) }),

  'GET /campaigns': async ({ projectId, query }) => ({ data: await listCampaigns(projectId, parseInput(listCampaignsQuerySchema, query, 'query')) }),

  'GET /campaigns/{id}': async ({ projectId, pathParameters }) => ({ data: await getCampaign(projectId, pathId(pathParameters, 'Campaign')) }),

  'PATCH /campaigns/{id}': async ({ projectId, caller, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Campaign');
    const changes = parseInput(patchCampaignSchema, body);
    return { data: await updateCampaign(projectId, id, changes, caller) };
  },

  'DELETE /campaigns/{id}': async ({ projectId, pathParameters }) => {
    const id = pathId(pathParameters, 'Campaign');
    await deleteCampaign(projectId, id);
    return { data: { id, deleted: true } };
  },

  'POST /campaigns/{id}/send': async ({ projectId, caller, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Campaign');
    const input = parseInput(sendCampaignSchema, body);
    return { data: input.localTime !== undefined ? await sendAtLocalTime(projectId, id, { ...input, localTime: input.localTime }, caller) : await sendCampaign(projectId, id, input.scheduledFor, caller) };
  },

  'POST /campaigns/{id}/cancel': async ({ projectId, pathParameters }) => ({ data: await cancelCampaign(projectId, pathId(pathParameters, 'Campaign')) }),

  'POST /campaigns/{id}/test': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Campaign');
    const input = parseInput(testSendSchema, body);
    return { data: await sendTestEmails(projectId, id, input) };
  },

  'POST /campaigns/{id}/approve': async ({ projectId, caller, pathParameters }) => ({ data: await approveCampaignAs(projectId, pathId(pathParameters, 'Campaign'), caller) }),

  'GET /campaigns/{id}/audience': async ({ projectId, pathParameters }) => ({ data: await getCampaignAudience(projectId, pathId(pathParameters, 'Campaign')) }),

  'GET /campaigns/{id}/stats': async ({ projectId, pathParameters }) => ({ data: await getCampaignStats(projectId, pathId(pathParameters, 'Campaign')) }),

  'POST /campaigns/{id}/ab-winner': async ({ projectId, pathParameters, body }) => {
    const id = pathId(pathParameters, 'Campaign');
    const { variant } = parseInput(abWinnerSchema, body);
    return { data: await chooseWinner(projectId, id, variant) };
  },
});
