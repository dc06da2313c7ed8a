import type { Actor } from '../accounts/audit';

/** Who last changed a campaign's content, audience or schedule: a user, or an API key by its id (shared/campaigns/approval.ts). */
export type Editor = Actor;

/** What a campaign stores of its approval. */
export interface ApprovalFields {
  approvedBy?: Editor | null;
  approvedAt?: string | null;
  lastEditedBy?: Editor | null;
}

/** The campaign's `approval` as the API shows it; `required` (the project's setting) only where the request read it. */
export function approvalView(campaign: ApprovalFields, required?: boolean) {
  return {
    ...(required === undefined ? {} : { required }),
    approved: Boolean(campaign.approvedAt),
    approvedBy: campaign.approvedBy ?? null,
    approvedAt: campaign.approvedAt ?? null,
    lastEditedBy: campaign.lastEditedBy ?? null,
  };
}

export type ApprovalView = ReturnType<typeof approvalView>;
