import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Loading, PageHeader } from '../../components/ui';

/** The wizard (CSV preview, mapping, progress) loads only on this page. */
const ImportWizard = lazy(() => import('./import-wizard'));

export function ImportPage() {
  return (
    <>
      <PageHeader title="Import contacts">
        <Link className="button" to="/contacts">
          Back to contacts
        </Link>
      </PageHeader>
      <Suspense fallback={<Loading what="the importer" />}>
        <ImportWizard />
      </Suspense>
    </>
  );
}
