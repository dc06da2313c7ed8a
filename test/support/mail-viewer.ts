import { stack } from './api-client';

export interface StoredEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  attachments: { content: string; contentType: string; filename: string; size: number }[];
  headers?: { name: string; value: string }[];
  at: number;
}

export async function storedEmails(sesUrl = stack.sesUrl): Promise<StoredEmail[]> {
  const response = await fetch(`${sesUrl}/store`);
  return ((await response.json()) as { emails: StoredEmail[] }).emails;
}

/** Waits until the viewer holds `count` emails to `recipient` (the sender works asynchronously). */
export async function waitForEmails(recipient: string, count = 1, { timeoutMs = 30_000, sesUrl = stack.sesUrl } = {}): Promise<StoredEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await storedEmails(sesUrl)).filter((email) => email.destination.to.some((to) => to.includes(recipient)));
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
