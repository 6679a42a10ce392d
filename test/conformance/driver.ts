// The AppDriver conformance suite: every UI driver's *.conformance.test.ts calls
// runDriverConformance. The form cases (test/conformance/form.ts) run on every driver, against the
// same small form each surface offers; the web page cases run where a browser serves the fixture
// pages. Expected gaps are data, each with a reason, and must agree with the driver's declared
// capabilities (both ways).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AdapterSession, AppDriver, Capability, Selector } from "../../src/plugins/api.ts";
import { startServer, type TestServer } from "../support/server.ts";
import {
  declaredGap,
  FORM_CASES,
  gapProblems,
  runFormCase,
  type ConformanceArea,
  type Expectations,
  type FormIds,
  type FormRun,
  type OpenedForm,
} from "./form.ts";

export type { ConformanceArea } from "./form.ts";

export interface ConformanceOptions {
  readonly name: string;
  /** A driver showing the form fixture, opened afresh for each form case (in this process). */
  readonly launch?: () => Promise<OpenedForm>;
  /** Or: the form cases already run elsewhere (a Windows executable under Wine), with the driver's capabilities. */
  readonly ran?: () => Promise<FormRun>;
  /** The form's native ids on this surface. */
  readonly ids: FormIds;
  /** The web page cases' session (test/fixtures/pages): only a browser serves them. */
  readonly pages?: () => Promise<AdapterSession>;
  /** Behaviours this driver does not have, each with the reason (they must agree with its capabilities). */
  readonly expectations?: Expectations;
}

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const css = (c: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { css: c, ...extra } }];
const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];

export function runDriverConformance(options: ConformanceOptions): void {
  const expectations = options.expectations ?? {};
  let run: Promise<FormRun> | undefined;
  const ran = (): Promise<FormRun> => (run ??= options.ran!());
  const capabilities = async (): Promise<readonly Capability[]> => {
    if (options.ran) return (await ran()).capabilities;
    const opened = await options.launch!();
    try {
      return [...opened.driver.capabilities];
    } finally {
      await opened.close();
    }
  };

  describe(`${options.name} driver conformance`, () => {
    test("declared gaps agree with the declared capabilities, and every gap gives its reason", async () => {
      const problems = gapProblems(await capabilities(), expectations);
      if (!options.pages && expectations.pages === undefined) problems.push('the driver has no web pages and declares no gap "pages"');
      if (options.pages && expectations.pages !== undefined) problems.push('the driver has web pages but declares the gap "pages"');
      expect(problems).toEqual([]);
    }, 300_000);

    for (const c of FORM_CASES) {
      // A case in a declared gap runs too, and must fail: a gap that starts passing is reported.
      const gap = declaredGap(c, expectations);
      const name = gap ? `${c.name} (declared gap "${gap.area}": must fail)` : c.name;
      test(name, async () => {
        const outcome = options.ran ? (await ran()).outcomes[c.name] : await runFormCase(c, options.launch!, options.ids, expectations);
        expect(outcome).toEqual(gap ? { status: "gap", reason: gap.reason } : { status: "passed" });
      }, 300_000);
    }
  });

  if (options.pages) runPageCases(options.name, options.pages, expectations);
}

