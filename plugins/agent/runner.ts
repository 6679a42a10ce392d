// Runs the agent under test once: spawns `agent.command` (through `sh -c`, in a process group of
// its own, with the injected environment) or POSTs `{"prompt": …}` to a running service, bounded.
// A spawned agent and every descendant end with the execution (see spawnAgent), and are killed
// should the flowproof process exit first.
import { spawn } from "node:child_process";
import { guardGroup, killAtExit } from "../../src/plugins/api.ts";
import { reaperProgram } from "./reaper.ts";

export interface AgentExit {
  /** The exit code (null when a signal ended it); for a service, the HTTP status. */
  readonly code: number | null;
  /** The last lines of its stderr (a service: of its answer body). */
  readonly stderrTail: string;
  /** What it printed (a spawned agent; the last OUTPUT_KEPT characters of each), kept in the run bundle. */
  readonly output?: { readonly stdout: string; readonly stderr: string };
  readonly timedOut: boolean;
  /** Ended on purpose (fail fast, a stop request). */
  readonly killed: boolean;
}

export interface RunningAgent {
  readonly exited: Promise<AgentExit>;
  /** Ends it now (its whole process group). */
  kill(): void;
}

/** Characters of an agent's stdout and of its stderr kept for the run bundle (the last ones). */
export const OUTPUT_KEPT = 1_000_000;

/** Process groups of agents still running: killed if the process exits first. */
const running = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}

/** Ends every agent this process still runs (a session closing, the process stopping). */
export function killAllAgents(): void {
  for (const pid of running) killGroup(pid, "SIGKILL");
  running.clear();
}

const tail = (text: string, lines = 20): string =>
  text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-lines)
    .join("\n");

/** The environment of a spawned agent: flowproof's, then the injected variables, then `agent.env` (applied last). */
export function agentEnvironment(
  base: Readonly<Record<string, string | undefined>>,
  injected: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) out[k] = v;
  // The record credential stays with flowproof: the agent only ever sees a placeholder key.
  for (const k of ["FLOWPROOF_AGENT_KEY", "FLOWPROOF_AGENT_UPSTREAM", "FLOWPROOF_AI_API_KEY"]) delete out[k];
  return { ...out, ...injected, ...own };
}

