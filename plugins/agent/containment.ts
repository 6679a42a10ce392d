// Egress containment of a spawned agent (Linux): the agent's whole process tree runs in a user and
// network namespace of its own (util-linux `unshare`), where nothing but loopback exists and every
// other address is local, so the kernel refuses what the agent tries unless flowproof serves it.
// flowproof serves three things inside: its own loopback services (the model proxy, MCP stand-ins),
// the `allow_egress` destinations, each relayed out through a unix socket to the address pinned
// at start, and DNS answering the pinned names only. What the agent attempted beyond that is
// recorded (see containment-ns.ts). Elsewhere, or without the mechanism, the run says
// `not contained (<reason>)`.
import { spawnSync } from "node:child_process";
import { lookup } from "node:dns/promises";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, isIP, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FlowproofError, guardDir, type AgentContainment, type AgentTarget, type EgressRule } from "../../src/plugins/api.ts";
import { nsProgram, nsSplice, nsV6Bytes, type NsAttempt, type NsConfig } from "./containment-ns.ts";

/** The tier of a contained run. */
export const ENFORCED_TIER = "enforced (linux user+network namespace)";

/** Whether this machine can contain an agent, and why not. */
export type Support = { readonly enforced: true } | { readonly enforced: false; readonly reason: string };

let probed: Support | undefined;

/** Probes once per process: Linux, `ip` (iproute2), and an unprivileged user + network namespace. FLOWPROOF_CONTAINMENT=off forces `not contained`. */
export function containmentSupport(env: Readonly<Record<string, string | undefined>>): Support {
  if (env["FLOWPROOF_CONTAINMENT"] === "off") return { enforced: false, reason: "FLOWPROOF_CONTAINMENT=off" };
  if (process.platform !== "linux")
    return {
      enforced: false,
      reason: `${process.platform === "darwin" ? "macOS" : process.platform === "win32" ? "Windows" : process.platform}: flowproof contains agents on Linux only`,
    };
  probed ??= probe();
  return probed;
}

function probe(): Support {
  const ip = spawnSync("ip", ["-V"], { encoding: "utf8" });
  if (ip.error || ip.status !== 0) return { enforced: false, reason: "the `ip` command (iproute2) is missing" };
  const r = spawnSync("unshare", ["--user", "--map-root-user", "--net", "ip", "link", "set", "lo", "up"], { encoding: "utf8", timeout: 10_000 });
  if (r.error) return { enforced: false, reason: `util-linux \`unshare\` cannot run: ${r.error.message}` };
  if (r.status !== 0)
    return {
      enforced: false,
      reason: `this kernel or environment refuses unprivileged user and network namespaces: ${(r.stderr || "").trim().split("\n")[0]}`,
    };
  return { enforced: true };
}

/** The tier line printed for every agent run: `containment: <tier>`. */
export function tierOf(agent: AgentTarget, support: Support): string {
  if ("url" in agent) return "not contained (a url: service runs outside flowproof)";
  return support.enforced ? ENFORCED_TIER : `not contained (${support.reason})`;
}

/** Whether `address` (IPv4 or IPv6 text) lies in `ip/bits`. */
export function inCidr(address: string, ip: string, bits: number): boolean {
  const bytes = (a: string) => (isIP(a) === 4 ? Uint8Array.from(a.split(".").map(Number)) : isIP(a) === 6 ? nsV6Bytes(a) : undefined);
  const a = bytes(address);
  const b = bytes(ip);
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((a[i >> 3]! & mask) !== (b[i >> 3]! & mask)) return false;
  }
  return true;
}

/** An attempt as the report names it: `tcp 10.0.0.9:443`, `udp [fd00::1]:53`, `dns evil.example`. */
export function destinationOf(a: NsAttempt): string {
  const host = a.address.includes(":") && a.port !== undefined ? `[${a.address}]` : a.address;
  return a.port !== undefined ? `${a.protocol} ${host}:${a.port}` : `${a.protocol} ${host}`;
}

