import {
  parsePersonName
} from "./chunk-XMF5IPWG.js";
import "./chunk-X5SESA4I.js";
import {
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  describeGrantScope,
  recordGrant
} from "./chunk-BE4BQRBL.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  activeGrants,
  appendToSession,
  approvalGrantsProjection,
  replay
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/grants-command.ts
import { Command, InvalidArgumentError } from "commander";
function parseInstant(value) {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new InvalidArgumentError("expected an ISO-8601 date-time, e.g. 2026-12-01T18:00:00Z");
  return new Date(time).toISOString();
}
function grantsCommands(context) {
  const list = new Command("grants").description("list a session's standing approval grants (active ones unless --all)").argument("[session]", SESSION_ARGUMENT).option("--all", "include revoked and expired grants").option("--json", "print JSON").action(
    async (typed, options, command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const { state } = await replay(events, approvalGrantsProjection, sessionId);
        const grants = options.all ? Object.values(state.grants) : activeGrants(state, context.clock.now());
        if (options.json) return context.out(formatJson(grants));
        if (grants.length === 0)
          return context.out(`no ${options.all ? "" : "active "}grants for session ${sessionId}`);
        context.out(
          formatTable(
            ["GRANT", "SCOPE", "FOR", "UNTIL", "BY", "STATE"],
            grants.map((grant) => [
              grant.grantId,
              describeGrantScope(grant.scope),
              grant.lifetime === "stage" ? `stage ${grant.stageId ?? "?"}` : "session",
              grant.expiresAt ?? "revoked or session end",
              grant.by,
              grant.revoked ? "revoked" : "active"
            ])
          )
        );
      });
    }
  );
  const add = new Command("grant").description(
    "allow one exact command, path pattern or host without asking again (recorded as an event)"
  ).argument("[session]", SESSION_ARGUMENT).option("--command <line>", "the exact command line to allow").option("--path <glob>", "a workspace path pattern to allow, with --tool").option("--tool <name>", "the tool a --path grant is for, e.g. write_file").option("--host <host>", "a host network tools may reach").option("--stage <stage>", "only in this stage (default: the whole session)").option("--until <instant>", "expires at this ISO-8601 instant", parseInstant).option("--by <name>", "who grants it (default: $USER)", parsePersonName).requiredOption("--reason <text>", "why, for the audit trail").action(
    async (typed, options, command) => {
      const scopes = [];
      if (options.command !== void 0)
        scopes.push({ kind: "command", command: options.command });
      if (options.path !== void 0) {
        if (options.tool === void 0)
          throw new CorrexError(
            "usage",
            "--path needs --tool (the tool the pattern is allowed for)"
          );
        scopes.push({ kind: "path", tool: options.tool, glob: options.path });
      }
      if (options.host !== void 0) scopes.push({ kind: "host", host: options.host });
      if (scopes.length !== 1)
        throw new CorrexError(
          "usage",
          "give exactly one of --command, --path (with --tool) or --host"
        );
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const { grantId } = await recordGrant(context, events, sessionId, {
          scope: scopes[0],
          stageId: options.stage ?? null,
          expiresAt: options.until ?? null,
          by: options.by ?? context.user,
          reason: options.reason
        });
        context.out(`added ${grantId}: ${describeGrantScope(scopes[0])}`);
      });
    }
  );
  const revoke = new Command("revoke").description("revoke a standing approval grant (recorded as an event)").argument("[session]", SESSION_ARGUMENT).argument("[grant]", "grant id (see `correx grants`)").option("--by <name>", "who revokes it (default: $USER)", parsePersonName).option("--reason <text>", "why, for the audit trail", "revoked from the command line").action(
    async (first, second, options, command) => {
      const last = command.optsWithGlobals().last === true;
      const [typed, grantId] = last && second === void 0 ? [void 0, first] : [first, second];
      if (grantId === void 0) throw new CorrexError("usage", "missing the grant id");
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const { state } = await replay(events, approvalGrantsProjection, sessionId);
        const grant = state.grants[grantId];
        if (grant === void 0)
          throw new CorrexError(
            "grant_not_found",
            `session ${sessionId} has no grant ${grantId}`
          );
        if (grant.revoked) return context.out(`${grantId} was already revoked`);
        await appendToSession(context, events, sessionId, {
          type: "approval_grant_revoked",
          grantId,
          by: options.by ?? context.user,
          reason: options.reason
        });
        context.out(`revoked ${grantId}`);
      });
    }
  );
  return [list, add, revoke];
}
export {
  grantsCommands
};
