import { parseFanoutMessage, processFanoutMessage } from '../../shared/campaigns/dispatch';
import { createSqsHandler } from '../../shared/queue/handler';

/** The campaign fan-out queue's consumer: starts scheduled campaigns and pages audiences onto the campaign send queue. */
export const handler = createSqsHandler({ name: 'campaign-dispatch', parse: parseFanoutMessage, process: processFanoutMessage });
