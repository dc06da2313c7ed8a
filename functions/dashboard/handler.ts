import { createHttpHandler } from '../../shared/http/handler';
import { assetRoutes } from './asset-routes';

/** The web dashboard: its app's files (and, with the accounts work, its session routes). */
export const handler = createHttpHandler({ ...assetRoutes });
