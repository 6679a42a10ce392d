import { describe, expect, test } from "bun:test";
import { parseEgressEntry } from "./egress.ts";

describe("parseEgressEntry", () => {
  test("a bare host or address (IPv6 with or without brackets) allows every port", () => {
    expect(parseEgressEntry("10.0.0.5")).toEqual({ ok: true, entry: { kind: "ip", ip: "10.0.0.5" } });
    expect(parseEgressEntry("[fd00::7]")).toEqual({ ok: true, entry: { kind: "ip", ip: "fd00::7" } });
    expect(parseEgressEntry("fd00::8")).toEqual({ ok: true, entry: { kind: "ip", ip: "fd00::8" } });
    expect(parseEgressEntry("API.Example.com.")).toEqual({ ok: true, entry: { kind: "host", host: "api.example.com" } });
  });

  test.each([
    ["10.0.0.5:8080", { kind: "ip", ip: "10.0.0.5", port: 8080 }],
    ["10.1.0.0/16:5432", { kind: "cidr", ip: "10.1.0.0", bits: 16, port: 5432 }],
    ["[fd00::1]:443", { kind: "ip", ip: "fd00::1", port: 443 }],
    ["api.example.com:443", { kind: "host", host: "api.example.com", port: 443 }],
  ])("reads %s", (text, entry) => {
    expect(parseEgressEntry(text)).toEqual({ ok: true, entry } as never);
  });

  test.each([
    ["10.0.0.0/16", "the ports you name"],
    ["http://x:80", "is a URL"],
    ["10.0.0.5:0", "out of range"],
  ])("refuses %s: %s", (text, words) => {
    const r = parseEgressEntry(text);
    expect(r.ok ? "" : r.message).toContain(words);
  });
});
