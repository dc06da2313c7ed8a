/**
 * The tags the sender puts on every message (SendEmail's EmailTags), which SES hands back on each
 * of its events: the SES event handling finds the email record by them. Mail already sent carries
 * these names, so they never change.
 */
export const sesTagNames = { project: 'mw_project', email: 'mw_email', source: 'mw_source' } as const;
