// The program that runs inside a contained agent's own network namespace, before and around the
// agent: it brings up loopback, makes every address local (so a connection to any destination is
// refused by the kernel at once instead of leaving), serves DNS from the names pinned at start,
// relays the allowed destinations and flowproof's own loopback services out through unix sockets
// flowproof listens on, watches the namespace's packets for attempted destinations, then runs the
// agent's command and exits with its status.
//
// It runs as a separate process (`bun -e`, the running executable acting as Bun), so `nsProgram`
// assembles its source from the functions below: each uses only its arguments (the built-in
// modules included), never this module's imports.

/** What the namespace program is told (a JSON file; see containment.ts). */
export interface NsConfig {
  /** The agent's command line, run through `sh -c`. */
  readonly command: string;
  /** The file events are appended to, one JSON object a line: `{attempt}`, `{ready}` or `{error}`. */
  readonly events: string;
  /** TCP listeners inside the namespace, each relayed to the unix socket flowproof serves for it. */
  readonly forwards: readonly { readonly host: string; readonly port: number; readonly socket: string }[];
  /** Pinned answers: a lower-case host name → its addresses. */
  readonly names: Readonly<Record<string, readonly string[]>>;
  /** The addresses the resolver answers on (port 53): loopback and the system's configured name servers. */
  readonly dns: readonly string[];
  /**
   * Addresses allowed on every TCP port: nftables redirects connections to them to one listener,
   * which relays each to `socket`, naming its original destination first (`<address> <port>\n`).
   */
  readonly anyPort?: { readonly addresses: readonly string[]; readonly socket: string };
}

/** An attempt seen in the namespace: `tcp 10.0.0.9:443`, `udp 10.0.0.9:53`, `icmp 10.0.0.9`, `ip-proto-47 10.0.0.9`. */
export interface NsAttempt {
  readonly protocol: string;
  readonly address: string;
  readonly port?: number;
  /** TCP and UDP: the source address and port. */
  readonly from?: { readonly address: string; readonly port: number };
}

/** The 16 bytes of an IPv6 address (with `::` and a dotted IPv4 tail expanded); undefined when it is not one. */
export function nsV6Bytes(text: string): Uint8Array | undefined {
  let t = text;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted) {
    const q = dotted[2]!.split(".").map(Number);
    if (q.some((n) => n > 255)) return undefined;
    tail.push(...q);
    t = dotted[1]!.endsWith("::") ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = t.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const total = (head.length + rest.length) * 2 + tail.length;
  if (halves.length === 1 && total !== 16) return undefined;
  if (total > 16 || (halves.length === 2 && total === 16)) return undefined;
  const out = new Uint8Array(16);
  const put = (list: string[], at: number) => {
    for (const [i, g] of list.entries()) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return false;
      const v = parseInt(g, 16);
      out[at + i * 2] = v >> 8;
      out[at + i * 2 + 1] = v & 0xff;
    }
    return true;
  };
  if (!put(head, 0)) return undefined;
  const restAt = 16 - tail.length - rest.length * 2;
  if (!put(rest, restAt)) return undefined;
  out.set(tail, 16 - tail.length);
  return out;
}

/** The text of an IPv6 address from its 16 bytes (lower case, the longest zero run as `::`). */
export function nsV6Text(b: Uint8Array): string {
  const g: number[] = [];
  for (let i = 0; i < 16; i += 2) g.push((b[i]! << 8) | b[i + 1]!);
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (list: number[]) => list.map((v) => v.toString(16)).join(":");
  return best < 0 ? hex(g) : `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
}

/**
 * What one packet leaving a socket in the namespace tries to reach (the network header first, as
 * an AF_PACKET SOCK_DGRAM socket reads it): a TCP connection opening (SYN), a UDP datagram, an
 * ICMP echo request, or any other IP protocol. Undefined for loopback destinations and for
 * replies (TCP segments other than a bare SYN, ICMP errors and echo replies).
 */
export function nsPacket(b: Uint8Array): NsAttempt | undefined {
  if (b.length < 20) return undefined;
  const version = b[0]! >> 4;
  let proto: number;
  let address: string;
  let source: string;
  let l4: number;
  if (version === 4) {
    proto = b[9]!;
    address = `${b[16]}.${b[17]}.${b[18]}.${b[19]}`;
    source = `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
    if (b[16] === 127) return undefined;
    l4 = (b[0]! & 15) * 4;
  } else if (version === 6) {
    if (b.length < 40) return undefined;
    proto = b[6]!;
    const dst = b.subarray(24, 40);
    address = nsV6Text(dst);
    source = nsV6Text(b.subarray(8, 24));
    if (address === "::1") return undefined;
    if (address.startsWith("::ffff:") && dst[12] === 127) return undefined;
    l4 = 40;
  } else {
    return undefined;
  }
  const port = () => (b.length >= l4 + 4 ? (b[l4 + 2]! << 8) | b[l4 + 3]! : undefined);
  const from = { address: source, port: b.length >= l4 + 2 ? (b[l4]! << 8) | b[l4 + 1]! : 0 };
  if (proto === 6) {
    const flags = b[l4 + 13];
    if (flags === undefined || (flags & 0x12) !== 0x02) return undefined;
    const p = port();
    return p === undefined ? undefined : { protocol: "tcp", address, port: p, from };
  }
  if (proto === 17) {
    const p = port();
    return p === undefined ? undefined : { protocol: "udp", address, port: p, from };
  }
  if (proto === 1 || proto === 58) {
    const type = b[l4];
    return type === 8 || type === 128 ? { protocol: "icmp", address } : undefined;
  }
  return { protocol: `ip-proto-${proto}`, address };
}

