import { campaignOutcomeListener } from '../../shared/campaigns/outcome-listener';
import { createSqsHandler } from '../../shared/queue/handler';
import { parseSendMessage, sendMessageProcessor } from '../../shared/sending/sender';

/** The campaign send queue's consumer: campaign mail, in the pacer's campaign lane (transactional mail goes first). */
export const handler = createSqsHandler({ name: 'campaign-sender', parse: parseSendMessage, process: sendMessageProcessor('campaign', [campaignOutcomeListener]) });
