import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConsoleMessage, Page } from 'playwright-core';
import type { LocalStack } from './local-stack';

/**
 * The dashboard's browser tests' shared steps: signing in, the page checks, navigation. Signing in: as the local owner the stack seeds
 * (owner@<LOCAL_SENDER_DOMAIN>, its password kept in the stack's data folder), through the form.
 */
export function localOwner(stack: Pick<LocalStack, 'dataDir'>): { email: string; password: string } {
  return JSON.parse(readFileSync(path.join(stack.dataDir, 'local-owner.json'), 'utf8')) as { email: string; password: string };
}

/** Opens the dashboard, signs in through its form (as the local owner, or `who`), and waits for the Overview. */
export async function signIn(page: Page, stack: Pick<LocalStack, 'baseUrl' | 'dataDir'>, who?: { email: string; password: string }) {
  const owner = who ?? localOwner(stack);
  await page.goto(`${stack.baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}

const AXE_SOURCE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/**
 * Loads that fail on purpose, which the browser logs: the session routes refuse a wrong password
 * and a renewal without a session (the app's first look when it opens).
 */
const EXPECTED_FAILED_LOADS = /\/(dashboard\/session)(\/|\?|$)/;

/** Errors the page logs from now on, apart from the expected failed loads. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    if (message.text().startsWith('Failed to load resource') && EXPECTED_FAILED_LOADS.test(new URL(message.location().url).pathname)) return;
    errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** axe-core's serious and critical findings on the page as it is now (evaluated over CDP, so the page's CSP does not apply). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => (await (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run()).violations);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** Client-side navigation, as a click on a link does. */
export async function goTo(page: Page, route: string, heading: string | RegExp) {
  await page.evaluate(`history.pushState({}, '', ${JSON.stringify(`/dashboard${route}`)}); dispatchEvent(new PopStateEvent('popstate'))`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** A page's serious axe findings, and whether it is wider than the viewport (a sideways scroll). */
export async function pageFits(page: Page, width: number): Promise<string[]> {
  const violations = await seriousViolations(page);
  if (Number(await page.evaluate('document.documentElement.scrollWidth')) > width) violations.push(`wider than ${width} px`);
  return violations;
}
