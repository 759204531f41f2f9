/**
 * A one-stage workflow for the CLI process tests: change the workspace with `tools`, then
 * propose a change artifact naming the files; success completes, any failure ends it.
 */
export function oneStageWorkflow(
  id: string,
  tools: readonly string[],
  instructions = 'Change the workspace as the task says.',
): string {
  return `id: ${id}
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: ${instructions}
    allowedTools: [${tools.join(', ')}]
    capabilities: [tool_calling]
    artifact:
      kind: change
      schema:
        type: object
        properties:
          summary: { type: string }
          filesChanged: { type: array, items: { type: string } }
        required: [summary, filesChanged]
        additionalProperties: false
    transitions:
      - when: { on: success }
        end: completed
      - when: { on: failure }
        end: failed
`;
}

/** The one-stage workflow most CLI process tests run: read and write files. */
export const WRITE_ONCE_WORKFLOW = oneStageWorkflow('write-once', ['read_file', 'write_file']);
