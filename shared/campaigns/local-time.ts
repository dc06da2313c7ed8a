import { validationFailed } from '../http/errors';
import type { Recipient } from './audience';

/**
 * Delivery at a local time in each recipient's own time zone (POST /campaigns/{id}/send with
 * `localTime`): the pure part — time zones, their UTC moments, the plan kept on the campaign.
 * The moments are computed with Intl (the runtime's IANA data), the same at send time and at
 * dispatch. Every zone that exists has one of the plan's moments: the plan holds the distinct
 * moments of every IANA zone and of every whole-hour offset (Etc/GMT-14 … Etc/GMT+12), so a
 * contact created after the send, in a zone nobody had, still has its moment.
 * shared/campaigns/local-time-send.ts sends by the plan; shared/campaigns/zones.ts holds and
 * releases each moment's mail.
 */

/** What the campaign keeps while it is sent at a local time (`delivery` on the campaign item). */
export interface LocalTimeDelivery {
  mode: 'LOCAL_TIME';
  /** The wall-clock time, `YYYY-MM-DDTHH:MM`. */
  localTime: string;
  /** The contact field holding an IANA zone, e.g. `data.timezone`. */
  timeZoneField: string;
  fallbackTimeZone: string;
  /** This plan's id: the messages of its schedules name it, so those of an older plan do nothing. */
  planId: string;
  /** Every distinct UTC moment of the plan (moment keys, ascending). */
  moments: string[];
  /** Moment key → when its mail was released (the first moment: when the audience was frozen). */
  released: Record<string, string>;
  /** Resolved zone → recipients, counted by the fan-out's checkpoints (exact under redelivery). */
  zones: Record<string, number>;
}

export interface LocalTimeInput {
  localTime: string;
  timeZoneField?: string;
  fallbackTimeZone?: string;
}

export const defaultTimeZoneField = 'data.timezone';
export const defaultFallbackTimeZone = 'UTC';

/** `YYYY-MM-DDTHH:MM`, optionally with seconds (no offset: it is read in each recipient's zone). */
export const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
/** A contact field: `data.` and one or more keys. */
export const TIME_ZONE_FIELD = /^data(\.[A-Za-z0-9_-]{1,100}){1,5}$/;
/** What is looked up as a zone name: IANA names (Area/Location, Etc/GMT+12, UTC); offsets like +05:45 are not zones here. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** The formatter of a zone, or null when it is no zone the runtime knows. */
function formatterOf(timeZone: string): Intl.DateTimeFormat | null {
  if (!formatters.has(timeZone)) {
    let formatter: Intl.DateTimeFormat | null = null;
    if (timeZone.length <= 64 && ZONE_NAME.test(timeZone)) {
      try {
        formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
      } catch {
        formatter = null;
      }
    }
    formatters.set(timeZone, formatter);
  }
  return formatters.get(timeZone)!;
}

/** Whether the runtime knows this IANA zone (case as the contact wrote it). */
export const isTimeZone = (value: unknown): value is string => typeof value === 'string' && formatterOf(value) !== null;

