import { createHttpHandler } from '../../shared/http/handler';
import { sessionRoutes } from './session-routes';

export const handler = createHttpHandler({ ...sessionRoutes });
