import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading, StatusBadge } from '../../components/ui';
import { formatDateTime, formatValue } from '../../lib/format';
import { useEmail } from './api';

/** The preview frame loads only with an email that has HTML. */
const EmailPreview = lazy(() => import('./email-preview'));

export function EmailPage() {
  const { id = '' } = useParams();
  const email = useEmail(id);
  if (email.isPending) return <Loading what="the email" />;
  if (email.error) return <ErrorNote error={email.error} />;
  const sent = email.data;

  return (
    <>
      <PageHeader title={sent.subject || '(no subject)'}>
        <Link className="button" to="/emails">
          Back to emails
        </Link>
      </PageHeader>
      <dl className="facts">
        <dt>To</dt>
        <dd>{sent.contactId ? <Link to={`/contacts/${sent.contactId}`}>{sent.to}</Link> : sent.to}</dd>
        <dt>From</dt>
        <dd>{sent.from.name ? `${sent.from.name} <${sent.from.email}>` : sent.from.email}</dd>
        <dt>Kind</dt>
        <dd>{sent.source}</dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={sent.status} />
        </dd>
        <dt>Queued</dt>
        <dd>{formatDateTime(sent.createdAt)}</dd>
      </dl>

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        <ol className="timeline">
          {sent.timeline.map((step, index) => (
            <li key={`${step.type}-${index}`}>
              <strong>{step.type}</strong> <time dateTime={step.at}>{formatDateTime(step.at)}</time>
              {Object.keys(step.data).length > 0 && <code className="data">{formatValue(step.data)}</code>}
            </li>
          ))}
        </ol>
      </section>

      {sent.headers.length > 0 && (
        <section aria-labelledby="headers-title">
          <h2 id="headers-title">Headers</h2>
          <div className="table-wrap" tabIndex={0}>
            <table>
              <caption className="visually-hidden">Headers</caption>
              <tbody>
                {sent.headers.map(({ name, value }, index) => (
                  <tr key={`${name}-${index}`}>
                    <th scope="row">{name}</th>
                    <td>{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <section aria-labelledby="content-title">
        <h2 id="content-title">Content</h2>
        {sent.html ? (
          <Suspense fallback={<Loading what="the preview" />}>
            <EmailPreview html={sent.html} subject={sent.subject} />
          </Suspense>
        ) : sent.text ? (
          <pre className="plain-text">{sent.text}</pre>
        ) : (
          <p>The content of this email is not kept.</p>
        )}
      </section>
    </>
  );
}
