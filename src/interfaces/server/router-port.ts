import type { RouterFacade } from '../../core/router/router-facade.js';
import type { UserInputRouter } from './server-deps.js';

/** The server's router port over core's RouterFacade. */
export function routerPortFrom(facade: Pick<RouterFacade, 'onUserInput'>): UserInputRouter {
  return {
    async onUserInput(sessionId, input, mode, signal) {
      const reply = await facade.onUserInput(sessionId, input, mode, signal);
      return {
        answer: reply.content,
        citedSequences: reply.citedSequences,
        ...(reply.steeringNote === null ? {} : { note: reply.steeringNote }),
      };
    },
  };
}
