/**
 * LOCAL_FAULTS: failures of the local AWS, per service, injected by the IAM fronts
 * (infra/local/iam/proxy.ts) into the functions' calls, in each service's own wire shape so that
 * the unchanged SDK retries them as it does in AWS. For example
 *
 *   dynamodb:throttle=0.1,error=0.02;sqs:error=0.05;s3:error=0.05;ses:throttle=0.3,error=0.05;scheduler:error=0.05
 *
 * `throttle` and `error` are the shares (0–1) of calls answered with the service's throttling
 * error and its internal error, chosen per call; `latency` (ms) delays every call. Parsed once,
 * by `parseLocalFaults`; a malformed value is refused with a message that says what is wrong.
 */

export const FAULT_SERVICES = ['dynamodb', 'sqs', 's3', 'ses', 'scheduler'] as const;
export type FaultService = (typeof FAULT_SERVICES)[number];

export interface ServiceFaults {
  /** Share of calls answered with the service's throttling error. */
  throttle: number;
  /** Share of calls answered with the service's internal error (5xx). */
  error: number;
  /** Milliseconds added before every call. */
  latencyMs: number;
}

export type LocalFaults = Partial<Record<FaultService, ServiceFaults>>;

export class LocalFaultsError extends Error {}

const EXAMPLE = 'dynamodb:throttle=0.1,error=0.02;sqs:error=0.05;s3:latency=50';

/** Parses LOCAL_FAULTS; undefined or blank means no faults. Throws LocalFaultsError on a malformed value. */
export function parseLocalFaults(raw: string | undefined): LocalFaults {
  const faults: LocalFaults = {};
  if (raw === undefined || raw.trim() === '') return faults;
  const fail = (why: string): never => {
    throw new LocalFaultsError(`LOCAL_FAULTS is malformed: ${why}. Expected service:key=value,…;… with services ${FAULT_SERVICES.join(', ')} and keys throttle, error (0–1) and latency (ms), e.g. "${EXAMPLE}".`);
  };
  for (const part of raw.split(';').map((text) => text.trim()).filter(Boolean)) {
    const colon = part.indexOf(':');
    if (colon < 0) fail(`"${part}" names no service (service:key=value)`);
    const service = part.slice(0, colon).trim().toLowerCase() as FaultService;
    if (!FAULT_SERVICES.includes(service)) fail(`unknown service "${part.slice(0, colon).trim()}"`);
    if (faults[service]) fail(`${service} is given twice`);
    const settings: ServiceFaults = { throttle: 0, error: 0, latencyMs: 0 };
    const pairs = part.slice(colon + 1).split(',').map((text) => text.trim()).filter(Boolean);
    if (pairs.length === 0) fail(`${service} has no settings`);
    for (const pair of pairs) {
      const [key, value, ...rest] = pair.split('=').map((text) => text.trim());
      if (value === undefined || value === '' || rest.length > 0) fail(`"${pair}" is not key=value`);
      const number = Number(value);
      switch (key!.toLowerCase()) {
        case 'throttle':
        case 'error':
          if (!Number.isFinite(number) || number < 0 || number > 1) fail(`${service} ${key} must be a share from 0 to 1, got "${value}"`);
          settings[key!.toLowerCase() as 'throttle' | 'error'] = number;
          break;
        case 'latency':
          if (!Number.isInteger(number) || number < 0) fail(`${service} latency must be a whole number of milliseconds, got "${value}"`);
          settings.latencyMs = number;
          break;
        default:
          fail(`unknown key "${key}" for ${service}`);
      }
    }
    if (settings.throttle + settings.error > 1) fail(`${service} throttle and error add up to more than 1`);
    faults[service] = settings;
  }
  return faults;
}

/** One line per faulty service, as `npm start` prints them; empty when there are none. */
export function describeLocalFaults(faults: LocalFaults): string[] {
  const percent = (share: number) => `${+(share * 100).toFixed(2)} %`;
  return (Object.entries(faults) as [FaultService, ServiceFaults][]).map(([service, settings]) => {
    const parts = [
      settings.throttle > 0 ? `${percent(settings.throttle)} throttled` : '',
      settings.error > 0 ? `${percent(settings.error)} failed (5xx)` : '',
      settings.latencyMs > 0 ? `+${settings.latencyMs} ms` : '',
    ].filter(Boolean);
    return `${service.padEnd(10)} ${parts.join(', ') || 'no faults'}`;
  });
}

/** What one call meets: nothing, a throttling answer or an internal error, by one draw of `random`. */
export function drawFault(settings: ServiceFaults | undefined, random: () => number = Math.random): 'throttle' | 'error' | undefined {
  if (!settings) return undefined;
  const roll = random();
  if (roll < settings.throttle) return 'throttle';
  if (roll < settings.throttle + settings.error) return 'error';
  return undefined;
}

/**
 * The user agent mark of the local stack's own service calls acting as a role (the event source
 * mappings' polls and deletes, the Scheduler's and the event bus's deliveries): AWS's own
 * machinery, which retries its dependencies internally, so faults are not injected into them.
 */
export const LOCAL_SERVICE_USER_AGENT = 'mailwright-local-service';
