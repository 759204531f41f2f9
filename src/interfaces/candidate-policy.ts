import { parseWorkspacePolicy, type WorkspacePolicy } from '../core/policies/workspace-policy.js';
import { parseYamlSource } from '../infrastructure/config/yaml-source.js';

/**
 * A candidate policy from its text: a `harness.yaml` (its `policy:` section) or a bare policy
 * document, YAML or JSON. Fields it omits take the defaults, exactly as `harness.yaml` would.
 * The one reading `correx policy what-if --policy` and the MCP server's what-if tool share.
 */
export function parseCandidatePolicy(text: string, source: string): WorkspacePolicy {
  const data = parseYamlSource(text, source).data as Record<string, unknown> | null;
  const section =
    data !== null && typeof data === 'object' && 'policy' in data ? data.policy : data;
  return parseWorkspacePolicy(section ?? {});
}