/** The question of a DNS query: its name (lower case, no trailing dot), type, and where the question ends. */
export function nsDnsQuestion(msg: Uint8Array): { name: string; type: number; end: number } | undefined {
  if (msg.length < 17 || (msg[2]! & 0x80) !== 0 || ((msg[4]! << 8) | msg[5]!) < 1) return undefined;
  const labels: string[] = [];
  let i = 12;
  for (;;) {
    const len = msg[i];
    if (len === undefined || len > 63) return undefined;
    i++;
    if (len === 0) break;
    if (i + len > msg.length) return undefined;
    labels.push(String.fromCharCode(...msg.subarray(i, i + len)));
    i += len;
  }
  if (i + 4 > msg.length) return undefined;
  const type = (msg[i]! << 8) | msg[i + 1]!;
  return { name: labels.join(".").toLowerCase(), type, end: i + 4 };
}

/**
 * The answer to a DNS query from the pinned names: A / AAAA records of a pinned name (other types:
 * no records), NXDOMAIN for a name that is not pinned (`addresses` undefined).
 */
export function nsDnsAnswer(msg: Uint8Array, question: { type: number; end: number }, addresses: readonly string[] | undefined): Uint8Array {
  const records: Uint8Array[] = [];
  for (const a of addresses ?? []) {
    const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(a) ? a.split(".").map(Number) : undefined;
    const v6 = v4 ? undefined : nsV6Bytes(a);
    const data = question.type === 1 && v4 ? Uint8Array.from(v4) : question.type === 28 && v6 ? v6 : undefined;
    if (!data) continue;
    const r = new Uint8Array(12 + data.length);
    r.set([0xc0, 0x0c, 0, question.type, 0, 1, 0, 0, 0, 60, 0, data.length]);
    r.set(data, 12);
    records.push(r);
  }
  const head = new Uint8Array(12);
  head.set([msg[0]!, msg[1]!, 0x80 | (msg[2]! & 0x01), 0x80 | (addresses ? 0 : 3), 0, 1, 0, records.length, 0, 0, 0, 0]);
  return Buffer.concat([head, msg.subarray(12, question.end), ...records]);
}

/** The built-in modules the namespace program uses, handed in (a bundler may rename `require` inside a function). */
export interface NsModules {
  readonly fs: typeof import("node:fs");
  readonly cp: typeof import("node:child_process");
  readonly net: typeof import("node:net");
  readonly dgram: typeof import("node:dgram");
  readonly ffi: typeof import("bun:ffi");
  readonly os: typeof import("node:os");
}