/** The zone's offset from UTC at an instant, in ms (UTC+14 → +14 h). */
export function offsetAt(timeZone: string, instant: number): number {
  const parts = Object.fromEntries(formatterOf(timeZone)!.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The wall-clock time as ms if it were UTC; NaN when it is no valid local time. */
export function wallClock(localTime: string): number {
  const match = LOCAL_TIME.exec(localTime);
  if (!match) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return NaN;
  return ms;
}

/**
 * The UTC instant at which the zone's clock reads the wall-clock time. Across a DST change: a
 * time that occurs twice is its first occurrence; a time the clock skips is read with the offset
 * before the change (09:30 in a gap 09:00–10:00 is sent at 10:30 local).
 */
export function momentIn(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - 26 * 3600_000);
  const after = offsetAt(timeZone, wall + 26 * 3600_000);
  const candidates = [...new Set([before, after, offsetAt(timeZone, wall)])].map((offset) => wall - offset).filter((instant) => wall - offsetAt(timeZone, instant) === instant);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - Math.min(before, after);
}

/** A moment's key in the plan: `m` and its epoch seconds. */
export const momentKey = (instant: number) => `m${Math.round(instant / 1000)}`;
export const momentOfKey = (key: string) => Number(key.slice(1)) * 1000;

/** Every zone that exists: the runtime's IANA zones, UTC and every whole-hour Etc/GMT offset zone. */
export function allTimeZones(): string[] {
  const etc = Array.from({ length: 27 }, (_, index) => index - 14).map((hours) => (hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`));
  return [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', ...etc])];
}

let names: Map<string, string> | undefined;
const canonicalNames = () => (names ??= new Map(allTimeZones().map((zone) => [zone.toLowerCase(), zone])));

/** The distinct moment keys of every zone at the wall-clock time, ascending. */
export function allMoments(wall: number): string[] {
  const instants = new Set(allTimeZones().map((zone) => momentIn(zone, wall)));
  return [...instants].sort((a, b) => a - b).map(momentKey);
}

/** Checks the request's local-time fields (422 on the field) and returns them with the defaults. */
export function parseLocalTimeInput(input: LocalTimeInput): { localTime: string; wall: number; timeZoneField: string; fallbackTimeZone: string } {
  const wall = wallClock(input.localTime);
  const timeZoneField = input.timeZoneField ?? defaultTimeZoneField;
  const fallbackTimeZone = input.fallbackTimeZone ?? defaultFallbackTimeZone;
  const errors = [
    ...(Number.isNaN(wall) ? [{ field: 'localTime', code: 'INVALID_LOCAL_TIME', message: 'localTime must be a date and time without a zone, e.g. 2026-12-01T09:00' }] : []),
    ...(TIME_ZONE_FIELD.test(timeZoneField) ? [] : [{ field: 'timeZoneField', code: 'INVALID_FIELD', message: 'timeZoneField must name a contact data field, e.g. data.timezone' }]),
    ...(isTimeZone(fallbackTimeZone) ? [] : [{ field: 'fallbackTimeZone', code: 'INVALID_TIME_ZONE', message: 'fallbackTimeZone must be an IANA time zone, e.g. Europe/Berlin or UTC' }]),
  ];
  if (errors.length > 0) throw validationFailed(errors);
  return { localTime: input.localTime.slice(0, 16), wall, timeZoneField, fallbackTimeZone };
}

/** The recipient's zone: the field's value when it is a zone (as the zone list spells it: europe/berlin is Europe/Berlin), else the fallback. */
export function zoneOf(recipient: Pick<Recipient, 'data'>, delivery: Pick<LocalTimeDelivery, 'timeZoneField' | 'fallbackTimeZone'>): string {
  let value: unknown = { data: recipient.data };
  for (const key of delivery.timeZoneField.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (!isTimeZone(value)) return delivery.fallbackTimeZone;
  return canonicalNames().get(value.toLowerCase()) ?? value;
}

/**
 * A zone's moment key in the plan. A zone whose moment is not in the plan (the runtime's zone
 * data changed between send and dispatch) goes by the fallback's moment, which is.
 */
export function zoneMoment(zone: string, delivery: Pick<LocalTimeDelivery, 'localTime' | 'fallbackTimeZone' | 'moments'>): string {
  const wall = wallClock(delivery.localTime);
  const moment = momentKey(momentIn(zone, wall));
  return delivery.moments.includes(moment) ? moment : momentKey(momentIn(delivery.fallbackTimeZone, wall));
}

/** The recipient's zone and moment key. */
export function recipientMoment(recipient: Pick<Recipient, 'data'>, delivery: Pick<LocalTimeDelivery, 'localTime' | 'timeZoneField' | 'fallbackTimeZone' | 'moments'>): { zone: string; moment: string } {
  const zone = zoneOf(recipient, delivery);
  return { zone, moment: zoneMoment(zone, delivery) };
}

/** The fields set on a campaign when its first moment's schedule starts it: every moment passed by then is released. */
export function releasedAtStart(campaign: { delivery?: LocalTimeDelivery }, sentAt: string): { delivery?: LocalTimeDelivery } {
  const { delivery } = campaign;
  if (!delivery) return {};
  const passed = delivery.moments.filter((moment) => momentOfKey(moment) <= Date.parse(sentAt));
  const first = delivery.moments[0]!;
  return { delivery: { ...delivery, released: { ...Object.fromEntries([first, ...passed].map((moment) => [moment, sentAt])), ...(delivery.released ?? {}) } } };
}

export type ZoneStatus = 'PENDING' | 'SENT' | 'CANCELLED';

export interface ZoneView {
  timeZone: string;
  /** The UTC moment the zone's clock reads localTime. */
  at: string;
  recipients: number;
  /** PENDING until its moment; SENT: its mail went to the sender at its moment; CANCELLED: the campaign was cancelled before. */
  status: ZoneStatus;
}

export interface DeliveryView {
  mode: 'LOCAL_TIME';
  localTime: string;
  timeZoneField: string;
  fallbackTimeZone: string;
  /** When the first zone starts: the audience is frozen then and the zones are listed. */
  startsAt: string;
  /** When the last zone can go out. */
  endsAt: string;
  zones: ZoneView[];
}

/** The API's view of a local-time delivery: the zones of the frozen audience, by moment. */
export function presentDelivery(delivery: LocalTimeDelivery, status: string): DeliveryView {
  const zones = Object.entries(delivery.zones ?? {})
    .map(([timeZone, recipients]) => {
      const moment = zoneMoment(timeZone, delivery);
      const zoneStatus: ZoneStatus = delivery.released?.[moment] !== undefined ? 'SENT' : status === 'CANCELLED' ? 'CANCELLED' : 'PENDING';
      return { timeZone, at: new Date(momentOfKey(moment)).toISOString(), recipients, status: zoneStatus };
    })
    .sort((a, b) => a.at.localeCompare(b.at) || a.timeZone.localeCompare(b.timeZone));
  return {
    mode: 'LOCAL_TIME',
    localTime: delivery.localTime,
    timeZoneField: delivery.timeZoneField,
    fallbackTimeZone: delivery.fallbackTimeZone,
    startsAt: new Date(momentOfKey(delivery.moments[0]!)).toISOString(),
    endsAt: new Date(momentOfKey(delivery.moments[delivery.moments.length - 1]!)).toISOString(),
    zones,
  };
}
