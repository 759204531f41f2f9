import { hasCapability } from '../../tools/tool-contract.js';
import { hostAllowed, parseUrlTarget } from '../host-match.js';
import { finding } from '../finding.js';
import { EGRESS_ASKS_TO_WIDEN } from '../toolintent-flags.js';
import type { ToolCallRule } from '../tool-call-rule.js';
import type { Finding } from '../toolintent-events.js';

const NETWORK_HOST = 'network-host';

/** A confined command's host off the allowlist, asked (flag egress-asks-to-widen). */
export const EGRESS_WIDEN = 'egress_widen';
/** A confined command's host a person granted with "always allow". */
export const EGRESS_GRANTED = 'egress_granted';

/**
 * NetworkHost: every URL a call would contact (URL arguments, and URLs inside an exec command
 * line) must be http(s) to a host on the session's egress allowlist — a projection of
 * `egress_allowlist_changed` events. An empty allowlist denies everything. Network access to an
 * allowed host is T3 (it leaves the machine); a host outside the list is a BLOCK.
 */
export const networkHostRule: ToolCallRule = {
  id: NETWORK_HOST,
  appliesTo: (context) => context.values.urls.length > 0 || hasCapability(context.tool, 'NETWORK'),
  evaluate(context) {
    const findings: Finding[] = [];
    // Flag egress-asks-to-widen: a confined command's host off the list is a question for a
    // person (the proxy holds the call to the hosts it was approved for), not a final refusal.
    const widens =
      context.flags.has(EGRESS_ASKS_TO_WIDEN.name) && context.values.exec?.confined === true;
    if (context.values.urls.length === 0) {
      findings.push(
        finding(
          NETWORK_HOST,
          'block',
          'no_url',
          `${context.tool.name} declares network access but names no URL`,
          'T3',
        ),
      );
    }
    for (const url of context.values.urls) {
      const parsed = parseUrlTarget(url.raw);
      if (!parsed.ok) {
        findings.push(
          finding(NETWORK_HOST, 'block', 'bad_url', `${url.param}: ${parsed.reason}`, 'T3'),
        );
      } else if (widens && (context.view.grantedHosts ?? []).includes(parsed.host)) {
        findings.push(
          finding(
            NETWORK_HOST,
            'info',
            EGRESS_GRANTED,
            `${parsed.host}: network access granted by a person ("always allow")`,
            'T2',
          ),
        );
      } else if (widens && !hostAllowed(parsed.host, context.view.egressAllowlist)) {
        findings.push(
          finding(
            NETWORK_HOST,
            'ask',
            EGRESS_WIDEN,
            `needs network access to ${parsed.host} (not on the egress allowlist): approving lets this call reach it`,
            'T3',
          ),
        );
      } else if (!hostAllowed(parsed.host, context.view.egressAllowlist)) {
        const why =
          context.view.egressAllowlist.length === 0
            ? 'the egress allowlist is empty (deny all)'
            : 'it is not on the egress allowlist';
        findings.push(
          finding(NETWORK_HOST, 'block', 'egress_denied', `${parsed.host}: ${why}`, 'T3'),
        );
      } else {
        findings.push(
          finding(
            NETWORK_HOST,
            'info',
            'egress_allowed',
            `${parsed.host} is on the egress allowlist`,
            'T3',
          ),
        );
      }
    }
    return findings;
  },
};

/**
 * ExecInterpreter: every program an exec call really runs — each command of a pipeline, list,
 * subshell or substitution, the command behind `env`, `xargs`, `find -exec`, `bash -c` — must
 * be on the policy's allowed programs, and flags that run inline code or model-chosen programs
 * (`python -c`, `git -c`, `rg --pre`, sed `e`/`w`, install scripts) are refused. The analysis
 * is done once by the ParamValueExtractor; this rule reports it.
 */
export const execInterpreterRule: ToolCallRule = {
  id: 'exec-interpreter',
  appliesTo: (context) => context.values.exec !== null,
  evaluate: (context) => context.values.exec?.findings ?? [],
};
