import './segments.css';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/confirm';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useDeleteSegment, useSegment, useSegmentMembers } from './api';
import { describeFilters } from './filter-model';

/** /segments/:id: its figures, its filter in words and its members, paged. */
export function SegmentPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const segment = useSegment(id);
  const remove = useDeleteSegment(id, () => navigate('/segments'));

  if (segment.isPending) return <Loading what="the segment" />;
  if (segment.error) return <ErrorNote error={segment.error} />;
  const { name, filters, trackMembership, memberCount, membershipStatus, createdAt, updatedAt } = segment.data;

  return (
    <>
      <PageHeader title={name}>
        <Link className="button" to={`/segments/${id}/edit`}>
          Edit
        </Link>
        <ConfirmButton
          className="danger"
          question={{ title: 'Delete this segment?', message: `"${name}" is removed${trackMembership ? ' with its tracked membership' : ''}. Its contacts stay.`, confirmLabel: 'Delete segment' }}
          onConfirm={() => remove.mutate()}
        >
          Delete
        </ConfirmButton>
      </PageHeader>
      <ErrorNote error={remove.error} />
      <dl className="facts">
        <dt>Members</dt>
        <dd>{memberCount ?? '—'}</dd>
        <dt>Membership</dt>
        <dd>{trackMembership ? <>tracked {membershipStatus && <StatusBadge status={membershipStatus} />}</> : 'evaluated at each read'}</dd>
        <dt>Filter</dt>
        <dd className="filter-summary">{describeFilters(filters)}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(updatedAt)}</dd>
      </dl>
      <Members id={id} building={membershipStatus === 'BUILDING'} />
    </>
  );
}

function Members({ id, building }: { id: string; building: boolean }) {
  const pages = useCursorPages(id);
  const members = useSegmentMembers(id, pages.cursor, building);
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ErrorNote error={members.error} />
      {members.isPending ? (
        <Loading what="members" />
      ) : (
        <DataTable
          caption="Segment members"
          columns={[
            { header: 'Email', cell: (contact) => <Link to={`/contacts/${contact.id}`}>{contact.email}</Link> },
            { header: 'Subscribed', cell: (contact) => (contact.subscribed ? 'Yes' : 'No') },
            { header: 'Created', cell: (contact) => formatDateTime(contact.createdAt) },
          ]}
          rows={members.data?.items}
          rowKey={(contact) => contact.id}
          empty="No members."
        />
      )}
      <Pager pages={pages} nextCursor={members.data?.nextCursor} total={members.data?.total} label="Members" />
    </section>
  );
}
