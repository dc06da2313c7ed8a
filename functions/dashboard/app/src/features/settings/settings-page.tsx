import { PageHeader } from '../../components/page-header';
import { useIsOwner } from '../../lib/session';
import { AccountSection } from './account-section';
import { AuditSection } from './audit-section';
import { KeysSection } from './keys-section';
import { MembersSection } from './members-section';
import { ProjectSection } from './project-section';

export function SettingsPage() {
  const owner = useIsOwner();
  return (
    <>
      <PageHeader title="Settings" />
      <ProjectSection owner={owner} />
      {owner && <KeysSection />}
      {owner && <MembersSection />}
      <AccountSection />
      {owner && <AuditSection />}
    </>
  );
}
