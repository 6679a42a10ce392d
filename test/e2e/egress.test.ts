// Egress containment of agent flows through the real CLI. The test builds its own network
// namespace joined to this one by a veth pair, with a small server on an address inside it (the
// only non-loopback address any agent here targets): an allowed port, an undeclared port and a
// UDP "resolver". Real agent programs (Node and Python) try each kind of egress, directly and
// from a child process; the server's log and the namespace's ICMP counters say what arrived.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";
import { startAgentModel, type AgentModel } from "../support/model-server.ts";
import { buildSandbox } from "../support/executable.ts";

const NS = `fpeg${process.pid}`;
const SUBNET = `10.214.${(process.pid % 200) + 20}`;
const TARGET = `${SUBNET}.2`;
const HOST_IF = `fpe${process.pid % 100000}a`;
const PEER_IF = `fpe${process.pid % 100000}b`;
const OK_PORT = 8080;
const BAD_PORT = 9090;
const NODE = Bun.which("node") ?? process.execPath;
const PYTHON = Bun.which("python3");

const SERVER = `
const fs = require("node:fs");
const log = (line) => fs.appendFileSync(process.env.LOG, line + "\\n");
for (const port of [${OK_PORT}, ${BAD_PORT}]) Bun.serve({ hostname: "${TARGET}", port, fetch: () => { log("tcp " + port); return new Response("allowed-" + port); } });
const udp = require("node:dgram").createSocket("udp4");
udp.on("message", (m, peer) => { log("udp 53"); udp.send(m, peer.port, peer.address); });
udp.bind(53, "${TARGET}", () => console.log("ready"));
`;

// Both agents: do what ACTIONS lists, write what happened to $OUT, then one model turn and the reply.
const NODE_AGENT = `
import net from "node:net"; import dgram from "node:dgram"; import dns from "node:dns"; import fs from "node:fs"; import { spawnSync } from "node:child_process";
const host = process.env.TARGET, okPort = Number(process.env.OK_PORT), badPort = Number(process.env.BAD_PORT);
const actions = (process.env.ACTIONS ?? "").split(",").filter(Boolean);
const out = {};
const connect = (h, p) => new Promise((res) => { const s = net.connect(p, h); const t = setTimeout(() => { s.destroy(); res("timeout"); }, 4000); s.on("connect", () => { clearTimeout(t); s.end(); res("connected"); }); s.on("error", (e) => { clearTimeout(t); res(e.code); }); });
if (actions.includes("allowed")) { try { const r = await fetch("http://" + host + ":" + okPort + "/"); out.allowed = r.status + " " + (await r.text()); } catch (e) { out.allowed = "error " + e.message; } }
if (actions.includes("undeclared")) out.undeclared = await connect(host, badPort);
if (actions.includes("elsewhere")) out.elsewhere = await connect(process.env.ELSEWHERE, okPort);
if (actions.includes("dns-offhost")) out.dnsOffhost = await new Promise((res) => { const s = dgram.createSocket("udp4"); const q = Buffer.from("abcd01000001000000000000076578616d706c6503636f6d0000010001", "hex"); const t = setTimeout(() => { s.close(); res("no answer"); }, 1500); s.on("message", () => { clearTimeout(t); s.close(); res("answered"); }); s.on("error", (e) => { clearTimeout(t); s.close(); res(e.code); }); s.send(q, 53, host); });
if (actions.includes("udp-allowed")) out.udpAllowed = await new Promise((res) => { const s = dgram.createSocket("udp4"); s.send(Buffer.from("ping"), okPort, host, (e) => { s.close(); res(e ? e.code : "sent"); }); });
if (actions.includes("dns-name")) out.dnsName = await new Promise((res) => dns.lookup("exfil.flowproof.invalid", (e, a) => res(e ? e.code : a)));
if (actions.includes("child")) out.child = spawnSync(process.execPath, ["-e", "require('net').connect(" + badPort + ", '" + host + "').on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })"], { encoding: "utf8" }).stdout.trim();
fs.writeFileSync(process.env.OUT, JSON.stringify(out));
const res = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer " + process.env.OPENAI_API_KEY }, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: process.env.FLOWPROOF_PROMPT }] }) });
console.log((await res.json()).choices[0].message.content);
`;

