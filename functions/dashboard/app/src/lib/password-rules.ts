/** The API's minimum (PASSWORD_MIN_LENGTH in shared/accounts/passwords.ts), asked for before a form is sent. */
export const MIN_PASSWORD_LENGTH = 10;
