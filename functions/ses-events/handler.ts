import { campaignOutcomeListener } from '../../shared/campaigns/outcome-listener';
import { sesEventApplier, type SesEventDetail } from '../../shared/delivery/ses-events';
import { createEventBridgeHandler } from '../../shared/eventbridge/handler';

export const handler = createEventBridgeHandler<SesEventDetail>({ name: 'ses-events', process: sesEventApplier([campaignOutcomeListener]) });
