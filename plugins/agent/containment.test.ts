import { expect, test } from "bun:test";
import { createServer, type AddressInfo } from "node:net";
import {
  allowedAttempt,
  containmentSupport,
  destinationOf,
  ENFORCED_TIER,
  inCidr,
  loopbackPortsIn,
  nameServers,
  openContainment,
  tierOf,
} from "./containment.ts";

test("FLOWPROOF_CONTAINMENT=off forces the uncontained tier; a url: agent is never contained", () => {
  const off = containmentSupport({ FLOWPROOF_CONTAINMENT: "off" });
  expect(off).toEqual({ enforced: false, reason: "FLOWPROOF_CONTAINMENT=off" });
  expect(tierOf({ command: "true" }, off)).toBe("not contained (FLOWPROOF_CONTAINMENT=off)");
  expect(tierOf({ command: "true" }, { enforced: true })).toBe(ENFORCED_TIER);
  expect(tierOf({ url: "http://127.0.0.1:1/run", proxy_port: 2 }, { enforced: true })).toStartWith("not contained (");
});

test("an uncontained execution spawns the command as it is and reports no attempts", async () => {
  const c = await openContainment({ command: "echo hi" }, { enforced: false, reason: "test" }, [1234]);
  expect(c.enforced).toBe(false);
  expect(c.launch("echo hi")).toEqual({ file: "sh", args: ["-c", "echo hi"], env: {} });
  expect(c.finish()).toEqual({ containment: { tier: "not contained (test)", enforced: false, attempted: [] } });
});

test("an allowed host that does not resolve is refused before the agent starts", async () => {
  await expect(
    openContainment({ command: "true", allow_egress: [{ kind: "host", host: "no-such-host.invalid", port: 443 }] }, { enforced: true }, []),
  ).rejects.toThrow("`no-such-host.invalid` does not resolve");
});

test("CIDR membership, IPv4 and IPv6", () => {
  expect(inCidr("10.1.200.3", "10.1.0.0", 16)).toBe(true);
  expect(inCidr("10.2.0.3", "10.1.0.0", 16)).toBe(false);
  expect(inCidr("10.2.0.3", "0.0.0.0", 0)).toBe(true);
  expect(inCidr("fd00::5", "fd00::", 8)).toBe(true);
  expect(inCidr("fe80::5", "fd00::", 8)).toBe(false);
  expect(inCidr("10.0.0.1", "fd00::", 8)).toBe(false);
});

test("attempts outside the allow list count; a relayed allowed connection does not", () => {
  const rules = [
    { kind: "ip", ip: "10.0.0.5", port: 8080 },
    { kind: "cidr", ip: "10.9.0.0", bits: 16, port: 5432 },
    { kind: "host", host: "api.test", port: 443 },
  ] as const;
  const pinned = new Map([["api.test", ["10.7.0.1"]]]);
  expect(allowedAttempt({ protocol: "tcp", address: "10.0.0.5", port: 8080 }, rules, pinned)).toBe(true);
  expect(allowedAttempt({ protocol: "tcp", address: "10.0.0.5", port: 9090 }, rules, pinned)).toBe(false);
  expect(allowedAttempt({ protocol: "udp", address: "10.0.0.5", port: 8080 }, rules, pinned)).toBe(false);
  expect(allowedAttempt({ protocol: "tcp", address: "10.9.3.4", port: 5432 }, rules, pinned)).toBe(true);
  expect(allowedAttempt({ protocol: "tcp", address: "10.7.0.1", port: 443 }, rules, pinned)).toBe(true);
  expect(allowedAttempt({ protocol: "tcp", address: "10.7.0.2", port: 443 }, rules, pinned)).toBe(false);
  // A bare address or host: every TCP port (UDP still never).
  const bare = [
    { kind: "ip", ip: "10.0.0.6" },
    { kind: "host", host: "any.test" },
  ] as const;
  const anyPinned = new Map([["any.test", ["10.7.0.9"]]]);
  expect(allowedAttempt({ protocol: "tcp", address: "10.0.0.6", port: 1234 }, bare, anyPinned)).toBe(true);
  expect(allowedAttempt({ protocol: "tcp", address: "10.7.0.9", port: 22 }, bare, anyPinned)).toBe(true);
  expect(allowedAttempt({ protocol: "udp", address: "10.0.0.6", port: 1234 }, bare, anyPinned)).toBe(false);
  expect(allowedAttempt({ protocol: "tcp", address: "10.0.0.7", port: 1234 }, bare, anyPinned)).toBe(false);
});

