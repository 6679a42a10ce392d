import { describe, expect, test } from "bun:test";
import { nsDnsAnswer, nsDnsQuestion, nsPacket, nsProgram, nsV6Bytes, nsV6Text } from "./containment-ns.ts";

function ipv4(proto: number, dst: number[], l4: number[]): Uint8Array {
  const b = new Uint8Array(20 + l4.length);
  b[0] = 0x45;
  b[9] = proto;
  b.set([10, 0, 0, 1], 12);
  b.set(dst, 16);
  b.set(l4, 20);
  return b;
}
const tcp = (port: number, flags: number) => [0xc3, 0x50, port >> 8, port & 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0x50, flags, 0, 0, 0, 0, 0, 0];

describe("nsPacket", () => {
  test("a TCP SYN to an address is an attempt with its port; replies and loopback are not", () => {
    expect(nsPacket(ipv4(6, [10, 213, 0, 2], tcp(9090, 0x02)))).toEqual({
      protocol: "tcp",
      address: "10.213.0.2",
      port: 9090,
      from: { address: "10.0.0.1", port: 0xc350 },
    });
    expect(nsPacket(ipv4(6, [10, 213, 0, 2], tcp(9090, 0x12)))).toBeUndefined();
    expect(nsPacket(ipv4(6, [10, 213, 0, 2], tcp(9090, 0x10)))).toBeUndefined();
    expect(nsPacket(ipv4(6, [127, 0, 0, 1], tcp(80, 0x02)))).toBeUndefined();
  });
  test("UDP, ICMP echo requests and other protocols are attempts; ICMP errors are not", () => {
    expect(nsPacket(ipv4(17, [8, 8, 8, 8], [0x12, 0x34, 0, 53, 0, 8, 0, 0]))).toEqual({
      protocol: "udp",
      address: "8.8.8.8",
      port: 53,
      from: { address: "10.0.0.1", port: 0x1234 },
    });
    expect(nsPacket(ipv4(1, [10, 0, 0, 9], [8, 0, 0, 0, 0, 0, 0, 0]))).toEqual({ protocol: "icmp", address: "10.0.0.9" });
    expect(nsPacket(ipv4(1, [10, 0, 0, 9], [3, 3, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(nsPacket(ipv4(47, [10, 0, 0, 9], [0, 0, 0, 0]))).toEqual({ protocol: "ip-proto-47", address: "10.0.0.9" });
  });
  test("IPv6: the destination in its short form; ::1 is loopback", () => {
    const b = new Uint8Array(60);
    b[0] = 0x60;
    b[6] = 6;
    b.set(nsV6Bytes("fd00::9")!, 24);
    b.set(tcp(443, 0x02), 40);
    expect(nsPacket(b)).toMatchObject({ protocol: "tcp", address: "fd00::9", port: 443, from: { address: "::" } });
    b.set(nsV6Bytes("::1")!, 24);
    expect(nsPacket(b)).toBeUndefined();
  });
  test("short or unknown packets are nothing", () => {
    expect(nsPacket(new Uint8Array(10))).toBeUndefined();
    expect(nsPacket(new Uint8Array(40).fill(0x20))).toBeUndefined();
  });
});

describe("IPv6 text", () => {
  test("bytes and text round-trip; malformed text is refused", () => {
    for (const t of ["::1", "fd00::9", "2001:db8::1:0:0:1", "::", "1:2:3:4:5:6:7:8"]) expect(nsV6Text(nsV6Bytes(t)!)).toBe(t);
    expect(nsV6Text(nsV6Bytes("::ffff:10.0.0.1")!)).toBe("::ffff:a00:1");
    expect(nsV6Bytes("1::2::3")).toBeUndefined();
    expect(nsV6Bytes("12345::")).toBeUndefined();
    expect(nsV6Bytes("1:2:3")).toBeUndefined();
  });
});

function query(name: string, type: number): Uint8Array {
  const labels = name.split(".").flatMap((l) => [l.length, ...[...l].map((c) => c.charCodeAt(0))]);
  return Uint8Array.from([0xab, 0xcd, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, 0, type, 0, 1]);
}

describe("the resolver", () => {
  test("reads the question of a query", () => {
    expect(nsDnsQuestion(query("API.Example.com", 1))).toEqual({ name: "api.example.com", type: 1, end: 12 + 17 + 4 });
    expect(nsDnsQuestion(new Uint8Array(5))).toBeUndefined();
  });
  test("answers a pinned name with its A records, and an unpinned one NXDOMAIN", () => {
    const q = query("api.example.com", 1);
    const a = nsDnsAnswer(q, nsDnsQuestion(q)!, ["10.0.0.5", "fd00::5", "10.0.0.6"]);
    expect([a[0], a[1]]).toEqual([0xab, 0xcd]);
    expect(a[3]! & 0x0f).toBe(0);
    expect((a[6]! << 8) | a[7]!).toBe(2);
    expect([...a.subarray(a.length - 4)]).toEqual([10, 0, 0, 6]);
    const nx = nsDnsAnswer(q, nsDnsQuestion(q)!, undefined);
    expect(nx[3]! & 0x0f).toBe(3);
    expect((nx[6]! << 8) | nx[7]!).toBe(0);
  });
  test("AAAA answers carry the IPv6 addresses only", () => {
    const q = query("api.example.com", 28);
    const a = nsDnsAnswer(q, nsDnsQuestion(q)!, ["10.0.0.5", "fd00::5"]);
    expect((a[6]! << 8) | a[7]!).toBe(1);
    expect(nsV6Text(a.subarray(a.length - 16))).toBe("fd00::5");
  });
});

test("the program source defines every function nsMain calls and ends by calling it", () => {
  const src = nsProgram();
  for (const name of ["nsV6Bytes", "nsV6Text", "nsPacket", "nsDnsQuestion", "nsDnsAnswer", "nsMain"]) expect(src).toContain(`function ${name}(`);
  expect(src.trim().endsWith("process.exit(125); });")).toBe(true);
  // Built-ins are required by the program's last line only: a bundler rewrites `require` inside functions.
  expect(src.split("\n").slice(0, -2).join("\n")).not.toMatch(/\brequire\(/);
});
