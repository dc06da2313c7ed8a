import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { KeyKind } from '../../shared/http/routes';
import { parseAuthorizationHeader } from '../../shared/projects/api-keys';
import { putVerifiedDomain } from '../../shared/domains/domains';
import { createProject, findApiKey, getProject, rotateApiKey, type CreatedProject } from '../../shared/projects/projects';
import { StartupError } from './emulators/servers';

/**
 * Seeds the local project once and keeps its keys in the data folder (only hashes are in the
 * table, so the keys could not be printed again otherwise). LOCAL_SECRET_KEY / LOCAL_PUBLIC_KEY
 * pin the keys: they are added to the project when missing. The project gets `senderDomain`
 * (LOCAL_SENDER_DOMAIN) as a verified sender domain.
 */
export async function seedLocalProject(stateFile: string, pinned: Partial<Record<KeyKind, string>>, senderDomain: string): Promise<CreatedProject> {
  for (const [kind, key] of Object.entries(pinned) as [KeyKind, string | undefined][]) {
    if (key !== undefined && parseAuthorizationHeader(`Bearer ${key}`)?.kind !== kind) {
      const variable = kind === 'secret' ? 'LOCAL_SECRET_KEY' : 'LOCAL_PUBLIC_KEY';
      throw new StartupError(`${variable} must be "${kind === 'secret' ? 'sk_' : 'pk_'}" followed by 43 letters or digits.`);
    }
  }
  const saved = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as CreatedProject) : undefined;
  let project: CreatedProject;
  if (!saved || !(await getProject(saved.projectId))) {
    project = await createProject('Local project', { secretKey: pinned.secret, publicKey: pinned.public });
  } else {
    project = { projectId: saved.projectId, secretKey: pinned.secret ?? saved.secretKey, publicKey: pinned.public ?? saved.publicKey };
    if (!(await findApiKey(project.secretKey))) await rotateApiKey(project.projectId, 'secret', project.secretKey);
    if (!(await findApiKey(project.publicKey))) await rotateApiKey(project.projectId, 'public', project.publicKey);
  }
  await putVerifiedDomain(project.projectId, senderDomain);
  writeFileSync(stateFile, JSON.stringify(project, null, 2));
  return project;
}

export interface LocalOwner {
  email: string;
  /** Null when the account existed before the state file (its password is whatever was set then). */
  password: string | null;
}

/**
 * Seeds the local dashboard owner (`owner@<senderDomain>`, OWNER of the local project) once and
 * keeps the generated password in the data folder beside the keys, since only its hash is stored.
 * `npm start` calls it after seedLocalProject and prints the dashboard URL with this sign-in.
 */
export async function seedLocalOwner(stateFile: string, projectId: string, senderDomain: string): Promise<LocalOwner> {
  const { provisionMember } = await import('../../shared/accounts/provisioning');
  const email = `owner@${senderDomain}`;
  const saved = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as LocalOwner) : undefined;
  const member = await provisionMember({ email, projectId, role: 'OWNER', name: 'Local owner', ...(saved?.email === email && saved.password ? { password: saved.password } : {}) });
  const owner: LocalOwner = { email, password: member.generatedPassword ?? (saved?.email === email ? saved.password : null) };
  writeFileSync(stateFile, JSON.stringify(owner, null, 2), { mode: 0o600 });
  return owner;
}
