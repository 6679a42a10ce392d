import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { upload } from "./upload.ts";

let h: EngineHarness;
let dir: string;
beforeAll(async () => {
  h = await engineHarness();
  dir = mkdtempSync(join(tmpdir(), "fp-upload-"));
  writeFileSync(join(dir, "logo.png"), "PNG!!");
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("upload", () => {
  test("sets the file on a hidden file input found through its label", async () => {
    const ctx = await h.context("upload.html");
    expect((await upload(traceStep(`Upload ${join(dir, "logo.png")} into the "Avatar" field`), ctx)).status).toBe("passed");
    expect((await h.driver.check(byId("chosen"), { kind: "text_contains", text: "avatar = logo.png (5 bytes)" })).pass).toBe(true);
  });
  test("fails naming the path of a missing file", async () => {
    const ctx = await h.context("upload.html");
    const r = await upload(traceStep(`Upload ${join(dir, "nope.png")} into the "Avatar" field`), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain(join(dir, "nope.png"));
  });
  test("fails when the target is not a file input", async () => {
    const ctx = await h.context("greeter.html");
    const r = await upload(traceStep(`Upload ${join(dir, "logo.png")} into the "Your name" field`, { stepTimeoutMs: 300 }), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("not a file input");
  });
});
