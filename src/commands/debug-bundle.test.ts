import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVIDENCE_CSP, type AppDriver, type DebugSnapshot } from "../plugins/api.ts";
import type { StepResult } from "../engine/loop.ts";
import type { TraceStep } from "../trace/schema.ts";
import { captureDebug, didYouMean, pageErrors, suggestionFor, targetText } from "./debug-bundle.ts";

let dir = "";
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const step = (id: string, payload: { text: string; role?: string } | { css: string }): TraceStep => ({
  id,
  intent: `Click ${id}`,
  action: { type: "click", params: {} },
  selectors: ["css" in payload ? { tier: "native_id", provenance: "rules", payload } : { tier: "text_anchor", provenance: "rules", payload }],
  sync: { pre: [], post: [] },
  artifacts: {},
});
const result = (id: string, status: StepResult["status"], detail?: string): StepResult => ({
  id,
  intent: `Click ${id}`,
  status,
  started_ms: 0,
  duration_ms: 1,
  ...(detail ? { detail } : {}),
});
const driverWith = (snapshot: (redact?: (text: string) => string) => Promise<DebugSnapshot>) => ({ debugSnapshot: snapshot }) as unknown as AppDriver;

describe("targetText and didYouMean", () => {
  test("take the first text rung, and suggest only when the page lacks the text but has a near one", () => {
    expect(targetText(step("s1", { text: " Sing in ", role: "button" }))).toBe("Sing in");
    expect(targetText(step("s1", { css: "#x" }))).toBeUndefined();
    expect(didYouMean("Sing in", ["Password", "Sign in"])).toBe("Sign in");
    expect(didYouMean("Sign in", ["sign in"])).toBeUndefined();
    expect(didYouMean("Checkout", ["Password", "Sign in"])).toBeUndefined();
  });
});

describe("pageErrors", () => {
  const snap = (errors?: string[]): DebugSnapshot => ({ dom: "", console: ["[+0.1s] console.error: boom"], anchors: [], ...(errors ? { errors } : {}) });
  test("names the page's uncaught errors by the first one's first line, redacted; nothing when it threw none", () => {
    const secrets = new Map([["TOKEN", "tok-9f8e7d"]]);
    expect(pageErrors(snap(), secrets)).toBe("");
    expect(pageErrors(snap([]), secrets)).toBe("");
    expect(pageErrors(snap(["ReferenceError: process is not defined\n    at app.js:8:3075"]), secrets)).toBe(
      " — the page threw an uncaught error: ReferenceError: process is not defined",
    );
    const two = pageErrors(snap(["Error: bad tok-9f8e7d", "Error: again"]), secrets);
    expect(two).toBe(" — the page threw 2 uncaught errors; the first: Error: bad ${TOKEN}");
  });
});

