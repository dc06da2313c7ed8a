import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Loading } from '../../components/ui';

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
