/**
 * `npm run admin -- <command> [flags]`: project and key administration, against the local stack
 * (the default) or a deployed table (`--table <name> --region <region>`, or TABLE_NAME and
 * AWS_REGION in the environment, with the usual AWS credentials).
 */
import { parseArgs } from 'node:util';
import { localAwsEnvironment, localSettings } from '../local/settings';

const usage = `Usage: npm run admin -- <command> [flags]

Commands:
  create-project  --name <name> [--json]         create a project with a secret and a public key
  list-projects   [--json]                       list every project
  list-keys       --project <id> [--json]        list a project's keys (ids and prefixes only)
  rotate-key      --project <id> [--kind secret|public] [--json]
                                                 issue a new key; the old one works until revoked
  revoke-key      --project <id> --key <keyId or key>
                                                 revoke a key at once
  disable-project --project <id>                 every key of the project gets 403
  enable-project  --project <id>
  create-user     --email <addr> --project <id> [--role OWNER|MEMBER] [--name <name>] [--password <pw>] [--json]
                                                 a dashboard account (or an existing one) joins the
                                                 project; prints a generated password unless --password
  list-suppressed --project <id> [--json]        addresses suppressed by bounces, complaints or hand
  unsuppress      --project <id> --email <addr>  take an address off the suppression list

Local stack only:
  verify-domain --domain <name>                  mark a domain's SES identity verified now
                                                 (otherwise after LOCAL_DOMAIN_VERIFY_SECONDS)
  simulate-ses-event --email-id <id> --type delivery|bounce|complaint|open|click|reject|delay
                     [--bounce-type Permanent|Transient] [--link <url>]

Target (default: the local stack started by npm start):
  --table <name>      a deployed table (or TABLE_NAME)
  --region <region>   its region (or AWS_REGION)
  --endpoint <url>    a DynamoDB endpoint (or AWS_ENDPOINT_URL_DYNAMODB)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: 'string' },
    project: { type: 'string' },
    kind: { type: 'string', default: 'secret' },
    role: { type: 'string', default: 'MEMBER' },
    password: { type: 'string' },
    key: { type: 'string' },
    email: { type: 'string' },
    'email-id': { type: 'string' },
    domain: { type: 'string' },
    type: { type: 'string' },
    'bounce-type': { type: 'string' },
    link: { type: 'string' },
    json: { type: 'boolean', default: false },
    table: { type: 'string' },
    region: { type: 'string' },
    endpoint: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function required(name: 'name' | 'project' | 'key' | 'email' | 'email-id' | 'type' | 'domain'): string {
  const value = values[name];
  if (!value) fail(`--${name} is required.\n\n${usage}`);
  return value;
}

function chooseTarget() {
  const table = values.table ?? process.env.TABLE_NAME;
  if (table) {
    process.env.TABLE_NAME = table;
    if (values.region) process.env.AWS_REGION = values.region;
    if (values.endpoint) process.env.AWS_ENDPOINT_URL_DYNAMODB = values.endpoint;
    if (!process.env.AWS_REGION) fail('--region (or AWS_REGION) is required with --table.');
    return `table ${table} in ${process.env.AWS_REGION}`;
  }
  const local = localAwsEnvironment(localSettings());
  Object.assign(process.env, local, values.endpoint ? { AWS_ENDPOINT_URL_DYNAMODB: values.endpoint } : {});
  return `the local stack (${process.env.AWS_ENDPOINT_URL_DYNAMODB})`;
}

async function main() {
  const command = positionals[0];
  if (values.help || !command) {
    console.log(usage);
    return;
  }
  const target = chooseTarget();
  const projects = await import('../../shared/projects/projects');
  const print = (human: string, json: unknown) => console.log(values.json ? JSON.stringify(json, null, 2) : human);

  switch (command) {
    case 'create-project': {
      const created = await projects.createProject(required('name'));
      print(`Created project ${created.projectId} on ${target}\n  secret key: ${created.secretKey}\n  public key: ${created.publicKey}\nKeep the keys now: only their hashes are stored.`, created);
      break;
    }
    case 'list-projects': {
      const list = await projects.listProjects();
      print(list.map((p) => `${p.projectId}  ${p.status.padEnd(8)}  ${p.createdAt}  ${p.name}`).join('\n') || 'No projects.', list);
      break;
    }
    case 'list-keys': {
      const keys = (await projects.listApiKeys(required('project'))).map(({ keyHash: _hash, ...key }) => key);
      print(keys.map((k) => `${k.keyId}  ${k.kind.padEnd(6)}  ${k.prefix}${k.last4 ? ` …${k.last4}` : ''}  ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}  ${k.name}`).join('\n') || 'No keys.', keys);
      break;
    }
    case 'rotate-key': {
      const kind = values.kind;
      if (kind !== 'secret' && kind !== 'public') fail('--kind must be secret or public.');
      const rotated = await projects.rotateApiKey(required('project'), kind);
      print(`New ${kind} key ${rotated.keyId}: ${rotated.key}\nThe previous key keeps working until you revoke it (revoke-key).`, rotated);
      break;
    }
    case 'revoke-key': {
      const revoked = await projects.revokeApiKey(required('project'), required('key'));
      print(`Revoked key ${revoked.keyId}.`, revoked);
      break;
    }
    case 'disable-project':
    case 'enable-project': {
      const projectId = required('project');
      const status = command === 'disable-project' ? 'DISABLED' : 'ACTIVE';
      await projects.setProjectStatus(projectId, status);
      print(`Project ${projectId} is ${status}.`, { projectId, status });
      break;
    }
    case 'create-user': {
      const role = values.role;
      if (role !== 'OWNER' && role !== 'MEMBER') fail('--role must be OWNER or MEMBER.');
      const { provisionMember } = await import('../../shared/accounts/provisioning');
      const member = await provisionMember({ email: required('email'), projectId: required('project'), role, ...(values.name ? { name: values.name } : {}), ...(values.password ? { password: values.password } : {}) });
      const password = member.generatedPassword ? `\n  password: ${member.generatedPassword}\nKeep it now: only its hash is stored.` : member.createdUser ? '' : '\n  (an existing account: its password is unchanged)';
      print(`User ${member.email} (${member.userId}) is ${member.role} of project ${member.projectId} on ${target}${password}`, member);
      break;
    }
    case 'list-suppressed': {
      const { listSuppressed } = await import('../../shared/suppression/suppression');
      const items = [];
      let cursor: string | undefined;
      do {
        const page = await listSuppressed(required('project'), { limit: 100, cursor });
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      print(items.map((item) => `${item.email}  ${item.reason}  ${item.createdAt}`).join('\n') || 'No suppressed addresses.', items);
      break;
    }
    case 'unsuppress': {
      const { removeSuppressed } = await import('../../shared/suppression/suppression');
      const email = required('email');
      const removed = await removeSuppressed(required('project'), email);
      print(removed ? `${email} is no longer suppressed.` : `${email} was not suppressed.`, { email, removed });
      break;
    }
    case 'verify-domain': {
      const domain = required('domain').toLowerCase();
      const sesUrl = `http://127.0.0.1:${localSettings().ports.SES_PORT}`;
      const response = await fetch(`${sesUrl}/_local/identities/${encodeURIComponent(domain)}/verify`, { method: 'POST' }).catch(() => fail(`No local SES at ${sesUrl}: is npm start running?`));
      if (!response.ok) fail(`The local SES has no identity ${domain}: add it with POST /domains first.`);
      print(`${domain} is verified in the local SES; GET /domains shows it VERIFIED.`, { domain, verified: true });
      break;
    }
    case 'simulate-ses-event': {
      const sesUrl = `http://127.0.0.1:${localSettings().ports.SES_PORT}`;
      const response = await fetch(`${sesUrl}/_local/simulate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ emailId: required('email-id'), type: required('type'), bounceType: values['bounce-type'], link: values.link }),
      }).catch(() => fail(`No local SES at ${sesUrl}: is npm start running?`));
      const answer = (await response.json()) as { message?: string; published?: unknown };
      if (!response.ok) fail(answer.message ?? `The local SES answered ${response.status}`);
      print(`Published the ${values.type} event for email ${values['email-id']}.`, answer.published);
      break;
    }
    default:
      fail(`Unknown command "${command}".\n\n${usage}`);
  }
}

main().catch((error: Error) => {
  console.error(`${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`);
  process.exit(1);
});