describe("captureDebug", () => {
  test("writes the redacted DOM and console of the first failure and amends only its detail", async () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-debug-"));
    const secrets = new Map([["TOKEN", "tok-9f8e7d"]]);
    const snap: DebugSnapshot = { dom: "<p>tok-9f8e7d</p>", html: true, console: ["[+0.1s] console.log: sent tok-9f8e7d"], anchors: ["Sign in"] };
    const results = [result("s1", "passed"), result("s2", "failed", 'text "Sing in" matched nothing'), result("s3", "skipped")];
    const out = await captureDebug(
      driverWith(async () => snap),
      dir,
      [step("s1", { text: "Go" }), step("s2", { text: "Sing in" })],
      results,
      secrets,
    );
    expect(out[1]!.detail).toBe(`text "Sing in" matched nothing — did you mean 'Sign in'? (captured: debug/dom.html, debug/console.log)`);
    expect(out[0]).toEqual(results[0]!);
    expect(out[2]).toEqual(results[2]!);
    expect(readFileSync(join(dir, "debug", "dom.html"), "utf8")).toBe("<p>${TOKEN}</p>");
    expect(readFileSync(join(dir, "debug", "console.log"), "utf8")).toBe("[+0.1s] console.log: sent ${TOKEN}\n");
  });

  test("hands the surface the redaction to apply before it serialises the page, covering escaped forms", async () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-debug-"));
    const secrets = new Map([["TOKEN", `t&k<"9f8e7d"`]]);
    const snapshot = async (redact?: (text: string) => string): Promise<DebugSnapshot> => {
      const hide = redact ?? ((t: string) => t);
      // A surface escapes what the page holds only after redacting it.
      const text = hide(`sent t&k<"9f8e7d" as ${encodeURIComponent(`t&k<"9f8e7d"`)}`)
        .replace(/&(?!amp;)/g, "&amp;")
        .replace(/</g, "&lt;");
      return { dom: `<p>${text}</p>`, html: true, console: [hide(`log ${btoa(`t&k<"9f8e7d"`)}`)], anchors: [] };
    };
    await captureDebug(driverWith(snapshot), dir, [], [result("s1", "failed", "no")], secrets);
    expect(readFileSync(join(dir, "debug", "dom.html"), "utf8")).toBe("<p>sent ${TOKEN} as ${TOKEN}</p>");
    expect(readFileSync(join(dir, "debug", "console.log"), "utf8")).toBe("log ${TOKEN}\n");
  });

  test("a text snapshot (a desktop window's controls) is written escaped in a <pre> under the evidence policy, so no title of the app's runs", async () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-debug-"));
    const snap: DebugSnapshot = { dom: 'window "<img src=x onerror=go()> & tok-9f8e7d" (App)\n', console: [], anchors: [] };
    await captureDebug(
      driverWith(async () => snap),
      dir,
      [],
      [result("s1", "failed", "no")],
      new Map([["TOKEN", "tok-9f8e7d"]]),
    );
    expect(readFileSync(join(dir, "debug", "dom.html"), "utf8")).toBe(
      `<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Security-Policy" content="${EVIDENCE_CSP}"><meta charset="utf-8"><title>debug snapshot</title></head>` +
        '<body><pre>window "&lt;img src=x onerror=go()&gt; &amp; ${TOKEN}" (App)\n</pre></body></html>\n',
    );
  });

  test("leaves the results alone when nothing failed, the surface has no snapshot, or it cannot answer", async () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-debug-"));
    const passed = [result("s1", "passed")];
    let asked = 0;
    expect(
      await captureDebug(
        driverWith(async () => {
          asked++;
          return { dom: "", console: [], anchors: [] };
        }),
        dir,
        [],
        passed,
        new Map(),
      ),
    ).toEqual(passed);
    expect(asked).toBe(0);
    const failed = [result("s1", "errored", "driver fault")];
    expect(await captureDebug({} as AppDriver, dir, [], failed, new Map())).toEqual(failed);
    expect(
      await captureDebug(
        driverWith(async () => {
          throw new Error("page gone");
        }),
        dir,
        [],
        failed,
        new Map(),
      ),
    ).toEqual(failed);
    // A surface that refuses synchronously (a surface set whose active surface has no page).
    const refusing = {
      debugSnapshot: () => {
        throw new Error("surface `backend` cannot debugSnapshot");
      },
    } as unknown as AppDriver;
    expect(await captureDebug(refusing, dir, [], failed, new Map())).toEqual(failed);
    expect(await suggestionFor(refusing, step("s1", { text: "Sing in" }), new Map())).toBe("");
  });
});

describe("suggestionFor", () => {
  test("names the nearest text the page shows, redacted, or nothing", async () => {
    const driver = driverWith(async () => ({ dom: "", console: [], anchors: ["Sign in", "tok-9f8e7d"] }));
    expect(await suggestionFor(driver, step("s1", { text: "Sing in" }), new Map())).toBe(" — did you mean 'Sign in'?");
    expect(await suggestionFor(driver, step("s1", { text: "tok-9f8e7e" }), new Map([["TOKEN", "tok-9f8e7d"]]))).toBe(" — did you mean '${TOKEN}'?");
    expect(await suggestionFor(driver, step("s1", { css: "#x" }), new Map())).toBe("");
    expect(await suggestionFor({} as AppDriver, step("s1", { text: "Sing in" }), new Map())).toBe("");
  });
});
