import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CAPABILITIES } from "./capabilities.ts";

test("every capability is listed once, and the plugin docs' Capabilities table names each", () => {
  expect(new Set(CAPABILITIES).size).toBe(CAPABILITIES.length);
  const docs = readFileSync(join(import.meta.dir, "../../docs/plugins.md"), "utf8");
  const table = docs.slice(docs.indexOf("### Capabilities"), docs.indexOf("### Error codes"));
  const named = new Set([...table.matchAll(/^\| (.+?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-z]+)`/g)].map((n) => n[1]!)));
  expect(CAPABILITIES.filter((c) => !named.has(c))).toEqual([]);
});
