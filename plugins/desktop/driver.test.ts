import { describe, expect, test } from "bun:test";
import type { Expectation, Selector } from "../../src/plugins/api.ts";
import type { Found } from "./backend.ts";
import { DesktopDriver } from "./driver.ts";
import type { DesktopElement } from "./element.ts";
import { FakeSurface, fakeElement, type FakeElement } from "./fake.ts";

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];
const LEFT = { button: "left", clickCount: 1 } as const;

function form(extra: FakeElement[] = []) {
  const surface = new FakeSurface();
  const status = fakeElement({ ref: "status", name: "Ready", controlType: "text", automationId: "status" });
  const main = surface.addWindow("Orders", [
    fakeElement({ ref: "l1", name: "Name:", controlType: "text" }),
    fakeElement({ ref: "name", name: "", controlType: "edit", automationId: "name", value: "", rect: { x: 110, y: 60, width: 100, height: 20 } }),
    fakeElement({
      ref: "pw",
      name: "",
      controlType: "edit",
      automationId: "pw",
      password: true,
      label: "Password",
      rect: { x: 110, y: 90, width: 100, height: 20 },
    }),
    fakeElement({
      ref: "save",
      name: "&Save",
      controlType: "button",
      automationId: "save",
      tooltip: "Save the order",
      onClick: () => {
        status.name = "Saved row 1, row 2, ROW 3";
      },
    }),
    status,
    ...extra,
  ]);
  const driver = new DesktopDriver({ surface, backend: surface.backend, sleep: async () => undefined });
  return { surface, main, driver, status };
}

describe("DesktopDriver: the whole-surface text check, one rule on every desktop surface", () => {
  test("page shows matches as written, else ignoring case; white space collapses", async () => {
    const { driver } = form();
    await driver.click(text("Save"), LEFT);
    expect((await driver.check([], { kind: "text_contains", text: "Saved row 1" })).pass).toBe(true);
    expect((await driver.check([], { kind: "text_contains", text: "saved   ROW 1" })).pass).toBe(true);
    expect((await driver.check([], { kind: "text_absent", text: "SAVED" })).pass).toBe(false);
    expect((await driver.check([], { kind: "text_absent", text: "Deleted" })).pass).toBe(true);
  });

  test("page shows N times counts: as written, else ignoring case; another count fails naming what was seen", async () => {
    const { driver } = form();
    await driver.click(text("Save"), LEFT);
    expect((await driver.check([], { kind: "text_contains", text: "row", count: 2 })).pass).toBe(true);
    expect((await driver.check([], { kind: "text_contains", text: "row", count: 3 })).pass).toBe(true);
    const red = await driver.check([], { kind: "text_contains", text: "row", count: 4 });
    expect(red.pass).toBe(false);
    expect(red.actual).toStartWith("2 times in ");
  });

  test("the page text holds tooltips but never a password's value", async () => {
    const { driver, main } = form();
    main.elements[2]!.value = "s3cret";
    expect((await driver.check([], { kind: "text_contains", text: "Save the order" })).pass).toBe(true);
    expect((await driver.check([], { kind: "text_contains", text: "s3cret" })).pass).toBe(false);
  });
});

