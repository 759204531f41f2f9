import type { FastifyRequest } from 'fastify';

/** A REST request as the handlers read it: path parameters and the raw query. */
export type Request = FastifyRequest<{
  Params: { sessionId?: string; callId?: string; grantId?: string; evalId?: string; call?: string };
  Querystring: Record<string, unknown>;
}>;

/** One route's handler: a status (default 200) and the body to send. */
export type Handler = (request: Request) => Promise<{ status?: number; body: unknown }>;
