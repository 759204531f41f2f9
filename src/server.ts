/**
 * `correx/server`: the REST + WebSocket server and the router people chat with. Loads fastify.
 */
export { createCorrexServer } from './interfaces/server/correx-server.js';
export type { SessionHost, StartSessionRequest, HostedRun } from './interfaces/session-host.js';
export {
  createRouterFacade,
  type RouterFacade,
  type RouterFacadeOptions,
  type RouterReply,
} from './core/router/router-facade.js';