describe("DesktopDriver: resolution", () => {
  test("a miss names the closest id when it looks like a typo, and the nearest texts", async () => {
    const { driver } = form();
    const r = await driver.click(id("sav"), LEFT);
    expect(r).toMatchObject({ ok: false, failed: "not-found", retryable: true });
    expect(r.ok ? "" : r.detail).toBe(
      'no control in "Orders" matches "sav"; did you mean "save"?; nearest texts it shows: "Save", "Save the order", "Name", "Ready", "Password"',
    );
  });

  test("a css target is refused naming how the surface names a control", async () => {
    const { driver } = form();
    expect(await driver.click([{ tier: "native_id", provenance: "rules", payload: { css: "#x" } }], LEFT)).toEqual({
      ok: false,
      failed: "unsupported",
      detail: "a css selector cannot be used on the fake app: it has no CSS selectors; a control is named by `id:<id>` or its label",
      retryable: false,
    });
  });

  test("the recorded ladder leads with the live control's id under the surface's key, then its type and name", async () => {
    const { driver } = form();
    expect((await driver.click(text("Save the order"), LEFT)).ok).toBe(true);
    expect(await driver.recordedLadder(text("Save the order"))).toEqual([
      { tier: "native_id", provenance: "recorder", payload: { id: "save", name: "Save" } },
      { tier: "structural", provenance: "recorder", confidence: 0.7, payload: { control_type: "button", name: "Save" } },
      ...text("Save the order"),
    ]);
  });

  test("a table cell keeps the step's own ladder: its id would pin a row position", async () => {
    const cell = (ref: string, name: string, row: number, column: string) =>
      fakeElement({ ref, name: "", value: name, controlType: "edit", automationId: ref, cell: { table: "t", row, column } });
    const { driver } = form([cell("c00", "Pump", 0, "Description"), cell("c01", "P-100", 0, "Material")]);
    const ladder: Selector[] = [{ tier: "structural", provenance: "rules", payload: { kind: "cell", column_text: "Material", row_anchor: "Pump" } }];
    expect(await driver.readText(ladder)).toMatchObject({ ok: true, value: "P-100" });
    expect(await driver.recordedLadder(ladder)).toBeUndefined();
  });

  test("a dialog over the main window is searched first; once the main window is gone, every step says so", async () => {
    const { surface, driver } = form();
    surface.addWindow("Confirm", [fakeElement({ ref: "ok", name: "Save", controlType: "button" })]);
    expect(await driver.click(text("Save"), LEFT)).toMatchObject({ ok: true });
    expect(surface.log).toEqual(["click ok left 1"]);
    surface.windowList.length = 0;
    expect(await driver.click(text("Save"), LEFT)).toEqual({ ok: false, failed: "not-found", detail: 'the window "Fake" is gone', retryable: false });
    expect(await driver.check([], { kind: "title", op: "equals", value: "Orders" })).toMatchObject({ pass: false, retryable: false });
    expect(await driver.count(text("Save"))).toBe(0);
    await driver.untilClosed();
  });
});

describe("DesktopDriver: masks", () => {
  test("password fields always, secret-typed fields too, controls showing a text; relative to the frame; css is no desktop rule", async () => {
    const { surface, driver } = form();
    surface.origin = { x: 100, y: 50 };
    expect((await driver.fill(text("Name", { role: "field" }), "Ada", { secret: true })).ok).toBe(true);
    const [password, secret, shown, css] = await driver.rectsFor([
      { passwordFields: true },
      { secretFields: true },
      { text: "Ada" },
      { css: "input[type=password i]" },
    ]);
    expect(password).toEqual({ ok: true, rects: [{ x: 10, y: 40, width: 100, height: 20 }] });
    expect(secret).toEqual({
      ok: true,
      rects: [
        { x: 10, y: 10, width: 100, height: 20 },
        { x: 10, y: 40, width: 100, height: 20 },
      ],
    });
    expect(shown).toEqual({ ok: true, rects: [{ x: 10, y: 10, width: 100, height: 20 }] });
    expect(css).toMatchObject({ ok: false });
    // Other text typed into the field unmasks it.
    expect((await driver.fill(text("Name", { role: "field" }), "Grace")).ok).toBe(true);
    expect((await driver.rectsFor([{ secretFields: true }]))[0]).toEqual({ ok: true, rects: [{ x: 10, y: 40, width: 100, height: 20 }] });
    // A secret of the run is masked wherever a control shows it, in any letter case, typed here or not.
    expect(await driver.rectsFor([{ secretText: ["GRACE"] }, { secretText: ["nobody"] }])).toEqual([
      { ok: true, rects: [{ x: 10, y: 10, width: 100, height: 20 }] },
      { ok: true, rects: [] },
    ]);
  });
});