/** The namespace program's main: sets the namespace up, runs the agent, exits with its status. */
export async function nsMain(config: NsConfig, modules: NsModules): Promise<void> {
  const { fs, cp, net, dgram, ffi, os } = modules;
  const t0 = Date.now();
  const emit = (event: Record<string, unknown>) => fs.appendFileSync(config.events, `${JSON.stringify(event)}\n`);
  const fail = (message: string): never => {
    emit({ error: message });
    process.exit(125);
  };
  // Every address is local: a connection to anything unserved is refused here, never routed out.
  // One `ip` process for all of it (IPv6 only where the kernel has it).
  const commands = ["link set lo up", "route add local 0.0.0.0/0 dev lo", ...(fs.existsSync("/proc/net/if_inet6") ? ["route add local ::/0 dev lo"] : [])];
  const r = cp.spawnSync("ip", ["-batch", "-"], { input: `${commands.join("\n")}\n`, encoding: "utf8" });
  if (r.status !== 0) fail(`\`ip\` could not set up the namespace (${commands.join("; ")}): ${(r.stderr || r.error?.message || "").trim()}`);
  for (const knob of ["/proc/sys/net/ipv4/icmp_echo_ignore_all", "/proc/sys/net/ipv6/icmp/echo_ignore_all"]) {
    try {
      fs.writeFileSync(knob, "1");
    } catch {
      // no IPv6, or an older kernel: an echo answered locally still never leaves
    }
  }

  // Attempted destinations: every packet a socket in the namespace sends, read from an AF_PACKET socket.
  const libc = ffi.dlopen("libc.so.6", {
    socket: { args: ["i32", "i32", "i32"], returns: "i32" },
    recvfrom: { args: ["i32", "ptr", "u64", "i32", "ptr", "ptr"], returns: "i64" },
    getsockopt: { args: ["i32", "i32", "i32", "ptr", "ptr"], returns: "i32" },
  });
  const fd = libc.symbols.socket(17 /* AF_PACKET */, 2 /* SOCK_DGRAM */, 0x0300 /* htons(ETH_P_ALL) */);
  if (fd < 0) fail("cannot open a packet socket in the agent's network namespace");
  const buf = new Uint8Array(2048);
  const from = new Uint8Array(20);
  const fromLen = new Uint32Array([20]);
  const seen = new Set<string>();
  const drain = () => {
    for (;;) {
      fromLen[0] = 20;
      const n = Number(libc.symbols.recvfrom(fd, ffi.ptr(buf), buf.length, 0x40 /* MSG_DONTWAIT */, ffi.ptr(from), ffi.ptr(fromLen)));
      if (n <= 0) return;
      if (from[10] !== 4 /* PACKET_OUTGOING */) continue;
      const a = nsPacket(buf.subarray(0, n));
      // The resolver's own answers (from one of its addresses, port 53) go back to the asker.
      if (!a || (a.protocol === "udp" && a.from?.port === 53 && config.dns.includes(a.from.address))) continue;
      const key = `${a.protocol} ${a.address} ${a.port ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      emit({ attempt: { protocol: a.protocol, address: a.address, ...(a.port !== undefined ? { port: a.port } : {}) }, at_ms: Date.now() - t0 });
    }
  };
  // Attempts are read in batches (the queue holds them; the last ones are read when the agent ends).
  const poll = setInterval(drain, 25);

  // DNS: pinned names only; any other name is answered NXDOMAIN and recorded.
  for (const address of config.dns) {
    const sock = dgram.createSocket(address.includes(":") ? "udp6" : "udp4");
    sock.on("message", (msg: Buffer, peer: { address: string; port: number }) => {
      const bytes = new Uint8Array(msg);
      const q = nsDnsQuestion(bytes);
      if (!q) return;
      const pinned = config.names[q.name];
      if (!pinned) emit({ attempt: { protocol: "dns", address: q.name }, at_ms: Date.now() - t0 });
      sock.send(nsDnsAnswer(bytes, q, pinned), peer.port, peer.address);
    });
    await new Promise<void>((resolve) => {
      sock.once("error", (e: Error) => fail(`the resolver cannot listen on ${address}:53: ${e.message}`));
      sock.bind(53, address, () => resolve());
    });
  }

  // Allowed destinations and flowproof's loopback services: relayed to flowproof over unix sockets.
  for (const f of config.forwards) {
    // A CIDR range's relay is told the address each connection was made to, first.
    const range = f.socket.startsWith("cidr:");
    // Half-open allowed on both legs: a client that shuts down its sending side still reads the answer.
    const server = net.createServer({ allowHalfOpen: true }, (inside) => {
      const out = net.connect({ path: range ? f.socket.slice(5) : f.socket, allowHalfOpen: true });
      if (range) out.write(`${inside.localAddress}\n`);
      nsSplice(inside, out);
    });
    await new Promise<void>((resolve) => {
      server.once("error", (e: Error) => fail(`cannot listen on ${f.host}:${f.port} in the agent's namespace: ${e.message}`));
      server.listen({ host: f.host, port: f.port, ipv6Only: f.host.includes(":") }, () => resolve());
    });
  }

  // Addresses allowed on every port: one listener per family, nftables sends their TCP connections to it.
  if (config.anyPort) {
    const any = config.anyPort;
    const v6 = any.addresses.filter((a) => a.includes(":"));
    const v4 = any.addresses.filter((a) => !a.includes(":"));
    const listen = (host: string, family: 4 | 6) =>
      new Promise<number>((resolve) => {
        const server = net.createServer({ allowHalfOpen: true }, (inside) => {
          // The destination before the redirect: SO_ORIGINAL_DST (80) at SOL_IP / SOL_IPV6.
          const fd = (inside as unknown as { _handle?: { fd?: number } })._handle?.fd;
          const sa = new Uint8Array(28);
          const len = new Uint32Array([sa.length]);
          if (typeof fd !== "number" || libc.symbols.getsockopt(fd, family === 4 ? 0 : 41, 80, ffi.ptr(sa), ffi.ptr(len)) !== 0) {
            inside.destroy();
            return;
          }
          const port = (sa[2]! << 8) | sa[3]!;
          const address = family === 4 ? `${sa[4]}.${sa[5]}.${sa[6]}.${sa[7]}` : nsV6Text(sa.subarray(8, 24));
          const out = net.connect({ path: any.socket, allowHalfOpen: true });
          out.write(`${address} ${port}\n`);
          nsSplice(inside, out);
        });
        server.once("error", (e: Error) => fail(`cannot listen on ${host} in the agent's namespace: ${e.message}`));
        server.listen({ host, port: 0, ipv6Only: family === 6 }, () => resolve((server.address() as { port: number }).port));
      });
    const tables: string[] = [];
    if (v4.length > 0)
      tables.push(
        `table ip flowproof { chain out { type nat hook output priority -100; policy accept; ip daddr { ${v4.join(", ")} } meta l4proto tcp redirect to :${await listen("127.0.0.1", 4)}; }; }`,
      );
    if (v6.length > 0)
      tables.push(
        `table ip6 flowproof { chain out { type nat hook output priority -100; policy accept; ip6 daddr { ${v6.join(", ")} } meta l4proto tcp redirect to :${await listen("::1", 6)}; }; }`,
      );
    const nft = cp.spawnSync("nft", ["-f", "-"], { input: `${tables.join("\n")}\n`, encoding: "utf8" });
    if (nft.status !== 0)
      fail(
        `nftables could not redirect the any-port destinations (${any.addresses.join(", ")}) in the agent's namespace: ${(nft.stderr || nft.error?.message || "").trim()}`,
      );
  }

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "BUN_BE_BUN" && k !== "FLOWPROOF_CONTAINMENT_CONFIG") env[k] = v;
  emit({ ready: Date.now() - t0 });
  const child = cp.spawn("sh", ["-c", config.command], { stdio: "inherit", env });
  const forward = (signal: NodeJS.Signals) => process.on(signal, () => child.kill(signal));
  forward("SIGTERM");
  forward("SIGINT");
  child.on("exit", (code, signal) => {
    // The agent's last packets are in the socket's queue already.
    drain();
    clearInterval(poll);
    // This program is the PID namespace's first process: its exit ends every process left in it.
    // (Its own signal would not end it there, so an agent a signal ended exits 128 + the signal.)
    process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
  });
}

/** Joins two connections both ways; either one closing or failing ends both. */
export function nsSplice(a: import("node:net").Socket, b: import("node:net").Socket): void {
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on("error", end).on("close", end);
  b.on("error", end).on("close", end);
  a.pipe(b);
  b.pipe(a);
}

/** The source `bun -e` runs: the functions above, then `nsMain` on the config file named by FLOWPROOF_CONTAINMENT_CONFIG. */
export function nsProgram(): string {
  const parts = [nsV6Bytes, nsV6Text, nsPacket, nsDnsQuestion, nsDnsAnswer, nsSplice, nsMain].map((f) => f.toString());
  const modules = `{ fs: require("node:fs"), cp: require("node:child_process"), net: require("node:net"), dgram: require("node:dgram"), ffi: require("bun:ffi"), os: require("node:os") }`;
  return `${parts.join("\n")}\nnsMain(JSON.parse(require("node:fs").readFileSync(process.env.FLOWPROOF_CONTAINMENT_CONFIG, "utf8")), ${modules}).catch((e) => { console.error(e); process.exit(125); });\n`;
}
