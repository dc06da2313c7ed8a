import type { Workflow } from '../../lib/api-types';

/** The trigger in words (its event or segment rendered as text by React). */
export function triggerText(trigger: Workflow['trigger']): string {
  switch (trigger.type) {
    case 'EVENT':
      return `event ${trigger.event}`;
    case 'CONTACT_CREATED':
      return 'a contact is created';
    case 'SEGMENT_ENTERED':
      return `enters segment ${trigger.segmentId}`;
    default:
      return `leaves segment ${trigger.segmentId}`;
  }
}