describe("DesktopDriver: reads and the rest", () => {
  test("readText never reads a password; check kinds green and red; the surface's address and messages", async () => {
    const { surface, driver } = form([
      fakeElement({ ref: "box", name: "Express", controlType: "checkbox", checked: false }),
      fakeElement({ ref: "total", name: "Total 1,234.5", controlType: "text", automationId: "total" }),
    ]);
    surface.address = "transaction VA01";
    surface.reported.push("S: Order saved");
    expect(await driver.readText(text("Password", { role: "field" }))).toEqual({
      ok: false,
      failed: "unsupported",
      detail: "a password field is never read",
      retryable: false,
    });
    expect(await driver.check(text("Express"), { kind: "checked", checked: false })).toMatchObject({ pass: true });
    expect(await driver.check(text("Save"), { kind: "checked", checked: true })).toMatchObject({ pass: false, retryable: false });
    expect(await driver.check(id("total"), { kind: "numeric_equals", value: 1234.5 })).toMatchObject({ pass: true });
    expect(await driver.check(id("name"), { kind: "empty", empty: true })).toMatchObject({ pass: true });
    expect(await driver.check(id("status"), { kind: "text_contains", text: "READY" })).toMatchObject({ pass: true });
    expect(await driver.check(id("nope"), { kind: "visible", visible: false })).toMatchObject({ pass: true });
    expect(await driver.check(text("Save"), { kind: "count", count: 1 })).toMatchObject({ pass: true });
    expect(await driver.check(id("save"), { kind: "style", prop: "color", value: "red", negate: false })).toMatchObject({ pass: false, retryable: false });
    expect(await driver.check([], { kind: "url", op: "contains", value: "VA01" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "title", op: "equals", value: "Orders" })).toMatchObject({ pass: true, actual: 'titled "Orders"' });
    expect((await driver.debugSnapshot((t) => t.replace("Order", "[x]"))).console).toEqual(["S: [x] saved"]);
    expect((await driver.scene()).entries.find((e) => e.target === "id:save")).toMatchObject({ text: "Save", label: "Save the order" });
    expect(await driver.environment()).toEqual({ os: "fake", resolution: [800, 600] });
    await driver.close();
    await driver.close();
    expect(surface.log.filter((l) => l === "close")).toHaveLength(1);
  });

  test("typing into what has focus appends, and a secret typed so is masked", async () => {
    const { surface, driver, main } = form();
    await surface.backend.focus(main.elements[1]!);
    expect(await driver.typeFocused("Ada", { secret: true })).toEqual({ ok: true, value: undefined });
    expect(main.elements[1]!.value).toBe("Ada");
    expect((await driver.rectsFor([{ secretFields: true }]))[0]).toMatchObject({ ok: true, rects: [expect.any(Object), expect.any(Object)] });
  });
});

