import { applySesEvent, type SesEventDetail } from '../../shared/deliverability/ses-events';
import { createEventBridgeHandler } from '../../shared/eventbridge/handler';

export const handler = createEventBridgeHandler<SesEventDetail>({ name: 'ses-events', process: applySesEvent });
