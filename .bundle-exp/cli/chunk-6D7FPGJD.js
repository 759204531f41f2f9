import {
  parseWorkflow
} from "./chunk-OYJRPCLU.js";

// src/core/transitions/default-coding-workflow.ts
import { z } from "zod";
var sha256 = z.string().regex(/^[0-9a-f]{64}$/);
var PlanArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  steps: z.array(z.string().min(1)).min(1),
  files: z.array(
    z.strictObject({ path: z.string().min(1), change: z.enum(["create", "modify", "delete"]) })
  )
});
var ChangeArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  filesChanged: z.array(z.string().min(1))
});
var VerificationArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  passed: z.boolean()
});
var ReviewArtifactSchema = z.strictObject({
  verdict: z.enum(["approved", "rework"]),
  reviewedArtifact: sha256,
  notes: z.array(z.string().min(1))
});
var RecoveryArtifactSchema = z.strictObject({
  summary: z.string().min(1),
  notesAddressed: z.array(z.string().min(1)),
  filesChanged: z.array(z.string().min(1))
});
var RETRYABLE = ["inference", "provider", "tool", "validation"];
var READ_TOOLS = ["read_file", "list_dir", "glob", "grep"];
var WRITE_TOOLS = [...READ_TOOLS, "write_file", "edit_file", "exec"];
function defaultCodingWorkflowDefinition(options = {}) {
  const maxReviewCycles = options.maxReviewCycles ?? 3;
  const maxVerifyCycles = options.maxVerifyCycles ?? 3;
  const retry = { maxAttempts: options.maxAttempts ?? 3, retryOn: RETRYABLE };
  const failed = { when: { on: "failure" }, end: "failed" };
  const precondition = {
    when: { on: "failure", categories: ["workspace_precondition"] },
    to: "recovery",
    maxTraversals: 1
  };
  const artifact = (kind, schema) => ({ kind, schema: z.toJSONSchema(schema) });
  return {
    id: "default-coding",
    description: "plan \u2192 implement \u2192 verify \u2192 review, with bounded rework and one recovery",
    initialStage: "plan",
    stages: [
      {
        id: "plan",
        role: "planner",
        instructions: "Read the task and the workspace; produce a plan naming the files to change.",
        allowedTools: READ_TOOLS,
        capabilities: ["tool_calling"],
        artifact: artifact("plan", PlanArtifactSchema),
        retry,
        transitions: [{ when: { on: "success" }, to: "implement" }, failed]
      },
      {
        id: "implement",
        role: "implementer",
        instructions: "Carry out the plan, addressing any review notes.",
        allowedTools: WRITE_TOOLS,
        capabilities: ["tool_calling"],
        artifact: artifact("change", ChangeArtifactSchema),
        retry,
        transitions: [{ when: { on: "success" }, to: "verify" }, precondition, failed]
      },
      {
        id: "verify",
        role: "verifier",
        instructions: "Run the definition of done and report whether the change satisfies it.",
        allowedTools: [...READ_TOOLS, "exec"],
        capabilities: ["tool_calling"],
        artifact: artifact("verification", VerificationArtifactSchema),
        retry: { ...retry, retryOn: RETRYABLE.filter((category) => category !== "validation") },
        ...options.definitionOfDone ? { definitionOfDone: options.definitionOfDone } : {},
        transitions: [
          { when: { on: "success" }, to: "review" },
          {
            when: { on: "failure", categories: ["validation"] },
            to: "implement",
            maxTraversals: maxVerifyCycles
          },
          precondition,
          failed
        ]
      },
      {
        id: "review",
        role: "reviewer",
        instructions: "Review the verified change; approve it or ask for rework with notes.",
        allowedTools: READ_TOOLS,
        capabilities: ["tool_calling"],
        artifact: artifact("review", ReviewArtifactSchema),
        verdicts: ["approved", "rework"],
        retry,
        transitions: [
          { when: { on: "verdict", verdict: "approved" }, end: "completed" },
          {
            when: { on: "verdict", verdict: "rework" },
            to: "implement",
            maxTraversals: maxReviewCycles
          },
          { when: { on: "verdict", verdict: "rework" }, to: "recovery", maxTraversals: 1 },
          { when: { on: "verdict", verdict: "rework" }, end: "failed" },
          failed
        ]
      },
      {
        id: "recovery",
        role: "recovery",
        instructions: "Address every accumulated review note, or create the missing prerequisite an earlier stage failed on, in one final fix.",
        allowedTools: WRITE_TOOLS,
        capabilities: ["tool_calling"],
        artifact: artifact("recovery", RecoveryArtifactSchema),
        retry,
        transitions: [{ when: { on: "success" }, to: "verify" }, failed]
      }
    ]
  };
}
function createDefaultCodingWorkflow(options = {}) {
  return parseWorkflow(defaultCodingWorkflowDefinition(options), {
    source: "defaultCodingWorkflow"
  });
}
var defaultCodingWorkflow = createDefaultCodingWorkflow();

export {
  createDefaultCodingWorkflow,
  defaultCodingWorkflow
};