/** The web page cases (test/fixtures/pages): a browser's driver against real pages. */
function runPageCases(name: string, openSession: () => Promise<AdapterSession>, expectations: Expectations): void {
  let server: TestServer;
  let session: AdapterSession;
  let driver: AppDriver;
  const open = async (page: string) => {
    const r = await driver.navigate(`${server.url}/${page}`, 10_000);
    expect(r.ok).toBe(true);
  };
  const skipFor = (area: ConformanceArea) => expectations[area] !== undefined;

  describe(`${name} driver conformance: web pages`, () => {
    beforeAll(async () => {
      server = await startServer();
      session = await openSession();
      driver = await session.launch({}, { baseDir: process.cwd(), log: () => undefined });
    });
    afterAll(async () => {
      await driver?.close();
      await session?.close();
      server?.stop();
    });
    test.skipIf(skipFor("navigation"))("navigates, and reports an unreachable URL as a final failure", async () => {
      await open("greeter.html");
      expect((await driver.check([], { kind: "title", op: "contains", value: "" })).pass).toBe(true);
      const bad = await driver.navigate("http://127.0.0.1:9/unreachable", 5_000);
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.retryable).toBe(false);
    });

    test.skipIf(skipFor("pointer"))("clicks a target found by text and reports the rung that matched", async () => {
      await open("anchors.html");
      const r = await driver.click(text("Database"), { button: "left", clickCount: 1 });
      expect(r).toEqual({ ok: true, value: undefined, tier: "text_anchor" });
      expect((await driver.check(id("out"), { kind: "text_contains", text: "clicked Database" })).pass).toBe(true);
    });

    test.skipIf(skipFor("pointer"))("names the wait condition that fails: absent, disabled, covered", async () => {
      await open("form.html");
      const missing = await driver.click(text("No such button"), { button: "left", clickCount: 1 });
      expect(missing.ok ? "" : missing.failed).toBe("not-found");
      const disabled = await driver.click(text("Archive"), { button: "left", clickCount: 1 });
      expect(disabled.ok ? "" : disabled.failed).toBe("enabled");
      await open("overlay.html");
      const covered = await driver.click(text("Hidden buy"), { button: "left", clickCount: 1 });
      expect(covered.ok ? "" : covered.failed).toBe("receives-pointer");
      if (!covered.ok) {
        expect(covered.retryable).toBe(true);
        expect(covered.detail).toContain("#");
      }
    });

    test.skipIf(skipFor("pointer") || skipFor("scroll"))("scrolls a target below the fold into view before clicking", async () => {
      await open("below-fold.html");
      expect((await driver.click(text("Far away"), { button: "left", clickCount: 1 })).ok).toBe(true);
      expect((await driver.check([], { kind: "text_contains", text: "Far clicked" })).pass).toBe(true);
    });

    test.skipIf(skipFor("keyboard"))("fills (replacing), appends to the focused element, and clears", async () => {
      await open("greeter.html");
      expect((await driver.fill(text("Your name", { role: "field" }), "Ada")).ok).toBe(true);
      expect((await driver.fill(text("Your name", { role: "field" }), "Grace")).ok).toBe(true);
      expect(await driver.typeFocused(" H.")).toEqual({ ok: true, value: undefined });
      expect(await driver.readText(id("name"))).toEqual({ ok: true, value: "Grace H.", tier: "native_id" });
      expect((await driver.fill(id("name"), "")).ok).toBe(true);
      expect((await driver.check(id("name"), { kind: "empty", empty: true })).pass).toBe(true);
    });

    test.skipIf(skipFor("keyboard"))("refuses to type into a dropdown and says to use Select", async () => {
      await open("form.html");
      const r = await driver.fill(text("Role", { role: "field" }), "admin");
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.failed).toBe("editable");
        expect(r.detail).toContain("Select");
      }
    });

    test.skipIf(skipFor("keyboard"))("presses keys and chords as trusted input", async () => {
      await open("keys.html");
      expect((await driver.pressKey("v", ["ctrl"])).ok).toBe(true);
      expect((await driver.pressKey("Enter", [])).ok).toBe(true);
      expect((await driver.check(id("log"), { kind: "text_contains", text: "Control+v" })).pass).toBe(true);
      const unknown = await driver.pressKey("NoSuchKey", []);
      expect(unknown.ok).toBe(false);
    });

    test.skipIf(skipFor("select"))("selects by visible text or value and names the options when none matches", async () => {
      await open("form.html");
      expect((await driver.select(id("role"), ["Administrator"])).ok).toBe(true);
      expect((await driver.readText(id("role"))).ok && (await driver.readText(id("role")))).toMatchObject({ value: "Administrator" });
      expect((await driver.select(id("role"), ["editor"])).ok).toBe(true);
      const missing = await driver.select(id("role"), ["Owner"]);
      expect(missing.ok).toBe(false);
      if (!missing.ok) expect(missing.detail).toContain('"Viewer", "Editor", "Administrator"');
    });

    test.skipIf(skipFor("pointer"))("sets a checkbox, and leaves it alone when it is already in that state", async () => {
      await open("form.html");
      expect((await driver.setChecked(text("Remember me", { role: "checkbox" }), true)).ok).toBe(true);
      expect((await driver.check(id("remember"), { kind: "checked", checked: true })).pass).toBe(true);
      expect((await driver.setChecked(text("Remember me", { role: "checkbox" }), true)).ok).toBe(true);
      expect((await driver.check(id("remember"), { kind: "checked", checked: true })).pass).toBe(true);
      expect((await driver.setChecked(id("remember"), false)).ok).toBe(true);
      expect((await driver.check(id("remember"), { kind: "checked", checked: false })).pass).toBe(true);
      const notBox = await driver.setChecked(id("full-name"), true);
      expect(notBox.ok).toBe(false);
    });

    test("reads every expectation kind, passing and failing", async () => {
      await open("assertions.html");
      const cases: Array<[Selector[], Parameters<AppDriver["check"]>[1], boolean]> = [
        [[], { kind: "text_contains", text: "row", count: 3 }, true],
        [[], { kind: "text_contains", text: "row", count: 2 }, false],
        [[], { kind: "text_absent", text: "Disconnected" }, true],
        [[], { kind: "title", op: "equals", value: "Orders - Acme Admin" }, true],
        [[], { kind: "url", op: "equals", value: "/assertions.html" }, true],
        [[], { kind: "url", op: "contains", value: "assertions" }, true],
        [id("searchBox"), { kind: "text_contains", text: "prefilled" }, true],
        [id("balance"), { kind: "empty", empty: true }, true],
        [id("inner"), { kind: "visible", visible: false }, true],
        [id("inner"), { kind: "visible", visible: true }, false],
        [id("nothing-here"), { kind: "visible", visible: false }, true],
        [css("li.row"), { kind: "count", count: 3 }, true],
        [css(".gone"), { kind: "count", count: 0 }, true],
        [id("searchBox"), { kind: "enabled", enabled: true }, true],
      ];
      for (const [ladder, expectation, pass] of cases) {
        const reading = await driver.check(ladder, expectation);
        expect({ expectation, pass: reading.pass }).toEqual({ expectation, pass });
      }
      expect(await driver.count(css("li.row"))).toBe(3);
    });

    test("matches anchors by ordinal, placeholder, aria-label and case-insensitively", async () => {
      await open("anchors.html");
      expect((await driver.fill(text("Row value", { nth: 2, role: "field" }), "two")).ok).toBe(true);
      expect(await driver.readText(id("row-value-2"))).toMatchObject({ ok: true, value: "two" });
      expect((await driver.fill(text("Template name", { role: "field" }), "t")).ok).toBe(true);
      expect((await driver.click(text("Close Account"), { button: "left", clickCount: 1 })).ok).toBe(true);
      expect((await driver.check(id("out"), { kind: "text_contains", text: "clicked Close account" })).pass).toBe(true);
      expect((await driver.click(text("Search"), { button: "left", clickCount: 1 })).ok).toBe(true);
      expect((await driver.check(id("out"), { kind: "text_contains", text: "clicked Search" })).pass).toBe(true);
    });

    test.skipIf(skipFor("pointer") || skipFor("drag"))("drags with the button held, onto a drop target that must be actionable", async () => {
      await open("drag.html");
      expect(driver.drag).toBeDefined();
      expect((await driver.drag!(text("Alpha"), text("Gamma"))).ok).toBe(true);
      expect((await driver.check(id("order"), { kind: "text_contains", text: "Beta, Gamma, Alpha" })).pass).toBe(true);
      const missing = await driver.drag!(text("Card"), text("Nowhere at all"));
      expect(missing).toMatchObject({ ok: false, failed: "not-found" });
    });

    test.skipIf(skipFor("pointer") || skipFor("hover"))("hover fails while the target moves away from the pointer", async () => {
      await open("hover-moves.html");
      expect((await driver.hover(text("Settings"))).ok).toBe(true);
      expect(await driver.hover(text("Shy button"))).toMatchObject({ ok: false, failed: "receives-pointer" });
    });

    test.skipIf(skipFor("dialogs"))("answers an armed dialog as planned and reports it; fails an undeclared one", async () => {
      await open("dialogs.html");
      driver.armDialog!({ disposition: "accept", reply: "Zed" });
      expect((await driver.click(text("Rename"), { button: "left", clickCount: 1 })).ok).toBe(true);
      expect(driver.dialogOutcome!()).toEqual({ opened: true, type: "prompt", message: "New name?" });
      driver.armDialog!(undefined);
      expect((await driver.check(id("log"), { kind: "text_contains", text: "renamed to Zed" })).pass).toBe(true);
      expect(driver.dialogOutcome!()).toEqual({ opened: false });
      const undeclared = await driver.click(text("Notify"), { button: "left", clickCount: 1 });
      expect(undeclared).toMatchObject({ ok: false, failed: "dialog", retryable: false });
    });

    test("reads attributes exactly and styles canonically", async () => {
      await open("styled.html");
      const cases: Array<[Selector[], Parameters<AppDriver["check"]>[1], boolean]> = [
        [id("save"), { kind: "attribute", name: "DATA-STATE", value: "Ready", negate: false }, true],
        [id("save"), { kind: "attribute", name: "data-state", value: "ready", negate: false }, false],
        [id("save"), { kind: "attribute", name: "data-missing", value: "x", negate: true }, true],
        [id("send"), { kind: "attribute_present", name: "disabled", present: true }, true],
        [id("warn"), { kind: "style", prop: "color", value: "#f00", negate: false }, true],
        [id("warn"), { kind: "style", prop: "background-color", value: "lightyellow", negate: false }, true],
        [id("shout"), { kind: "style", prop: "text-transform", value: "uppercase", negate: false }, true],
        [id("shout"), { kind: "style", prop: "color", value: "green", negate: false }, false],
      ];
      for (const [ladder, expectation, pass] of cases) {
        const reading = await driver.check(ladder, expectation);
        expect({ expectation, pass: reading.pass }).toEqual({ expectation, pass });
      }
    });

    test.skipIf(skipFor("cookies"))("states cookie facts and names the cookies set when one is missing", async () => {
      server.setRoute("/cookie-jar.html", () => {
        const headers = new Headers({ "content-type": "text/html" });
        headers.append("set-cookie", "sid=v; Path=/; HttpOnly");
        headers.append("set-cookie", "keep=1; Path=/; Max-Age=600");
        return new Response("<p>jar</p>", { headers });
      });
      await open("cookie-jar.html");
      expect((await driver.check([], { kind: "cookie", name: "sid", fact: "http_only" })).pass).toBe(true);
      expect((await driver.check([], { kind: "cookie", name: "keep", fact: "persistent" })).pass).toBe(true);
      expect((await driver.check([], { kind: "cookie", name: "sid", fact: "persistent" })).pass).toBe(false);
      const missing = await driver.check([], { kind: "cookie", name: "sidd", fact: "exists" });
      expect(missing.actual).toContain("cookies set: keep, sid");
    });

    test("reports the environment recorded into trace headers", async () => {
      const env = await driver.environment();
      expect(env.os).toBe(process.platform);
      expect(env.resolution[0]).toBeGreaterThan(0);
    });
  });
}
