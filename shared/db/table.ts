import { requiredEnv } from '../config/env';

/** The single table. Its name is bound by the CDK function construct (bindTable). */
export const tableName = requiredEnv('TABLE_NAME');