const PYTHON_AGENT = `
import json, os, socket, struct, subprocess, sys, urllib.request
host, ok_port, bad_port = os.environ["TARGET"], int(os.environ["OK_PORT"]), int(os.environ["BAD_PORT"])
actions = [a for a in os.environ.get("ACTIONS", "").split(",") if a]
out = {}
def connect(h, p):
    s = socket.socket(); s.settimeout(4)
    try:
        s.connect((h, p)); return "connected"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return type(e).__name__
    finally:
        s.close()
if "allowed" in actions:
    try:
        with urllib.request.urlopen("http://%s:%d/" % (host, ok_port), timeout=5) as r:
            out["allowed"] = "%d %s" % (r.status, r.read().decode())
    except Exception as e:
        out["allowed"] = "error %s" % e
if "undeclared" in actions:
    out["undeclared"] = connect(host, bad_port)
if "raw" in actions:
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP); s.settimeout(1.5)
        body = struct.pack("!BBHHH", 8, 0, 0, 7, 1) + b"flowproof!"
        c = sum(struct.unpack("!%dH" % (len(body) // 2), body))
        c = (c >> 16) + (c & 0xffff); c = ~(c + (c >> 16)) & 0xffff
        s.sendto(body[:2] + struct.pack("!H", c) + body[4:], (host, 0))
        out["raw"] = "no answer"
        try:
            while True:
                packet, _ = s.recvfrom(1024)
                if packet[20] == 0:
                    out["raw"] = "answered"
        except socket.timeout:
            pass
    except OSError as e:
        out["raw"] = type(e).__name__
if "dns-name" in actions:
    try:
        out["dnsName"] = socket.gethostbyname("exfil.flowproof.invalid")
    except OSError as e:
        out["dnsName"] = type(e).__name__
if "child" in actions:
    code = "import socket\\ns=socket.socket();s.settimeout(4)\\ntry:\\n s.connect((%r,%d));print('connected')\\nexcept OSError as e:\\n print(type(e).__name__)" % (host, bad_port)
    out["child"] = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
open(os.environ["OUT"], "w").write(json.dumps(out))
req = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=json.dumps({"model": "m", "messages": [{"role": "user", "content": os.environ["FLOWPROOF_PROMPT"]}]}).encode(), headers={"content-type": "application/json", "authorization": "Bearer " + os.environ["OPENAI_API_KEY"]})
print(json.loads(urllib.request.urlopen(req).read())["choices"][0]["message"]["content"])
`;

let model: AgentModel;
let server: ReturnType<typeof Bun.spawn> | undefined;
let serverDir: TmpProject;
const projects: TmpProject[] = [];

