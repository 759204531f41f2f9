import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/**
 * A model proposed a tool call. The raw argument text is kept verbatim (it may not even be
 * JSON); whether the call runs is decided by later events.
 */
export const toolCallProposed = defineEvent({
  type: 'tool_call_proposed',
  description: 'A model proposed a tool call; nothing has run yet.',
  fields: {
    callId: z.string().min(1),
    stageId: z.string().min(1),
    tool: z.string().min(1),
    argsRaw: z.string(),
  },
});

export const toolEvents = [toolCallProposed] as const;
