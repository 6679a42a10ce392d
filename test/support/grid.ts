// A real Selenium Grid 4 for tests and the grid benchmark: a hub and N nodes (one Chromium slot
// each, chromedriver from Debian's chromium-driver) on free 127.0.0.1 ports, started from the
// server jar of the npm package @nightwatch/selenium-server (or FLOWPROOF_SELENIUM_JAR). Each
// Java process leads a process group of its own (with its chromedriver and browsers), so a node
// can be killed as a machine dies, and `stop` leaves nothing behind. Needs `java` (Debian:
// default-jre-headless) and `/usr/bin/chromedriver` (chromium-driver).
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardGroup } from "../../src/plugins/group-guard.ts";

export const CHROMEDRIVER = "/usr/bin/chromedriver";

/** The Selenium server jar: FLOWPROOF_SELENIUM_JAR, else the one in node_modules/@nightwatch/selenium-server. */
export function seleniumJar(): string | undefined {
  const explicit = process.env["FLOWPROOF_SELENIUM_JAR"];
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  try {
    const path = (createRequire(import.meta.url)("@nightwatch/selenium-server") as { path: string }).path;
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Why a grid cannot start on this machine, or undefined when it can. */
export function gridUnavailable(): string | undefined {
  if (!seleniumJar()) return "no Selenium server jar: `npm ci` installs @nightwatch/selenium-server (or set FLOWPROOF_SELENIUM_JAR)";
  if (!Bun.which("java")) return "no java: apt-get install default-jre-headless";
  if (!existsSync(CHROMEDRIVER)) return "no chromedriver: apt-get install chromium-driver";
  return undefined;
}

/**
 * The browser the nodes start: Chromium itself (headless). Not the headless shell, which cancels
 * a download it is not told where to save, so a node could never keep one in the directory the
 * grid hands downloads back from.
 */
function nodeBrowser(): string {
  for (const p of ["/usr/lib/chromium/chromium", "/usr/bin/chromium"]) if (existsSync(p)) return p;
  return "/usr/bin/chromium";
}

async function freePort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = listener.port;
  listener.stop(true);
  return port;
}

interface Proc {
  readonly proc: ReturnType<typeof Bun.spawn>;
  readonly release: () => void;
  readonly log: string;
}

export interface GridNode {
  /** The node's URI as the grid's /status names it. */
  readonly uri: string;
  /** Kills the node as a dying machine would: its JVM, chromedriver and browsers at once. */
  kill(): void;
}

export interface TestGrid {
  /** The hub's URL (with `user:password@` when started with credentials). */
  readonly url: string;
  /** The hub's URL without credentials. */
  readonly base: string;
  readonly nodes: readonly GridNode[];
  /** Sessions the grid holds now, from /status. */
  sessions(): Promise<number>;
  stop(): Promise<void>;
}

export interface GridOptions {
  readonly nodes?: number;
  /** Basic authentication the hub requires. */
  readonly auth?: { readonly user: string; readonly password: string };
  /** How long to wait for the hub and every node to be ready (default 180 s: a busy machine). */
  readonly readyMs?: number;
  /** The browser binary the nodes run (default: Chromium itself, see nodeBrowser). */
  readonly browser?: string;
}

/** Starts a hub and `nodes` nodes (default 2) and waits until /status lists every node UP. */
export async function startGrid(options: GridOptions = {}): Promise<TestGrid> {
  const jar = seleniumJar();
  const why = gridUnavailable();
  if (!jar || why) throw new Error(`cannot start a Selenium Grid: ${why}`);
  const dir = mkdtempSync(join(tmpdir(), "flowproof-grid-"));
  const procs: Proc[] = [];
  const spawn = (name: string, args: string[]): Proc => {
    const log = join(dir, `${name}.log`);
    const proc = Bun.spawn(["java", "-Xmx256m", "-jar", jar, ...args], {
      stdout: Bun.file(log),
      stderr: Bun.file(`${log}.err`),
      stdin: "ignore",
      detached: true,
    });
    const p = { proc, release: guardGroup(proc.pid), log };
    procs.push(p);
    return p;
  };
  const [port, publish, subscribe] = [await freePort(), await freePort(), await freePort()];
  const base = `http://127.0.0.1:${port}`;
  const events = ["--publish-events", `tcp://127.0.0.1:${publish}`, "--subscribe-events", `tcp://127.0.0.1:${subscribe}`];
  const auth = options.auth ? ["--username", options.auth.user, "--password", options.auth.password] : [];
  const stop = async () => {
    for (const p of procs) {
      try {
        process.kill(-p.proc.pid, "SIGKILL");
      } catch {
        // the group is gone already
      }
    }
    await Promise.all(procs.map((p) => p.proc.exited));
    for (const p of procs) p.release();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    spawn("hub", ["hub", "--host", "127.0.0.1", "--port", String(port), ...events, "--reject-unsupported-caps", "true", ...auth]);
    const nodes: { proc: Proc; uri: string }[] = [];
    for (let i = 0; i < (options.nodes ?? 2); i++) {
      const nodePort = await freePort();
      const config = join(dir, `node${i}.toml`);
      const stereotype = JSON.stringify({
        browserName: "chrome",
        "goog:chromeOptions": { binary: options.browser ?? nodeBrowser(), args: ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"] },
      });
      writeFileSync(
        config,
        `[node]\ndetect-drivers = false\nmax-sessions = 1\nenable-managed-downloads = true\n\n[[node.driver-configuration]]\ndisplay-name = "chromium"\nwebdriver-executable = "${CHROMEDRIVER}"\nmax-sessions = 1\nstereotype = '${stereotype}'\n`,
      );
      const proc = spawn(`node${i}`, ["node", "--config", config, "--host", "127.0.0.1", "--port", String(nodePort), "--grid-url", base, ...events]);
      nodes.push({ proc, uri: `http://127.0.0.1:${nodePort}` });
    }
    const authorization = options.auth
      ? { Authorization: `Basic ${Buffer.from(`${options.auth.user}:${options.auth.password}`).toString("base64")}` }
      : undefined;
    const status = async (): Promise<{ ready: boolean; nodes: { uri: string; availability: string; slots: { session: unknown }[] }[] } | undefined> => {
      try {
        const r = await fetch(`${base}/status`, { signal: AbortSignal.timeout(5000), ...(authorization ? { headers: authorization } : {}) });
        return ((await r.json()) as { value: { ready: boolean; nodes: { uri: string; availability: string; slots: { session: unknown }[] }[] } }).value;
      } catch {
        return undefined;
      }
    };
    const deadline = Date.now() + (options.readyMs ?? 180_000);
    for (;;) {
      const s = await status();
      if (s && Array.isArray(s.nodes) && nodes.every((n) => s.nodes.some((m) => m.uri === n.uri && m.availability === "UP"))) break;
      const dead = procs.find((p) => p.proc.exitCode !== null);
      if (dead)
        throw new Error(
          `a grid process exited at start: ${await Bun.file(`${dead.log}.err`)
            .text()
            .catch(() => "")}`.slice(0, 2000),
        );
      if (Date.now() > deadline) throw new Error(`the grid was not ready within ${options.readyMs ?? 180_000} ms`);
      await Bun.sleep(250);
    }
    return {
      url: options.auth ? base.replace("://", `://${options.auth.user}:${options.auth.password}@`) : base,
      base,
      nodes: nodes.map((n) => ({
        uri: n.uri,
        kill() {
          try {
            process.kill(-n.proc.proc.pid, "SIGKILL");
          } catch {
            // already gone
          }
        },
      })),
      async sessions() {
        const s = await status();
        return s && Array.isArray(s.nodes) ? s.nodes.reduce((sum, n) => sum + n.slots.filter((slot) => slot.session).length, 0) : -1;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
