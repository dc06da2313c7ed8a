import { createHttpHandler } from '../../shared/http/handler';
import { assetRoutes } from './asset-routes';
import { sessionRoutes } from './session-routes';

/** The web dashboard: its app's files and its session routes (the only routes the dashboard has alone). */
export const handler = createHttpHandler({ ...assetRoutes, ...sessionRoutes });
