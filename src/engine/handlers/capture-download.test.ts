import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { engineHarness, traceStep, byText, type EngineHarness } from "../../../test/support/engine.ts";
import { captureDownload } from "./capture-download.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
  for (const name of ["report", "a", "b"]) {
    h.server.setRoute(
      `/files/${name}.csv`,
      () => new Response("id\n1\n", { headers: { "content-type": "text/csv", "content-disposition": `attachment; filename="${name}.csv"` } }),
    );
  }
});
afterAll(async () => {
  await h.close();
});

describe("captureDownload", () => {
  test("remembers the completed download's path under its server-given name", async () => {
    const ctx = await h.context("download.html");
    expect((await h.driver.click(byText("Export CSV"), { button: "left", clickCount: 1 })).ok).toBe(true);
    expect((await captureDownload(traceStep("Wait until the download completes as report within 10s"), ctx)).status).toBe("passed");
    const path = ctx.captures.get("report") ?? "";
    expect(path.endsWith("report.csv")).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("id\n1\n");
  });
  test("fails when more than one download completed", async () => {
    const ctx = await h.context("download.html");
    expect((await h.driver.click(byText("Export both"), { button: "left", clickCount: 1 })).ok).toBe(true);
    // Both finished before the step reads them: the step must not pick one.
    for (let i = 0; i < 200 && h.driver.downloads!(false).completed.length < 2; i++) await Bun.sleep(25);
    const r = await captureDownload(traceStep("Wait until the download completes as both within 5s"), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("expected exactly one download, but 2 completed");
  });

  test("fails when no download starts within the bound", async () => {
    const ctx = await h.context("download.html");
    const r = await captureDownload(traceStep("Wait until the download completes as none within 1s"), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("no download completed within 1000 ms (none started)");
  });
});
