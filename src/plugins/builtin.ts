// The built-in plugins bundled with flowproof (user plugins are loaded by the plugin loader):
// adapters by app kind, assertion kinds by step key.
import type { AdapterPlugin, AssertionPlugin } from "./api.ts";
import { plugin as web } from "../../plugins/web/index.ts";
import { plugin as api } from "../../plugins/api/index.ts";
import { plugin as agent } from "../../plugins/agent/index.ts";
import { plugin as sap } from "../../plugins/sap/index.ts";
import { plugins as windows } from "../../plugins/windows/index.ts";
import { plugin as vision } from "../../plugins/vision/index.ts";
/** `flowproof doctor --agent`: the agent plugin's keyless reachability probe. */
export { probeAgent as probeAgentWiring, type DoctorReport as AgentDoctorReport } from "../../plugins/agent/index.ts";
/** `flowproof mcp-lane <url>` (hidden): the stdio server an agent flow's agent spawns for an `mcp:` server. */
export { relayMcpStdio } from "../../plugins/agent/index.ts";
/** `flowproof codegen`: the web adapter's window that reports what a person does in it. */
export {
  CODEGEN_KIND,
  openCodegen as openCodegenBrowser,
  type BrowserNavigation,
  type CodegenBrowser,
  type CodegenEvent,
  type CodegenTarget,
  type NamedTarget,
} from "../../plugins/web/index.ts";
import { plugin as assertApi } from "../../plugins/assert-api/index.ts";
import { plugin as assertSql } from "../../plugins/assert-sql/index.ts";
import { plugin as assertSpreadsheet } from "../../plugins/assert-spreadsheet/index.ts";
import { plugin as assertScreenshot } from "../../plugins/assert-screenshot/index.ts";

export const BUILTIN_ADAPTERS: readonly AdapterPlugin[] = [web, api, agent, sap, ...windows, vision];

/** App kinds announced for a later version: a flow naming one is refused by name (`unsupported-feature`), not as unknown. */
export const PLANNED_KINDS: readonly string[] = [];

/** Typed loosely on purpose: each plugin's `run` takes its own argument type, checked by its schema first. */
export const BUILTIN_ASSERTIONS: readonly AssertionPlugin[] = [
  assertApi,
  assertSql,
  assertSpreadsheet,
  assertScreenshot,
] as readonly AssertionPlugin<never>[] as readonly AssertionPlugin[];
