/**
 * A one-stage workflow the CLI process tests run: write files, then propose a change artifact
 * naming them; success completes, any failure ends it.
 */
export const WRITE_ONCE_WORKFLOW = `id: write-once
initialStage: implement
stages:
  - id: implement
    role: implementer
    instructions: Change the workspace as the task says.
    allowedTools: [read_file, write_file]
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
