import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { launch } from "./launch.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

describe("launch", () => {
  test("goes to a path relative to the flow's start URL", async () => {
    const ctx = await h.context("nav.html");
    expect(await launch(traceStep("Go to /page2.html"), ctx)).toEqual({ status: "passed" });
    expect((await h.driver.check([], { kind: "text_contains", text: "Second page" })).pass).toBe(true);
  });
  test("reloads the page", async () => {
    const ctx = await h.context("nav.html");
    const before = await h.driver.readText(byId("loads"));
    expect(await launch(traceStep("Reload the page"), ctx)).toEqual({ status: "passed" });
    const after = await h.driver.readText(byId("loads"));
    expect(Number(after.ok && after.value)).toBe(Number(before.ok && before.value) + 1);
  });
  test("goes back and forward across documents and within one (a hash route)", async () => {
    const ctx = await h.context("todo-app.html");
    const at = async (text: string) => (await h.driver.check([], { kind: "text_contains", text })).pass;
    await h.driver.navigate(`${h.server.url}/todo-app.html#/active`, 10_000);
    expect(await at("Showing active")).toBe(true);
    expect(await launch(traceStep("Go back"), ctx)).toEqual({ status: "passed" });
    expect(await at("Showing all")).toBe(true);
    expect(await launch(traceStep("Go forward"), ctx)).toEqual({ status: "passed" });
    expect(await at("Showing active")).toBe(true);
    await h.driver.navigate(`${h.server.url}/todo-about.html`, 10_000);
    expect(await launch(traceStep("Go back"), ctx)).toEqual({ status: "passed" });
    expect(await at("Showing active")).toBe(true);
    expect(await launch(traceStep("Go forward"), ctx)).toEqual({ status: "passed" });
    expect(await at("About todos")).toBe(true);
    const r = await launch(traceStep("Go forward"), ctx);
    expect(r).toEqual({ status: "failed", detail: "there is no later page to go forward to (nothing was gone back from)" });
  });
  test("fails naming the URL when the page cannot be opened", async () => {
    const ctx = await h.context("nav.html");
    const r = await launch(traceStep("Go to http://127.0.0.1:9/nowhere"), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("http://127.0.0.1:9/nowhere");
  });
  test("without a start page a path goes to the driver as written, not resolved against about:blank", async () => {
    const ctx = { ...(await h.context("nav.html")), baseUrl: "about:blank" };
    // Chromium cannot open a bare path (its Page.navigate refuses it): what matters is that the
    // path reached the driver instead of being refused here.
    const r = await launch(traceStep("Go to /nVA01"), ctx).catch((e: unknown) => e);
    expect(r).toMatchObject({ message: expect.stringContaining("Page.navigate: Cannot navigate to invalid URL") });
  });
  test("resolves ${VAR} in the destination at execution", async () => {
    const ctx = await h.context("nav.html", { PAGE: "page2.html" });
    expect(await launch(traceStep("Go to /${PAGE}"), ctx)).toEqual({ status: "passed" });
    expect((await h.driver.check([], { kind: "url", op: "contains", value: "page2" })).pass).toBe(true);
  });
});
