// `flowproof doctor --agent "<command>"`: whether an agent's model client reaches the proxy an
// agent flow gives it, with no key and no upstream (the probe answers the first model request
// itself). Typed options in, typed result out; never prints.
import { probeAgentWiring, type AgentDoctorReport } from "../plugins/builtin.ts";

export interface DoctorOptions {
  /** The agent's command line. */
  readonly agent: string;
  /** Default 60. */
  readonly timeoutSeconds?: number;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type DoctorResult = AgentDoctorReport;

export const DEFAULT_DOCTOR_TIMEOUT_SECONDS = 60;

export function doctor(options: DoctorOptions): Promise<DoctorResult> {
  return probeAgentWiring(
    options.agent,
    options.cwd ?? process.cwd(),
    options.env ?? process.env,
    (options.timeoutSeconds ?? DEFAULT_DOCTOR_TIMEOUT_SECONDS) * 1000,
  );
}