describe("DesktopDriver: a backend's own rules (the extension points a text-read backend uses)", () => {
  function hooked(extra: FakeElement[] = []) {
    const surface = new FakeSurface();
    surface.addWindow("Read", [
      ...extra,
      fakeElement({ ref: "a", name: "", value: "Saved ACME Ltd", controlType: "text", rect: { x: 10, y: 20, width: 90, height: 12 } }),
      fakeElement({ ref: "b", name: "", value: "Save", controlType: "text", rect: { x: 10, y: 40, width: 30, height: 12 } }),
    ]);
    const calls: string[] = [];
    let still = false;
    const backend = {
      ...surface.backend,
      // A line names a text when it starts with it (whole words); a made element stands for the words.
      matchRung: (elements: readonly DesktopElement[], rung: Selector) => {
        const want = (rung.payload as { text?: string }).text;
        if (want === undefined) return undefined;
        if (want === "Nowhere") return { ok: false as const, failed: "not-found" as const, detail: "a field label without a field", retryable: true };
        return elements
          .filter((e) => (e.value ?? "").split(" ").slice(0, want.split(" ").length).join(" ") === want)
          .map((e) => ({ ...e, ref: `${e.ref}:${want}` }));
      },
      missed: (ladder: readonly Selector[]) => ({
        ok: false as const,
        failed: "not-found" as const,
        detail: `no text ${JSON.stringify((ladder[0]!.payload as { text: string }).text)} (recorded at 1,2)`,
        retryable: true,
      }),
      ready: async (f: Found) => {
        calls.push(`ready ${f.el.ref}`);
        return still ? undefined : { ok: false as const, failed: "stable" as const, detail: "still changing", retryable: true };
      },
      recordedRungs: (f: Found): Selector[] => [{ tier: "text_anchor", provenance: "recorder", payload: { text: f.el.value ?? "", box: { ...f.el.rect } } }],
      reads: new Set<Expectation["kind"]>(["text_contains", "visible"]),
      secretRects: async (t: { readonly typed: true } | { readonly shown: readonly string[] }) =>
        "typed" in t ? [{ x: 1, y: 1, width: 5, height: 5 }] : [{ x: 2, y: 2, width: 6, height: 6 }],
      shownText: () => "Saved ACME Ltd\nSave",
      describe: (el: DesktopElement) => `line ${JSON.stringify(el.value)}`,
    };
    const driver = new DesktopDriver({ surface, backend, sleep: async () => undefined });
    return { surface, driver, calls, settle: () => (still = true) };
  }

  test("resolution, counts and misses go through the backend's rule; an act waits for the backend's ready", async () => {
    const { surface, driver, calls, settle } = hooked();
    expect(await driver.count(text("Save"))).toBe(1);
    expect(await driver.count(text("Saved"))).toBe(1);
    expect(await driver.readText(text("Saved"))).toEqual({ ok: true, value: "Saved ACME Ltd", tier: "text_anchor" });
    expect(await driver.click(text("Save"), LEFT)).toMatchObject({ ok: false, failed: "stable" });
    expect(surface.log).toEqual([]);
    settle();
    expect(await driver.click(text("Save"), LEFT)).toMatchObject({ ok: true });
    expect(calls).toEqual(["ready b:Save", "ready b:Save"]);
    expect(surface.log).toEqual(["click b:Save left 1"]);
    expect(await driver.recordedLadder(text("Save"))).toEqual([
      { tier: "text_anchor", provenance: "recorder", payload: { text: "Save", box: { x: 10, y: 40, width: 30, height: 12 } } },
      ...text("Save"),
    ]);
    expect(await driver.click(text("Gone"), LEFT)).toEqual({ ok: false, failed: "not-found", detail: 'no text "Gone" (recorded at 1,2)', retryable: true });
    expect(await driver.click(text("Nowhere"), LEFT)).toMatchObject({ ok: false, detail: "a field label without a field" });
  });

  test("an ambiguity names each control the backend's way", async () => {
    const { driver } = hooked([fakeElement({ ref: "c", name: "", value: "Saved again", controlType: "text", rect: { x: 10, y: 60, width: 60, height: 12 } })]);
    expect(await driver.click(text("Saved"), LEFT)).toMatchObject({
      ok: false,
      failed: "ambiguous",
      detail: expect.stringMatching(/^2 controls match: line "Saved again" at 10,60; line "Saved ACME Ltd" at 10,20; name one with an ordinal/),
    });
  });

  test("checks it cannot read are refused for good; page text, masks come from the backend", async () => {
    const { driver } = hooked();
    expect(await driver.check(text("Save"), { kind: "enabled", enabled: true })).toMatchObject({ pass: false, retryable: false });
    expect(await driver.check(text("Saved"), { kind: "text_contains", text: "ACME" })).toMatchObject({ pass: true });
    expect(await driver.check([], { kind: "text_contains", text: "Read" })).toMatchObject({ pass: false });
    expect(await driver.rectsFor([{ secretFields: true }, { secretText: ["x"] }, { passwordFields: true }])).toEqual([
      { ok: true, rects: [{ x: 1, y: 1, width: 5, height: 5 }] },
      { ok: true, rects: [{ x: 2, y: 2, width: 6, height: 6 }] },
      { ok: true, rects: [] },
    ]);
  });
});
