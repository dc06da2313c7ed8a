import { createSqsHandler } from '../../shared/queue/handler';
import { parseSendMessage, processCampaignSendMessage } from '../../shared/sending/sender';

/** The campaign send queue's consumer: campaign mail, in the pacer's campaign lane (transactional mail goes first). */
export const handler = createSqsHandler({ name: 'campaign-sender', parse: parseSendMessage, process: processCampaignSendMessage });