/** What flowproof injects into an agent for a proxy at `origin` (see docs/agents.md). */
export function injectedEnvironment(origin: string, prompt: string, followUps: readonly string[] = []): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${origin}/v1`,
    OPENAI_API_BASE: `${origin}/v1`,
    OPENAI_BASE: `${origin}/v1`,
    ANTHROPIC_BASE_URL: origin,
    // @google/genai reads it and adds the API version itself (…/v1beta/models/<model>:generateContent).
    GOOGLE_GEMINI_BASE_URL: origin,
    FLOWPROOF_LLM_PROXY: origin,
    OPENAI_API_KEY: "flowproof-placeholder-key",
    ANTHROPIC_API_KEY: "flowproof-placeholder-key",
    GEMINI_API_KEY: "flowproof-placeholder-key",
    GOOGLE_API_KEY: "flowproof-placeholder-key",
    GOOGLE_GENERATIVE_AI_API_KEY: "flowproof-placeholder-key",
    // The OpenAI Agents SDK exports traces to OpenAI's own host with the key it holds: a placeholder here.
    OPENAI_AGENTS_DISABLE_TRACING: "1",
    FLOWPROOF_PROMPT: prompt,
    // Every delivery of a scripted conversation, the task first: a JSON array of strings.
    FLOWPROOF_PROMPTS: JSON.stringify([prompt, ...followUps]),
  };
}

/** How long the agent's output may stay open after it exited before the execution ends anyway. */
const STDIO_GRACE_MS = 2_000;

/**
 * `launch`: what to spawn instead of `sh -c <command>` (the containment program, see
 * containment.ts, whose PID namespace ends every descendant with it), with the variables it needs.
 * Without one, on Linux the command runs under the reaper (reaper.ts), which ends every descendant
 * too, those that left the agent's process group included; elsewhere its process group is ended.
 */
export function spawnAgent(
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  launch?: { readonly file: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> },
): RunningAgent {
  const reaped = !launch && process.platform === "linux";
  const child = launch
    ? spawn(launch.file, [...launch.args], { cwd, env: { ...env, ...launch.env }, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : reaped
      ? spawn(process.execPath, ["-e", reaperProgram()], {
          cwd,
          env: { ...env, BUN_BE_BUN: "1", FLOWPROOF_REAPER_COMMAND: command },
          stdio: ["ignore", "pipe", "pipe", "pipe"],
          detached: true,
        })
      : spawn("sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const pid = child.pid;
  /** The process groups to end: the child's own; under the reaper, the agent's (the reaper names it on fd 3). */
  const groups: number[] = [];
  const unguards: (() => void)[] = [];
  const adopt = (group: number) => {
    groups.push(group);
    running.add(group);
    // Killed at process exit by the shared exit hook, unless it ended first.
    unguards.push(killAtExit(() => killGroup(group, "SIGKILL")));
    // Killed even if flowproof dies without running any exit hook.
    unguards.push(guardGroup(group));
  };
  // The reaper is not guarded: it ends the agent's descendants itself once flowproof is gone, and must outlive the guard's kill to do so.
  if (pid !== undefined && !reaped) adopt(pid);
  if (reaped) {
    let named = "";
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      named += chunk.toString("utf8");
      const group = Number(named.split("\n")[0]);
      if (named.includes("\n") && Number.isInteger(group) && group > 1 && !groups.includes(group)) adopt(group);
    });
  }
  const signalReaper = (signal: NodeJS.Signals) => {
    if (!reaped || pid === undefined) return;
    try {
      process.kill(pid, signal);
    } catch {
      // gone already
    }
  };
  let stderr = "";
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout = (stdout + chunk.toString("utf8")).slice(-OUTPUT_KEPT);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-OUTPUT_KEPT);
  });
  let timedOut = false;
  let killed = false;
  const end = () => {
    if (pid === undefined) return;
    for (const g of groups) killGroup(g, "SIGTERM");
    signalReaper("SIGTERM");
    setTimeout(() => {
      for (const g of groups) killGroup(g, "SIGKILL");
      signalReaper("SIGKILL");
    }, 2000).unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    end();
  }, timeoutMs);
  const exited = new Promise<AgentExit>((resolve) => {
    let settled = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const done = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      // Children the agent left behind go with it.
      for (const g of groups) {
        killGroup(g, "SIGKILL");
        running.delete(g);
      }
      for (const unguard of unguards) unguard();
      // Output still held open (by a descendant nothing could end) no longer keeps the execution.
      for (const stream of child.stdio) stream?.destroy();
      resolve({ code, stderrTail: tail(stderr.slice(-8192)), output: { stdout, stderr }, timedOut, killed });
    };
    child.once("error", (error) => {
      stderr += `\n${error.message}`;
      done(127);
    });
    child.once("exit", (code) => {
      grace = setTimeout(() => done(code), STDIO_GRACE_MS);
    });
    child.once("close", (code) => done(code));
  });
  return {
    exited,
    kill: () => {
      killed = true;
      end();
    },
  };
}

/**
 * Triggers a running agent service: POST `{"prompt": …}` to its URL, bounded. A scripted
 * conversation POSTs each delivery in turn, once the one before was answered, as
 * `{"prompt", "conversation", "delivery", "deliveries"}` (one conversation id for all of them).
 */
export function callService(
  url: string,
  headers: Readonly<Record<string, string>>,
  prompt: string,
  timeoutMs: number,
  followUps: readonly string[] = [],
): RunningAgent {
  const controller = new AbortController();
  let killed = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const exited = (async (): Promise<AgentExit> => {
    try {
      const deliveries = [prompt, ...followUps];
      const conversation = crypto.randomUUID();
      for (const [i, text] of deliveries.entries()) {
        const payload = deliveries.length === 1 ? { prompt: text } : { prompt: text, conversation, delivery: i + 1, deliveries: deliveries.length };
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(payload),
          signal: controller.signal,
        });
        const body = await res.text();
        if (!res.ok)
          return {
            code: res.status,
            stderrTail: tail(deliveries.length === 1 ? body : `delivery ${i + 1} of ${deliveries.length}: ${body}`),
            timedOut,
            killed,
          };
      }
      return { code: 0, stderrTail: "", timedOut, killed };
    } catch (error) {
      return { code: null, stderrTail: error instanceof Error ? error.message : String(error), timedOut, killed };
    } finally {
      clearTimeout(timer);
    }
  })();
  return {
    exited,
    kill: () => {
      killed = true;
      controller.abort();
    },
  };
}
