import {
  createMcpToolSource
} from "./chunk-KLZQSOCM.js";
import "./chunk-BBKXGLQ3.js";
import {
  defaultSearchPath
} from "./chunk-3PPHKKT7.js";
import {
  detectSandbox
} from "./chunk-32WDO2ZJ.js";
import "./chunk-76ZWS4BR.js";
import "./chunk-XFVAXZIU.js";
import {
  loadHarnessConfig,
  requireTrustedWorkspace
} from "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";

// src/main/list-configured-mcp-servers.ts
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
async function listConfiguredMcpServers(options) {
  const workspace = realpathSync(options.workspace);
  const harness = await loadHarnessConfig({ correxHome: options.correxHome, workspace });
  requireTrustedWorkspace(options.correxHome, harness);
  if (Object.keys(harness.mcpServers).length === 0) return [];
  const source = createMcpToolSource({
    homeDirectory: realpathSync(homedir()),
    hiddenPaths: [options.correxHome],
    availability: await detectSandbox(),
    searchPath: defaultSearchPath(),
    env: options.env
  });
  return source.list(harness.mcpServers, workspace, harness.policy);
}
export {
  listConfiguredMcpServers
};