function sh(argv: string[]): string {
  const r = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

const serverLog = () => (existsSync(join(serverDir.dir, "hits.log")) ? readFileSync(join(serverDir.dir, "hits.log"), "utf8").split("\n").filter(Boolean) : []);
const inEchos = () =>
  Number(
    /^Icmp: (.*)$/m
      .exec(
        sh(["ip", "netns", "exec", NS, "cat", "/proc/net/snmp"])
          .split("\n")
          .filter((l) => l.startsWith("Icmp:"))[1] ?? "",
      )?.[1]
      ?.split(" ")[7] ?? NaN,
  );

beforeAll(async () => {
  model = startAgentModel(() => ({ text: "done" }));
  serverDir = tmpProject("flowproof-egress-server-");
  sh(["ip", "netns", "add", NS]);
  sh(["ip", "link", "add", HOST_IF, "type", "veth", "peer", "name", PEER_IF]);
  sh(["ip", "link", "set", PEER_IF, "netns", NS]);
  sh(["ip", "addr", "add", `${SUBNET}.1/24`, "dev", HOST_IF]);
  sh(["ip", "link", "set", HOST_IF, "up"]);
  sh(["ip", "-n", NS, "addr", "add", `${TARGET}/24`, "dev", PEER_IF]);
  sh(["ip", "-n", NS, "link", "set", PEER_IF, "up"]);
  sh(["ip", "-n", NS, "link", "set", "lo", "up"]);
  const file = serverDir.write("server.js", SERVER);
  server = Bun.spawn(["ip", "netns", "exec", NS, process.execPath, file], {
    env: { ...process.env, LOG: join(serverDir.dir, "hits.log") },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (server.stdout as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain("ready");
  // Reachable from here, uncontained: the namespace and its server work.
  expect(await (await fetch(`http://${TARGET}:${OK_PORT}/`)).text()).toBe(`allowed-${OK_PORT}`);
});

afterAll(() => {
  model?.stop();
  server?.kill();
  Bun.spawnSync(["ip", "netns", "del", NS]);
  Bun.spawnSync(["ip", "link", "del", HOST_IF]);
  serverDir?.remove();
  for (const p of projects) p.remove();
});

function project(): TmpProject {
  const p = tmpProject("flowproof-egress-");
  projects.push(p);
  p.write("agent.mjs", NODE_AGENT);
  p.write("agent.py", PYTHON_AGENT);
  return p;
}

function flow(command: string, actions: string, extra: { allow?: string; steps?: readonly string[]; control?: boolean } = {}): string {
  return [
    "name: Egress",
    "app: agent",
    ...(extra.control ? ["control: {id: agent-egress}"] : []),
    "agent:",
    `  command: ${command}`,
    `  allow_egress: ${extra.allow ?? `[${TARGET}:${OK_PORT}]`}`,
    `  env: {TARGET: "${TARGET}", OK_PORT: "${OK_PORT}", BAD_PORT: "${BAD_PORT}", ACTIONS: "${actions}", OUT: out.json}`,
    "steps:",
    ...(extra.steps ?? ["  - prompt: reach out", "  - assert: reply contains done"]),
    "",
  ].join("\n");
}

const recordEnv = () => ({ FLOWPROOF_AGENT_UPSTREAM: model.url, FLOWPROOF_AGENT_KEY: "sk-egress-test" });

interface AgentReport {
  containment?: string;
  egress_attempts?: { destination: string; at_ms: number }[];
}

async function replay(
  p: TmpProject,
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string; stdout: string; agent: AgentReport; result: Record<string, unknown> }> {
  const r = await runCli(["run", "f.flow.yaml"], { cwd: p.dir, env });
  const path = /result: (\S+)/.exec(r.stdout + r.stderr)?.[1];
  expect(path).toBeDefined();
  const result = JSON.parse(readFileSync(join(p.dir, path!), "utf8")) as { steps: { agent?: AgentReport }[] };
  return { ...r, agent: result.steps[0]!.agent ?? {}, result };
}

const destinations = (a: AgentReport) => (a.egress_attempts ?? []).map((x) => x.destination).sort();

describe.each([
  // UDP to the allowed ip:port is not relayed (TCP only): refused and recorded like any other.
  [
    "Node",
    () => `${NODE} agent.mjs`,
    "allowed,undeclared,dns-offhost,udp-allowed,dns-name,child",
    [`tcp ${TARGET}:${BAD_PORT}`, `udp ${TARGET}:53`, `udp ${TARGET}:${OK_PORT}`, "dns exfil.flowproof.invalid"],
  ],
  [
    "Python",
    () => `${PYTHON} agent.py`,
    "allowed,undeclared,raw,dns-name,child",
    [`tcp ${TARGET}:${BAD_PORT}`, `icmp ${TARGET}`, "dns exfil.flowproof.invalid"],
  ],
] as const)("%s agent", (_name, command, actions, expected) => {
  test("the allowed destination answers; everything else is refused by the kernel, recorded, and never arrives — at record and at replay alike", async () => {
    expect(PYTHON).not.toBeNull();
    const p = project();
    p.write("f.flow.yaml", flow(command(), actions));
    const hitsBefore = serverLog().length;
    const echosBefore = inEchos();
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.stderr).toContain("containment: enforced (linux user+network namespace)");
    expect(rec.code).toBe(0);
    const seen = JSON.parse(p.read("out.json")) as Record<string, string>;
    expect(seen["allowed"]).toBe(`200 allowed-${OK_PORT}`);
    expect(seen["undeclared"]).toMatch(/^(ECONNREFUSED|ConnectionRefusedError)$/);
    expect(seen["child"]).toMatch(/^(ECONNREFUSED|ConnectionRefusedError)$/);
    expect(seen["dnsName"]).toMatch(/^(ENOTFOUND|gaierror)$/);
    if (seen["dnsOffhost"] !== undefined) expect(seen["dnsOffhost"]).not.toBe("answered");
    if (seen["raw"] !== undefined) expect(seen["raw"]).not.toBe("answered");
    // Only the allowed port was ever reached; no echo request arrived.
    expect(serverLog().slice(hitsBefore)).toEqual([`tcp ${OK_PORT}`]);
    expect(inEchos()).toBe(echosBefore);

    // Replay: the same agent, the same containment, the same attempts; the model is not asked.
    const modelCalls = model.requests.length;
    const run = await replay(p);
    expect(run.code).toBe(0);
    expect(model.requests.length).toBe(modelCalls);
    expect(run.agent.containment).toBe("enforced (linux user+network namespace)");
    expect(destinations(run.agent)).toEqual([...expected].sort());
    expect(JSON.parse(p.read("out.json"))).toEqual(seen);
    expect(serverLog().slice(hitsBefore)).toEqual([`tcp ${OK_PORT}`, `tcp ${OK_PORT}`]);
    expect(inEchos()).toBe(echosBefore);
  }, 120_000);
});

test("the compiled executable contains the agent the same way (no Bun or Node on its PATH)", async () => {
  expect(PYTHON).not.toBeNull();
  const sandbox = await buildSandbox();
  try {
    const p = project();
    p.write("f.flow.yaml", flow(`${PYTHON} agent.py`, "allowed,undeclared,child", { steps: ["  - prompt: reach out", "  - assert_no_egress"] }));
    const hitsBefore = serverLog().length;
    const rec = await sandbox.run(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.stderr).toContain("containment: enforced (linux user+network namespace)");
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain(`each refused: tcp ${TARGET}:${BAD_PORT}`);
    expect(JSON.parse(p.read("out.json"))).toMatchObject({
      allowed: `200 allowed-${OK_PORT}`,
      undeclared: "ConnectionRefusedError",
      child: "ConnectionRefusedError",
    });
    expect(serverLog().slice(hitsBefore)).toEqual([`tcp ${OK_PORT}`]);
  } finally {
    sandbox.remove();
  }
}, 300_000);

describe("assert_no_egress", () => {
  test("fails the record naming what the agent attempted, and no trace is written", async () => {
    const p = project();
    p.write("f.flow.yaml", flow(`${NODE} agent.mjs`, "allowed,undeclared", { steps: ["  - prompt: reach out", "  - assert_no_egress"] }));
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.code).toBe(1);
    expect(rec.stderr).toContain(`assert_no_egress: the agent attempted 1 destination(s) outside agent.allow_egress, each refused: tcp ${TARGET}:${BAD_PORT}`);
    expect(existsSync(join(p.dir, "f.trace.jsonl"))).toBe(false);
  }, 60_000);

  test("passes when only allowed destinations were reached; a replay whose agent reaches further fails naming it", async () => {
    const p = project();
    p.write(
      "f.flow.yaml",
      flow(`${NODE} agent.mjs`, "${ACTIONS}", { steps: ["  - prompt: reach out", "  - assert_no_egress"] }).replace(
        'ACTIONS: "${ACTIONS}"',
        'ACTIONS: "${AGENT_ACTIONS}"',
      ),
    );
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), AGENT_ACTIONS: "allowed" } });
    expect(rec.code).toBe(0);
    const clean = await replay(p, { AGENT_ACTIONS: "allowed" });
    expect(clean.code).toBe(0);
    expect(clean.agent.egress_attempts).toEqual([]);
    const dirty = await replay(p, { AGENT_ACTIONS: "allowed,child" });
    expect(dirty.code).toBe(1);
    expect(dirty.stdout + dirty.stderr).toContain(`each refused: tcp ${TARGET}:${BAD_PORT}`);
    expect(destinations(dirty.agent)).toEqual([`tcp ${TARGET}:${BAD_PORT}`]);
  }, 90_000);

  test("on an uncontained run it is a capability error, never a pass; the tier says why", async () => {
    const p = project();
    p.write("f.flow.yaml", flow(`${NODE} agent.mjs`, "allowed", { steps: ["  - prompt: reach out", "  - assert_no_egress"], control: true }));
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), FLOWPROOF_CONTAINMENT: "off" } });
    expect(rec.stderr).toContain("containment: not contained (FLOWPROOF_CONTAINMENT=off)");
    expect(rec.code).not.toBe(0);
    expect(rec.stderr).toContain("assert_no_egress cannot certify anything: the agent was not contained (FLOWPROOF_CONTAINMENT=off)");
    // Recorded contained, replayed uncontained: still no pass.
    p.write("f.flow.yaml", flow(`${NODE} agent.mjs`, "allowed", { steps: ["  - prompt: reach out", "  - assert_no_egress"], control: true }));
    expect((await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() })).code).toBe(0);
    const run = await replay(p, { FLOWPROOF_CONTAINMENT: "off" });
    expect(run.code).not.toBe(0);
    expect(run.agent.containment).toBe("not contained (FLOWPROOF_CONTAINMENT=off)");
    expect(run.agent.egress_attempts).toBeUndefined();
    const audit = await runCli(["audit", ".", "--json"], { cwd: p.dir });
    const control = (JSON.parse(audit.stdout) as { controls: { id: string; verdict: string; containment?: string; lanes?: string[] }[] }).controls[0]!;
    expect(control).toMatchObject({
      id: "agent-egress",
      verdict: "capability-error",
      containment: "not contained (FLOWPROOF_CONTAINMENT=off)",
      lanes: ["egress"],
    });
  }, 90_000);

  test("allow_egress without assert_no_egress on an uncontained run warns, and the flow still passes", async () => {
    const p = project();
    p.write("f.flow.yaml", flow(`${NODE} agent.mjs`, "allowed"));
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: { ...recordEnv(), FLOWPROOF_CONTAINMENT: "off" } });
    expect(rec.code).toBe(0);
    expect(rec.stderr).toContain("WARNING: agent.allow_egress is declared but this run is not contained (FLOWPROOF_CONTAINMENT=off)");
  }, 60_000);
});

