/**
 * Table keys of the sender's shared state: built here and nowhere else.
 *
 * | item   | PK         | SK         | attributes                                              |
 * |--------|------------|------------|---------------------------------------------------------|
 * | pacer  | SES_PACER  | SES_PACER  | tat: theoretical arrival time of the next send (epoch ms) |
 *
 * The pacer is global, not per project: SES's sending rate is per account and region.
 */
export const sendingKeys = {
  pacer: () => ({ PK: 'SES_PACER', SK: 'SES_PACER' }),
};