/** Whether an attempt is one `allow_egress` permits (so a relayed connection is not reported). */
export function allowedAttempt(a: NsAttempt, rules: readonly EgressRule[], pinned: ReadonlyMap<string, readonly string[]>): boolean {
  if (a.protocol !== "tcp" || a.port === undefined) return false;
  return rules.some(
    (r) =>
      (r.port === undefined || r.port === a.port) &&
      (r.kind === "ip"
        ? sameAddress(r.ip, a.address)
        : r.kind === "cidr"
          ? inCidr(a.address, r.ip, r.bits)
          : (pinned.get(r.host) ?? []).some((p) => sameAddress(p, a.address))),
  );
}

function sameAddress(x: string, y: string): boolean {
  if (isIP(x) === 6 && isIP(y) === 6) return nsV6Bytes(x)?.join() === nsV6Bytes(y)?.join();
  return x === y;
}

/** The name servers /etc/resolv.conf lists (the resolver inside answers on each, so the system's configuration works unchanged). */
export function nameServers(resolvConf: string): string[] {
  const out: string[] = [];
  for (const line of resolvConf.split("\n")) {
    const m = /^\s*nameserver\s+(\S+)/.exec(line);
    const addr = m?.[1]?.replace(/%.*$/, "");
    if (addr && isIP(addr) && !out.includes(addr)) out.push(addr);
  }
  return out;
}

