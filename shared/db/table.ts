import { requiredEnv } from '../config/env';
import { variables } from '../config/variables';

/** The single table. Its name is bound by the CDK function construct (bindTable). */
export const tableName = requiredEnv(variables.tableName);
