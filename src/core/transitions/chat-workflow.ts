import { z } from 'zod';
import type { WorkflowDefinitionInput } from './workflow-definition.js';
import { parseWorkflow, type Workflow } from './workflow.js';

/** What a conversational turn ends with: a message to the person. */
export const ReplyArtifactSchema = z.strictObject({
  message: z.string().min(1),
});

const CHAT_TOOLS = ['read_file', 'list_dir', 'glob', 'grep', 'write_file', 'edit_file', 'exec'];

/**
 * The built-in `chat` workflow (issue #36): one stage in which the model converses with the
 * person, uses the tools (assessed, confined and approval-gated as in any stage) and ends its
 * turn with a reply (`finish_reply`). With follow-up turns the session takes the next message
 * as another turn; the project's checks run when a turn changed files and are reported with the
 * reply (role `conversational`, features/follow-up-turns).
 */
export function chatWorkflowDefinition(): WorkflowDefinitionInput {
  return {
    id: 'chat',
    description:
      'one conversational stage: the model works with the tools and ends each turn with a reply',
    initialStage: 'chat',
    stages: [
      {
        id: 'chat',
        role: 'conversational',
        instructions:
          'Work with the person on their request: answer questions, and inspect or change the workspace with the tools as they ask. Do only what they asked. End your turn with a reply to the person: what you did, what you found, and anything they must decide.',
        allowedTools: CHAT_TOOLS,
        capabilities: ['tool_calling'],
        artifact: { kind: 'reply', schema: z.toJSONSchema(ReplyArtifactSchema) },
        retry: { maxAttempts: 2, retryOn: ['inference', 'provider'] },
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  };
}

/** The built-in `chat` workflow. */
export const chatWorkflow: Workflow = parseWorkflow(chatWorkflowDefinition(), {
  source: 'chatWorkflow',
});
