import './segments.css';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useSegments } from './api';
import { describeFilters } from './filter-model';

export function SegmentsPage() {
  const pages = useCursorPages('segments');
  const segments = useSegments(pages.cursor);
  return (
    <>
      <PageHeader title="Segments">
        <Link className="button primary" to="/segments/new">
          New segment
        </Link>
      </PageHeader>
      <ErrorNote error={segments.error} />
      {segments.isPending ? (
        <Loading what="segments" />
      ) : (
        <DataTable
          caption="Segments"
          columns={[
            { header: 'Name', cell: (segment) => <Link to={`/segments/${segment.id}`}>{segment.name}</Link> },
            { header: 'Filter', className: 'filter-summary', cell: (segment) => describeFilters(segment.filters) },
            {
              header: 'Members',
              cell: (segment) =>
                segment.trackMembership ? (
                  <>
                    {segment.memberCount ?? '—'} {segment.membershipStatus === 'BUILDING' && <StatusBadge status="BUILDING" />}
                  </>
                ) : (
                  <span className="muted">on demand</span>
                ),
            },
            { header: 'Created', cell: (segment) => formatDateTime(segment.createdAt) },
          ]}
          rows={segments.data?.items}
          rowKey={(segment) => segment.id}
          empty="No segments yet."
        />
      )}
      <Pager pages={pages} nextCursor={segments.data?.nextCursor} label="Segments" />
    </>
  );
}
