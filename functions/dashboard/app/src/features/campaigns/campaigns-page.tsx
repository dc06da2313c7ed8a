import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, SelectField, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useCampaigns, useCampaignStats, type Campaign, type CampaignsQuery } from './api';

const STATUSES = [['', 'Any status'], ...['DRAFT', 'SCHEDULED', 'SENDING', 'PAUSED', 'SENT', 'CANCELLED'].map((status) => [status, status.toLowerCase()] as const)] as const;

export function CampaignsPage() {
  const [status, setStatus] = useState('');
  const pages = useCursorPages(status);
  const query: CampaignsQuery = { limit: '25', ...(status ? { status: status as NonNullable<CampaignsQuery['status']> } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) };
  const campaigns = useCampaigns(query);

  return (
    <>
      <PageHeader title="Campaigns">
        <Link className="button primary" to="/campaigns/new">
          New campaign
        </Link>
      </PageHeader>
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Status" value={status} onChange={(event) => setStatus(event.target.value)} options={STATUSES} />
      </form>
      <ErrorNote error={campaigns.error} />
      {campaigns.isPending ? (
        <Loading what="campaigns" />
      ) : (
        <DataTable
          caption="Campaigns, newest first"
          columns={[
            { header: 'Name', cell: (campaign) => <Link to={`/campaigns/${campaign.id}`}>{campaign.name}</Link> },
            { header: 'Status', cell: (campaign) => (campaign.status === 'SENDING' ? <SendingProgress campaign={campaign} /> : <StatusBadge status={campaign.status} />) },
            { header: 'Recipients', cell: (campaign) => campaign.totalRecipients },
            { header: 'When', cell: (campaign) => formatDateTime(campaign.sentAt ?? campaign.scheduledFor ?? campaign.createdAt) },
          ]}
          rows={campaigns.data?.items}
          rowKey={(campaign) => campaign.id}
          empty="No campaigns yet."
        />
      )}
      <Pager pages={pages} nextCursor={campaigns.data?.nextCursor} total={campaigns.data?.total} label="Campaigns" />
    </>
  );
}

/** A SENDING row: how many of its recipients are done (sent, failed, suppressed or cancelled), read live. */
function SendingProgress({ campaign }: { campaign: Campaign }) {
  const stats = useCampaignStats(campaign.id, campaign.status);
  const total = Math.max(stats.data?.totalRecipients ?? campaign.totalRecipients, 1);
  const done = stats.data ? stats.data.sentCount + stats.data.failedCount + stats.data.suppressedCount + stats.data.cancelledCount : 0;
  return (
    <div className="progress-cell">
      <StatusBadge status="SENDING" />
      <progress max={total} value={Math.min(done, total)} aria-label={`${campaign.name}: ${done} of ${total} sent`} />
    </div>
  );
}