describe("a bare address in allow_egress", () => {
  test("every TCP port of it is reachable, at record and replay; another address is still refused and recorded", async () => {
    const p = project();
    const elsewhere = `${SUBNET}.3`;
    p.write(
      "f.flow.yaml",
      flow(`${NODE} agent.mjs`, "allowed,undeclared,elsewhere", { allow: `[${TARGET}]` }).replace(
        "OUT: out.json}",
        `OUT: out.json, ELSEWHERE: "${elsewhere}"}`,
      ),
    );
    const hitsBefore = serverLog().length;
    const rec = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(rec.stderr).toContain("containment: enforced (linux user+network namespace)");
    expect(rec.code, rec.stdout + rec.stderr).toBe(0);
    expect(JSON.parse(p.read("out.json"))).toEqual({ allowed: `200 allowed-${OK_PORT}`, undeclared: "connected", elsewhere: "ECONNREFUSED" });
    // The connection to the other port opened (and carried no request).
    expect(serverLog().slice(hitsBefore)).toEqual([`tcp ${OK_PORT}`]);
    const run = await replay(p);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(p.read("out.json"))).toEqual({ allowed: `200 allowed-${OK_PORT}`, undeclared: "connected", elsewhere: "ECONNREFUSED" });
    expect(destinations(run.agent)).toEqual([`tcp ${elsewhere}:${OK_PORT}`]);
    expect(serverLog().slice(hitsBefore)).toEqual([`tcp ${OK_PORT}`, `tcp ${OK_PORT}`]);
  }, 120_000);
});

