/**
 * Where the app and the API are, from the URL this module was loaded from: the built files sit
 * directly under the dashboard's base (/dashboard/ locally, /api/dashboard/ behind the stage),
 * and the API is the folder above it.
 */
const appBase = new URL(/* @vite-ignore */ '.', import.meta.url);

/** The router's basename, e.g. `/api/dashboard`. */
export const routerBasename = appBase.pathname.replace(/\/$/, '');

/** The API's base URL, e.g. `https://…/api`. */
export const apiBaseUrl = new URL('..', appBase).href.replace(/\/$/, '');
