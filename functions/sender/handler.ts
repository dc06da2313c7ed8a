import { campaignOutcomeListener } from '../../shared/campaigns/outcome-listener';
import { createSqsHandler } from '../../shared/queue/handler';
import { parseSendMessage, sendMessageProcessor } from '../../shared/sending/sender';

/** The send queue's consumer: one email record per message, paced to the SES rate. */
export const handler = createSqsHandler({ name: 'sender', parse: parseSendMessage, process: sendMessageProcessor('transactional', [campaignOutcomeListener]) });