describe("bad allow_egress input", () => {
  test.each([
    ["[10.0.0.0/16]", "names no port"],
    ["[10.0.0.5:70000]", "out of range"],
    ["[10.0.0.0/40:80]", "prefix length"],
    ["[no-such-host.invalid:443]", "does not resolve"],
  ])("%s: file:line:col, exit 2", async (allow, words) => {
    const p = project();
    p.write("f.flow.yaml", flow(`${NODE} agent.mjs`, "allowed", { allow }));
    const r = await runCli(["record", "f.flow.yaml"], { cwd: p.dir, env: recordEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`f\\.flow\\.yaml:5:18: error\\[bad-value\\] \`agent\\.allow_egress\`: .*${words}`));
  });

  test("allow_egress on a url: agent: file:line:col, exit 2", async () => {
    const p = project();
    p.write(
      "f.flow.yaml",
      [
        "name: u",
        "app: agent",
        "agent:",
        "  url: http://127.0.0.1:9/run",
        "  proxy_port: 8787",
        "  allow_egress: [10.0.0.5:80]",
        "steps:",
        "  - prompt: go",
        "",
      ].join("\n"),
    );
    const r = await runCli(["validate", "f.flow.yaml"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("f.flow.yaml:6:3: error[bad-value] `allow_egress` goes with `agent.command`");
  });
});
