// A codegen session's life (headless): its refusals, the flow file present from the start and
// complete at the end, and a recording that flags the step it could not perform.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { CodegenSession, codegen, recordCaptured } from "./codegen.ts";
import { renderFlow } from "./codegen-file.ts";
import type { CodegenStep } from "./codegen-steps.ts";

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
});
afterAll(() => server.stop());
afterEach(() => project?.remove());

describe("CodegenSession.start", () => {
  test.each([
    ["a text that is no URL", { url: "not a url" }, /is not a URL/],
    ["a scheme a browser page is not", { url: "ftp://example.com/" }, /not ftp:/],
    ["a variable name that is none", { url: "http://127.0.0.1:1/", appUrlVar: "APP-URL" }, /is not a variable name/],
  ])("refuses %s with a usage error and a hint", async (_what, options, message) => {
    project = tmpProject();
    const error = await CodegenSession.start({ ...options, out: join(project.dir, "x.flow.yaml"), headed: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowproofError);
    expect((error as FlowproofError).code).toBe("usage");
    expect((error as FlowproofError).message).toMatch(message);
    expect((error as FlowproofError).diagnostics[0]?.hint).toBeString();
  });

  test("leaves no flow file behind when the browser cannot start", async () => {
    project = tmpProject();
    const out = join(project.dir, "x.flow.yaml");
    const saved = process.env["FLOWPROOF_CHROME"];
    process.env["FLOWPROOF_CHROME"] = join(project.dir, "no-such-browser");
    try {
      await expect(CodegenSession.start({ url: `${server.url}/codegen-sign-in.html`, out, headed: false })).rejects.toThrow(/no Chromium-family browser/);
    } finally {
      if (saved === undefined) delete process.env["FLOWPROOF_CHROME"];
      else process.env["FLOWPROOF_CHROME"] = saved;
    }
    expect(existsSync(out)).toBe(false);
  });

  test("never overwrites an existing flow", async () => {
    project = tmpProject();
    const out = project.write("mine.flow.yaml", "name: mine\n");
    await expect(CodegenSession.start({ url: `${server.url}/codegen-sign-in.html`, out, headed: false })).rejects.toThrow(/already exists/);
    expect(readFileSync(out, "utf8")).toBe("name: mine\n");
  });
});

describe("codegen", () => {
  test("writes the flow file when the window opens and finishes it when the session is stopped", async () => {
    project = tmpProject();
    const out = join(project.dir, "s.flow.yaml");
    const stop = new AbortController();
    const ran = codegen({ url: `${server.url}/codegen-sign-in.html`, out, name: "Sign in", appUrlVar: "SHOP_URL", headed: false, signal: stop.signal });
    const until = Date.now() + 60_000;
    while (!existsSync(out) && Date.now() < until) await Bun.sleep(20);
    expect(readFileSync(out, "utf8")).toContain("url: ${SHOP_URL}/codegen-sign-in.html");
    stop.abort();
    const r = await ran;
    expect(r).toMatchObject({ flow_path: out, steps: [], todos: 0, variables: [{ name: "SHOP_URL", for: `the app's origin (${server.url})` }] });
    expect(r.ended).toMatch(/closed|exited|killed/);
    expect(readFileSync(out, "utf8")).toContain("name: Sign in\napp: web\n");
  });
});

describe("a navigation codegen cannot place", () => {
  test("is logged as it happens and listed in the result as not written, with the step to add by hand (or is the page's own)", async () => {
    project = tmpProject();
    const html = (body: string) => () => new Response(body, { headers: { "content-type": "text/html" } });
    // The start page moves on by itself (well after codegen has begun listening, once the start page
    // loaded) to a page that rewrites its own URL as it loads: no history entry ever has the URL it committed.
    server.setRoute(
      "/moves-on.html",
      html(`<!doctype html><title>Start</title><script>setTimeout(() => { location.href = "/renames-itself.html"; }, 2000);</script>`),
    );
    server.setRoute("/renames-itself.html", html(`<!doctype html><title>Renamed</title><script>history.replaceState(null, "", "/renamed-on-load");</script>`));
    const out = join(project.dir, "n.flow.yaml");
    const log: string[] = [];
    const session = await CodegenSession.start({ url: `${server.url}/moves-on.html`, out, headed: false, log: (l) => log.push(l) });
    // The page moves on by itself: when the history lookup sees the entry before the page renamed it,
    // the navigation is the page's own (no step, nothing to tell); otherwise it is told. Which one
    // comes first is the page's race, so the test waits out the lookup (5 s) either way.
    const until = Date.now() + 15_000;
    while (!log.some((l) => l.startsWith("! Not written")) && Date.now() < until) await Bun.sleep(50);
    const r = await session.stop();
    const line =
      "no step for the navigation to ${APP_URL}/renames-itself.html: the browser's history showed no entry for it within 5 s, so whether you went there from the address bar or reloaded is unknown; if you did, add `Go to ${APP_URL}/renames-itself.html` (or `Reload the page`) there yourself";
    if (r.not_written.length > 0) {
      expect(log).toContain(`! Not written: ${line}`);
      expect(r.not_written).toEqual([line]);
    } else expect(log.filter((l) => l.startsWith("!"))).toEqual([]);
    expect(r.steps).toEqual([]);
  }, 120_000);
});

describe("recordCaptured", () => {
  test("records a flow that replays, and flags the step a recording could not perform with a TODO and the reason", async () => {
    project = tmpProject();
    const head = { name: "People", url: "${APP_URL}/codegen-people.html", startedAt: "2026-01-01T00:00:00Z" };
    const good: CodegenStep[] = [
      { key: "rules", text: 'Press the 2nd "Save" button' },
      { key: "assert", text: "page shows Saved the shipping address" },
    ];
    const goodPath = project.write("good.flow.yaml", renderFlow(head, good));
    const ok = await recordCaptured(goodPath, good, { APP_URL: server.url });
    expect(ok).toMatchObject({ record: { ok: true }, flagged: false });
    expect(existsSync(join(project.dir, "good.trace.jsonl"))).toBe(true);

    const bad: CodegenStep[] = [
      { key: "rules", text: 'Press the 2nd "Save" button' },
      { key: "rules", text: 'Press the "Archive" button' },
    ];
    const badPath = project.write("bad.flow.yaml", renderFlow(head, bad));
    const failed = await recordCaptured(badPath, bad, { APP_URL: server.url });
    expect(failed).toMatchObject({ record: { ok: false, trace_path: null }, flagged: true });
    expect(bad[0]!.todo).toBeUndefined();
    expect(bad[1]!.todo).toStartWith("record could not perform this step: ");
    expect(bad[1]!.todo).toContain("Archive");
  });

  test("reports a flow that cannot run at all (a variable unset) without flagging a step", async () => {
    project = tmpProject();
    const steps: CodegenStep[] = [{ key: "rules", text: 'Type ${PASSWORD} into the "Password" field' }];
    const path = project.write("s.flow.yaml", renderFlow({ name: "S", url: "${APP_URL}/codegen-sign-in.html", startedAt: "2026-01-01T00:00:00Z" }, steps));
    const r = await recordCaptured(path, steps, { APP_URL: server.url });
    expect(r.flagged).toBe(false);
    expect(r.record.ok).toBe(false);
    expect(r.record.error).toContain("PASSWORD");
  });
});
