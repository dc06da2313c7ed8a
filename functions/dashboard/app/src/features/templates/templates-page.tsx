import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { PageHeader } from '../../components/page-header';
import { Pager, useCursorPages } from '../../components/pager';
import { ErrorNote, Loading, SelectField, StatusBadge } from '../../components/ui';
import { formatDateTime } from '../../lib/format';
import { useTemplates, type TemplatesQuery } from './api';

const TYPES = [
  ['', 'Any type'],
  ['TRANSACTIONAL', 'Transactional'],
  ['MARKETING', 'Marketing'],
] as const;

export function TemplatesPage() {
  const [type, setType] = useState('');
  const pages = useCursorPages(type);
  const query: TemplatesQuery = { limit: '25', ...(type ? { type: type as NonNullable<TemplatesQuery['type']> } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) };
  const templates = useTemplates(query);

  return (
    <>
      <PageHeader title="Templates">
        <Link className="button primary" to="/templates/new">
          New template
        </Link>
      </PageHeader>
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Type" value={type} onChange={(event) => setType(event.target.value)} options={TYPES} />
      </form>
      <ErrorNote error={templates.error} />
      {templates.isPending ? (
        <Loading what="templates" />
      ) : (
        <DataTable
          caption="Templates"
          columns={[
            { header: 'Name', cell: (template) => <Link to={`/templates/${template.id}`}>{template.name}</Link> },
            { header: 'Subject', cell: (template) => template.subject },
            { header: 'Type', cell: (template) => <StatusBadge status={template.type} /> },
            { header: 'Updated', cell: (template) => formatDateTime(template.updatedAt) },
          ]}
          rows={templates.data?.items}
          rowKey={(template) => template.id}
          empty="No templates yet."
        />
      )}
      <Pager pages={pages} nextCursor={templates.data?.nextCursor} total={templates.data?.total} label="Templates" />
    </>
  );
}