test("destinations read as protocol and address", () => {
  expect(destinationOf({ protocol: "tcp", address: "10.0.0.9", port: 443 })).toBe("tcp 10.0.0.9:443");
  expect(destinationOf({ protocol: "udp", address: "fd00::1", port: 53 })).toBe("udp [fd00::1]:53");
  expect(destinationOf({ protocol: "dns", address: "evil.example" })).toBe("dns evil.example");
});

test("name servers from resolv.conf, loopback ports from flowproof's variables", () => {
  expect(nameServers("# c\nnameserver 10.255.255.53\nnameserver fe80::1%eth0\nnameserver bogus\nsearch x\n")).toEqual(["10.255.255.53", "fe80::1"]);
  expect(loopbackPortsIn(["http://127.0.0.1:4100/v1", "http://localhost:4200", "x 127.0.0.1:99999", "http://10.0.0.1:80"]).sort()).toEqual([4100, 4200]);
});

test("a contained client that shuts down its sending side still reads the answer through the relay", async () => {
  const support = containmentSupport({});
  expect(support).toEqual({ enforced: true });
  // A server that answers once its client has finished sending (the client's half-close).
  const server = createServer({ allowHalfOpen: true }, (s) => {
    let got = "";
    s.on("data", (d: Buffer) => void (got += d.toString("utf8")));
    s.on("end", () => s.end(`echo:${got}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const c = await openContainment({ command: "x" }, support, [port]);
  try {
    const client = `import socket; s = socket.create_connection(("127.0.0.1", ${port})); s.sendall(b"hello"); s.shutdown(socket.SHUT_WR); print("reply", s.recv(100).decode())`;
    const l = c.launch(`python3 -c '${client}'`);
    // Spawned asynchronously: the relay and the server run in this process.
    const child = Bun.spawn([l.file, ...l.args], { env: { ...process.env, ...l.env }, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), 20_000);
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    clearTimeout(timer);
    expect(out.trim(), err).toBe("reply echo:hello");
    expect(c.finish().containment.attempted).toEqual([]);
  } finally {
    c.stop();
    server.close();
  }
});

test("a bare address in allow_egress is reachable on every TCP port; another address is still refused", async () => {
  const support = containmentSupport({});
  expect(support).toEqual({ enforced: true });
  // Two servers on a loopback address that is not flowproof's (127.0.0.2), each on its own port.
  const servers = [0, 1].map(() => createServer((s) => s.end(`hello ${String(s.localPort)}`)));
  const ports = await Promise.all(
    servers.map((s) => new Promise<number>((resolve) => s.listen(0, "127.0.0.2", () => resolve((s.address() as AddressInfo).port)))),
  );
  const c = await openContainment({ command: "x", allow_egress: [{ kind: "ip", ip: "127.0.0.2" }] }, support, []);
  try {
    const client = [
      "import socket",
      ...ports.map((p) => `print(socket.create_connection(("127.0.0.2", ${p}), timeout=5).recv(100).decode())`),
      "try:",
      `  socket.create_connection(("127.0.0.3", ${ports[0]}), timeout=3); print("connected")`,
      "except OSError as e:",
      "  print(type(e).__name__)",
    ].join("\n");
    const l = c.launch(`python3 -c '${client}'`);
    const child = Bun.spawn([l.file, ...l.args], { env: { ...process.env, ...l.env }, stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => child.kill(), 20_000);
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    clearTimeout(timer);
    expect(out.trim().split("\n"), err).toEqual([...ports.map((p) => `hello ${p}`), "ConnectionRefusedError"]);
    expect(c.finish()).toEqual({ containment: { tier: ENFORCED_TIER, enforced: true, attempted: [] } });
  } finally {
    c.stop();
    for (const s of servers) s.close();
  }
});

test("a bare address needs nftables: without `nft` the execution is refused before the agent starts, saying what to write instead", async () => {
  const path = process.env["PATH"];
  process.env["PATH"] = "/nonexistent";
  try {
    await expect(openContainment({ command: "true", allow_egress: [{ kind: "ip", ip: "10.0.0.5" }] }, { enforced: true }, [])).rejects.toMatchObject({
      code: "bad-value",
      message:
        "agent.allow_egress: `10.0.0.5` allows every port, which needs nftables (`nft`) inside the agent's namespace, and `nft` is not installed: install the nftables package, or name the ports (`10.0.0.5:443`)",
    });
  } finally {
    process.env["PATH"] = path;
  }
});