/** Loopback ports of flowproof's own services named in the agent's injected environment (the proxy, MCP stand-ins). */
export function loopbackPortsIn(values: readonly string[]): number[] {
  const ports = new Set<number>();
  for (const v of values) {
    for (const m of v.matchAll(/\b(?:127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\b/g)) {
      const p = Number(m[1]);
      if (p >= 1 && p <= 65535) ports.add(p);
    }
  }
  return [...ports];
}

/** One contained (or not) execution: how to spawn the agent, then what it attempted. */
export interface Containment {
  readonly tier: string;
  readonly enforced: boolean;
  /** The program and arguments to spawn instead of `sh -c <command>`, and the variables to add. */
  launch(command: string): { readonly file: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };
  /** After the agent ended: the setup error, if the namespace could not be built, and the attempts. */
  finish(): { readonly setupError?: string; readonly containment: AgentContainment };
  stop(): void;
}

/** Whether nftables' `nft` runs here (a bare `host` or `ip` in `allow_egress` needs it inside the namespace). */
export function nftAvailable(): boolean {
  const r = spawnSync("nft", ["--version"], { encoding: "utf8" });
  return !r.error && r.status === 0;
}

/** Prepares the containment of one `command:` agent: resolves and pins `allow_egress`, starts the relays. Throws (a message for the run) when a host does not resolve, or an any-port entry cannot be served. */
export async function openContainment(agent: AgentTarget, support: Support, loopbackPorts: readonly number[]): Promise<Containment> {
  const tier = tierOf(agent, support);
  const rules = "command" in agent ? (agent.allow_egress ?? []) : [];
  if (!support.enforced || "url" in agent) {
    return {
      tier,
      enforced: false,
      launch: (command) => ({ file: "sh", args: ["-c", command], env: {} }),
      finish: () => ({ containment: { tier, enforced: false, attempted: [] } }),
      stop: () => undefined,
    };
  }
  const pinned = new Map<string, string[]>();
  for (const r of rules) {
    if (r.kind !== "host" || pinned.has(r.host)) continue;
    let found: string[];
    try {
      found = (await lookup(r.host, { all: true })).map((a) => a.address);
    } catch {
      found = [];
    }
    if (found.length === 0)
      throw new FlowproofError({
        code: "bad-value",
        message: `agent.allow_egress: host \`${r.host}\` does not resolve, so nothing can be pinned for it`,
        hint: "check the host name (and this machine's DNS), or allow its address or CIDR range instead",
      });
    pinned.set(r.host, [...new Set(found)]);
  }
  const dir = mkdtempSync(join(tmpdir(), "flowproof-egress-"));
  // Removed with this process even when it is killed outright (the relays' sockets, the agent's config).
  const unguard = guardDir(dir);
  const servers: Server[] = [];
  /** Closes the relays and removes the directory: at the end, or when the set-up fails part way. */
  const teardown = () => {
    for (const s of servers) s.close();
    rmSync(dir, { recursive: true, force: true });
    unguard();
  };
  const forwards: NsConfig["forwards"][number][] = [];
  const relay = async (inside: { host: string; port: number }, target: { host: string; port: number }) => {
    const socket = join(dir, `r${forwards.length}.sock`);
    // Half-open allowed on both legs (as inside): each side's end is passed on, the other direction keeps flowing.
    const server = createServer({ allowHalfOpen: true }, (conn) => {
      nsSplice(conn, createConnection({ host: target.host, port: target.port, allowHalfOpen: true }));
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(socket, () => resolve()));
    servers.push(server);
    forwards.push({ host: inside.host, port: inside.port, socket });
  };
  const taken = new Set<string>();
  const once = async (inside: { host: string; port: number }, target: { host: string; port: number }) => {
    const key = `${inside.host} ${inside.port}`;
    if (taken.has(key)) return;
    taken.add(key);
    await relay(inside, target);
  };
  try {
    for (const port of loopbackPorts) await once({ host: "127.0.0.1", port }, { host: "127.0.0.1", port });
    for (const r of rules) {
      if (r.kind === "cidr" || r.port === undefined) continue;
      if (r.kind === "ip") await once({ host: r.ip, port: r.port }, { host: r.ip, port: r.port });
      else for (const a of pinned.get(r.host) ?? []) await once({ host: a, port: r.port }, { host: a, port: r.port });
    }
  } catch (error) {
    teardown();
    throw error;
  }
  // A CIDR range: one listener on the port; each connection is relayed to the address it was made to, if in range.
  const ranges = rules.filter((r): r is Extract<EgressRule, { kind: "cidr" }> => r.kind === "cidr");
  const families = new Set(ranges.map((r) => `${isIP(r.ip)} ${r.port}`));
  for (const family of families) {
    const [v, portText] = family.split(" ") as [string, string];
    const port = Number(portText);
    const socket = join(dir, `c${v}-${port}.sock`);
    // The namespace side sends the address the agent connected to as the first line.
    const server = relayListener((address) => (ranges.some((r) => r.port === port && inCidr(address, r.ip, r.bits)) ? { host: address, port } : undefined));
    await new Promise<void>((resolve) => server.listen(socket, () => resolve()));
    servers.push(server);
    forwards.push({ host: v === "6" ? "::" : "0.0.0.0", port, socket: `cidr:${socket}` });
  }
  // Bare hosts and addresses (any port): inside, nftables redirects every TCP connection to them to
  // one listener, which reads the original destination and names it first; relayed if allowed.
  const anyPort = [...new Set(rules.flatMap((r) => (r.kind === "cidr" || r.port !== undefined ? [] : r.kind === "ip" ? [r.ip] : (pinned.get(r.host) ?? []))))];
  let anyPortSocket: string | undefined;
  if (anyPort.length > 0) {
    if (!nftAvailable()) {
      teardown();
      const bare = rules
        .filter((r) => r.kind !== "cidr" && r.port === undefined)
        .map((r) => (r.kind === "ip" ? r.ip : r.kind === "host" ? r.host : ""))
        .join("`, `");
      throw new FlowproofError({
        code: "bad-value",
        message: `agent.allow_egress: \`${bare}\` allows every port, which needs nftables (\`nft\`) inside the agent's namespace, and \`nft\` is not installed: install the nftables package, or name the ports (\`${bare.split("`")[0]}:443\`)`,
        hint: `name the ports (\`${bare.split("`")[0]}:443\`), or install nftables`,
      });
    }
    anyPortSocket = join(dir, "any.sock");
    // The first line names the original destination: `<address> <port>`.
    const server = relayListener((line) => {
      const [address = "", portText = ""] = line.split(" ");
      const port = Number(portText);
      return port >= 1 && port <= 65535 && anyPort.some((a) => sameAddress(a, address)) ? { host: address, port } : undefined;
    });
    await new Promise<void>((resolve) => server.listen(anyPortSocket, () => resolve()));
    servers.push(server);
  }
  let resolvConf = "";
  try {
    resolvConf = readFileSync("/etc/resolv.conf", "utf8");
  } catch {
    // none: the C library asks 127.0.0.1
  }
  const names: Record<string, string[]> = Object.fromEntries(pinned);
  const events = join(dir, "events.jsonl");
  writeFileSync(events, "");
  const config: NsConfig = {
    command: "",
    events,
    forwards,
    names,
    dns: [...new Set(["127.0.0.1", "::1", ...nameServers(resolvConf)])],
    ...(anyPortSocket ? { anyPort: { addresses: anyPort, socket: anyPortSocket } } : {}),
  };
  const configPath = join(dir, "config.json");
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    teardown();
  };
  return {
    tier,
    enforced: true,
    launch: (command) => {
      writeFileSync(configPath, JSON.stringify({ ...config, command }));
      return {
        file: "unshare",
        // A PID namespace of its own too: when its first process (the namespace program) ends, the
        // kernel ends every process in it, a descendant that left the agent's process group included.
        args: ["--user", "--map-root-user", "--net", "--pid", "--fork", "--kill-child", "--", process.execPath, "-e", nsProgram()],
        env: { BUN_BE_BUN: "1", FLOWPROOF_CONTAINMENT_CONFIG: configPath },
      };
    },
    finish: () => {
      let text = "";
      try {
        text = readFileSync(events, "utf8");
      } catch {
        // stopped already
      }
      const attempted: { destination: string; at_ms: number }[] = [];
      let setupError: string | undefined;
      let ready = false;
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        const e = JSON.parse(line) as { attempt?: NsAttempt; at_ms?: number; error?: string; ready?: number };
        if (e.error) setupError = e.error;
        if (e.ready !== undefined) ready = true;
        if (!e.attempt || allowedAttempt(e.attempt, rules, pinned)) continue;
        // The resolver's own addresses on port 53 are DNS through flowproof: the names are what count.
        if (e.attempt.port === 53 && config.dns.some((d) => sameAddress(d, e.attempt!.address))) continue;
        const destination = destinationOf(e.attempt);
        if (!attempted.some((a) => a.destination === destination)) attempted.push({ destination, at_ms: e.at_ms ?? 0 });
      }
      if (!ready && !setupError) setupError = "the agent's network namespace was never set up (the containment program did not start)";
      return { ...(setupError ? { setupError } : {}), containment: { tier, enforced: true, attempted } };
    },
    stop,
  };
}

/**
 * A unix-socket listener relaying each connection out to the destination its first line names,
 * when `allowed` returns one; otherwise the connection is closed. Half-open connections are kept
 * (a client that ends its sending side still reads the answer).
 */
function relayListener(allowed: (firstLine: string) => { host: string; port: number } | undefined): ReturnType<typeof createServer> {
  return createServer({ allowHalfOpen: true }, (conn) => {
    conn.once("data", (first: Buffer) => {
      const nl = first.indexOf(10);
      const to = nl < 0 ? undefined : allowed(first.subarray(0, nl).toString("utf8"));
      if (!to) {
        conn.destroy();
        return;
      }
      const out = createConnection({ host: to.host, port: to.port, allowHalfOpen: true });
      if (first.length > nl + 1) out.write(first.subarray(nl + 1));
      nsSplice(conn, out);
    });
  });
}
