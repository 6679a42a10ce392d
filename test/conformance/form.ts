// The form cases of the driver conformance suite: what every UI driver does with one small form
// that each surface offers under the same names (test/fixtures/pages/fixture-form.html for a
// browser, test/fixtures/win32/fixture.c for Windows, transaction ZFORM of the SAP GUI fakes:
// plugins/sap/fake-engine.ts and test/fixtures/sap/mocksap.c). The cases are data with plain
// assertions (no bun:test), so they also run inside a Windows executable under Wine, where the
// surface is real and bun:test is not there.
import type { AppDriver, Capability, Selector } from "../../src/plugins/api.ts";

/**
 * What the form shows, on every surface: the window (page) title; `Name:`, `Email:` and
 * `Password:` fields with their labels; a `Subscribe` check box; a `Country:` dropdown (Belgium,
 * France, Germany); a `Greet` button that writes `Hello, <name>!` into the greeting (which starts
 * as `Waiting`) and `Greeted` into the status (which starts as `Ready`); a disabled `Disabled`
 * button.
 */
export const FORM_TITLE = "Flowproof Fixture";
export const COUNTRIES = ["Belgium", "France", "Germany"] as const;

/** The native ids (`id:<…>`) of the form's controls on one surface. */
export interface FormIds {
  readonly name: string;
  readonly greeting: string;
}

/** Behaviours a driver may lack, each tied to the capability that says so (or to none). */
export const CONFORMANCE_AREAS = {
  pointer: { capability: "pointer", what: "clicking and pressing named controls" },
  keyboard: { capability: "keyboard", what: "typing and keys" },
  navigation: { capability: "navigation", what: "going to an address" },
  select: { capability: "select", what: "choosing dropdown entries" },
  dialogs: { capability: "dialogs", what: "answering native dialogs" },
  cookies: { capability: "cookies", what: "cookie facts" },
  screenshot: { capability: "screenshot", what: "frames and the rectangles masked in them" },
  hover: { capability: "hover", what: "hovering the pointer over a target" },
  drag: { capability: "drag", what: "dragging with the button held" },
  scroll: { capability: "scroll", what: "scrolling a target into view" },
  pages: { capability: undefined, what: "web pages served to a browser (anchors, overlays, scrolling, drag, hover, styles, keys)" },
  "unread-passwords": { capability: undefined, what: "refusing to read a password field's value" },
  "native-ids": { capability: undefined, what: "naming a control by its native id (`id:<…>`)" },
  "control-states": { capability: undefined, what: "reading a control's state (enabled, checked) and refusing by it" },
  "password-masks": { capability: undefined, what: "knowing which fields are passwords, to mask them before anything is typed" },
} as const satisfies Record<string, { readonly capability: Capability | undefined; readonly what: string }>;

export type ConformanceArea = keyof typeof CONFORMANCE_AREAS;
/** Expected gaps: each area a driver lacks, with the reason. */
export type Expectations = Readonly<Partial<Record<ConformanceArea, string>>>;

/**
 * Where declared gaps and declared capabilities disagree: a gap for an area whose capability the
 * driver declares, a capability-backed area the driver lacks without a declared gap, a gap without
 * a reason. Empty when they agree.
 */
export function gapProblems(capabilities: ReadonlySet<Capability> | readonly Capability[], expectations: Expectations): string[] {
  const has = new Set(capabilities);
  const problems: string[] = [];
  for (const [area, { capability }] of Object.entries(CONFORMANCE_AREAS) as [ConformanceArea, (typeof CONFORMANCE_AREAS)[ConformanceArea]][]) {
    const reason = expectations[area];
    if (reason !== undefined && reason.trim() === "") problems.push(`the gap "${area}" gives no reason`);
    if (capability === undefined) continue;
    if (reason !== undefined && has.has(capability)) problems.push(`the gap "${area}" is declared, but the driver declares the capability "${capability}"`);
    if (reason === undefined && !has.has(capability)) problems.push(`the driver lacks the capability "${capability}" but declares no gap "${area}"`);
  }
  return problems;
}

/** A case's assertion failed: what was expected and what was seen. */
export class ConformanceFailure extends Error {
  override readonly name = "ConformanceFailure";
}

/** Fails the case unless `actual` deeply equals `expected`. */
function same(actual: unknown, expected: unknown, what: string): void {
  if (!Bun.deepEquals(actual, expected)) throw new ConformanceFailure(`${what}: expected ${Bun.inspect(expected)}, got ${Bun.inspect(actual)}`);
}

/** Fails the case unless `actual` holds every key of `expected` with an equal value. */
function like(actual: unknown, expected: Readonly<Record<string, unknown>>, what: string): void {
  const seen = typeof actual === "object" && actual !== null ? (actual as Record<string, unknown>) : {};
  for (const [k, v] of Object.entries(expected)) {
    if (!Bun.deepEquals(seen[k], v)) throw new ConformanceFailure(`${what}: expected ${k} ${Bun.inspect(v)} in ${Bun.inspect(actual)}`);
  }
}

const text = (t: string, extra: Record<string, unknown> = {}): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: t, ...extra } }];
const id = (i: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: i } }];
const LEFT = { button: "left", clickCount: 1 } as const;
type Expect = [Selector[], Parameters<AppDriver["check"]>[1], boolean];
/** Fails the case at the first expectation whose outcome is not the one given. */
async function expectAll(d: AppDriver, cases: readonly Expect[]): Promise<void> {
  for (const [ladder, expectation, pass] of cases)
    same((await d.check(ladder, expectation)).pass, pass, `${JSON.stringify(ladder.map((r) => r.payload))} ${JSON.stringify(expectation)}`);
}
const passes = async (d: AppDriver, ladder: Selector[], expectation: Parameters<AppDriver["check"]>[1]) => (await d.check(ladder, expectation)).pass;

export interface FormCase {
  readonly name: string;
  /** The behaviour it needs beyond the form's own (when the driver declares that gap, the case must fail). */
  readonly area?: ConformanceArea;
  /** Further behaviours it needs (a gap declared for any of them makes the case one that must fail). */
  readonly alsoNeeds?: readonly ConformanceArea[];
  run(driver: AppDriver, ids: FormIds): Promise<void>;
}

/** The first of the case's areas the driver declares a gap for, with the reason; undefined when none. */
export function declaredGap(c: FormCase, expectations: Expectations): { readonly area: ConformanceArea; readonly reason: string } | undefined {
  for (const area of [...(c.area ? [c.area] : []), ...(c.alsoNeeds ?? [])]) {
    const reason = expectations[area];
    if (reason !== undefined) return { area, reason };
  }
  return undefined;
}

/** The cases, in the order they run; each on a freshly opened form. */
export const FORM_CASES: readonly FormCase[] = [
  {
    name: "types into a field found by its label, replacing what it held, and reads it back by its label",
    area: "keyboard",
    async run(d) {
      const name = text("Name", { role: "field" });
      like(await d.fill(name, "Ada"), { ok: true }, "the first fill");
      like(await d.fill(name, "Grace"), { ok: true }, "the second fill");
      like(await d.readText(name), { ok: true, value: "Grace" }, "the field read back by its label");
    },
  },
  {
    name: "reads a field back by its native id, and empties it by that id",
    area: "keyboard",
    alsoNeeds: ["native-ids"],
    async run(d, ids) {
      like(await d.fill(text("Name", { role: "field" }), "Grace"), { ok: true }, "the fill");
      same(await d.readText(id(ids.name)), { ok: true, value: "Grace", tier: "native_id" }, "the field read back");
      like(await d.fill(id(ids.name), ""), { ok: true }, "the emptying fill");
      same(await passes(d, id(ids.name), { kind: "empty", empty: true }), true, "the field is empty");
    },
  },
  {
    name: "presses a button found by its text, reports the rung that matched, and shows its effect",
    async run(d) {
      like(await d.fill(text("Name", { role: "field" }), "Ada"), { ok: true }, "the fill");
      same(await d.click(text("Greet"), LEFT), { ok: true, value: undefined, tier: "text_anchor" }, "the click");
      same(await passes(d, [], { kind: "text_contains", text: "Hello, Ada!" }), true, "the surface shows the greeting");
      same(await passes(d, [], { kind: "text_contains", text: "Greeted" }), true, "the surface shows the new status");
      same(await passes(d, [], { kind: "text_absent", text: "Waiting" }), true, "the surface no longer shows the old greeting");
    },
  },
  {
    name: "reads what a button changed in a control named by its native id",
    alsoNeeds: ["native-ids"],
    async run(d, ids) {
      like(await d.fill(text("Name", { role: "field" }), "Ada"), { ok: true }, "the fill");
      like(await d.click(text("Greet"), LEFT), { ok: true }, "the click");
      same(await passes(d, id(ids.greeting), { kind: "text_contains", text: "Hello, Ada!" }), true, "the greeting shows the name");
    },
  },
  {
    name: "names the wait condition that fails: an absent control (retryable), a disabled one",
    alsoNeeds: ["control-states"],
    async run(d) {
      like(await d.click(text("No such button"), LEFT), { ok: false, failed: "not-found", retryable: true }, "an absent button");
      like(await d.click(text("Disabled"), LEFT), { ok: false, failed: "enabled" }, "a disabled button");
    },
  },
  {
    name: "sets a check box, leaves it alone when it is already in that state, and refuses a control that is none",
    alsoNeeds: ["control-states"],
    async run(d, ids) {
      like(await d.setChecked(text("Subscribe", { role: "checkbox" }), true), { ok: true }, "checking");
      same(await passes(d, text("Subscribe", { role: "checkbox" }), { kind: "checked", checked: true }), true, "checked");
      like(await d.setChecked(text("Subscribe", { role: "checkbox" }), true), { ok: true }, "checking again");
      like(await d.setChecked(text("Subscribe", { role: "checkbox" }), false), { ok: true }, "unchecking");
      same(await passes(d, text("Subscribe", { role: "checkbox" }), { kind: "checked", checked: false }), true, "unchecked");
      like(await d.setChecked(id(ids.name), true), { ok: false }, "checking a field");
    },
  },
  {
    name: "chooses a dropdown entry by its text and names the entries when none matches",
    area: "select",
    async run(d) {
      like(await d.select(text("Country", { role: "dropdown" }), ["France"]), { ok: true }, "the choice");
      like(await d.readText(text("Country", { role: "dropdown" })), { ok: true, value: "France" }, "the dropdown read back");
      const missing = await d.select(text("Country", { role: "dropdown" }), ["Spain"]);
      like(missing, { ok: false }, "an unknown entry");
      const detail = missing.ok ? "" : missing.detail;
      if (!detail.includes(COUNTRIES.map((c) => JSON.stringify(c)).join(", ")))
        throw new ConformanceFailure(`an unknown entry names the entries: got ${JSON.stringify(detail)}`);
    },
  },
  {
    name: "reads the expectations every surface answers by text, passing and failing, by one rule for text (as written, else ignoring case)",
    async run(d) {
      await expectAll(d, [
        [[], { kind: "title", op: "equals", value: FORM_TITLE }, true],
        [[], { kind: "title", op: "contains", value: "Fixture" }, true],
        [[], { kind: "title", op: "equals", value: "Fixture" }, false],
        [[], { kind: "text_contains", text: "Ready" }, true],
        [[], { kind: "text_contains", text: "READY" }, true],
        [[], { kind: "text_contains", text: "Greet", count: 1 }, true],
        [[], { kind: "text_contains", text: "greet", count: 1 }, true],
        [[], { kind: "text_contains", text: "Greet", count: 2 }, false],
        [[], { kind: "text_absent", text: "Disconnected" }, true],
        [[], { kind: "text_absent", text: "waiting" }, false],
        [text("No such control"), { kind: "visible", visible: false }, true],
        [text("Greet"), { kind: "visible", visible: true }, true],
        [text("Greet"), { kind: "count", count: 1 }, true],
      ]);
      same(await d.count(text("Greet")), 1, "the count of Greet");
    },
  },
  {
    name: "reads the expectations of a control named by its native id, by the same rule for text",
    alsoNeeds: ["native-ids"],
    async run(d, ids) {
      await expectAll(d, [
        [id(ids.greeting), { kind: "text_contains", text: "Waiting" }, true],
        [id(ids.greeting), { kind: "text_contains", text: "waiting" }, true],
        [id(ids.greeting), { kind: "text_contains", text: "Hello" }, false],
        [id(ids.name), { kind: "empty", empty: true }, true],
        [id(ids.name), { kind: "visible", visible: true }, true],
      ]);
    },
  },
  {
    name: "reads the state of a control: enabled, disabled, unchecked",
    alsoNeeds: ["control-states"],
    async run(d) {
      await expectAll(d, [
        [text("Disabled"), { kind: "enabled", enabled: false }, true],
        [text("Greet"), { kind: "enabled", enabled: true }, true],
        [text("Subscribe", { role: "checkbox" }), { kind: "checked", checked: false }, true],
      ]);
    },
  },
  {
    name: "matches labels in any case and by ordinal",
    async run(d) {
      like(await d.click(text("greet"), LEFT), { ok: true }, "a label in another case");
      like(await d.click(text("Greet", { nth: 1 }), LEFT), { ok: true }, "the 1st Greet");
      like(await d.click(text("Greet", { nth: 2 }), LEFT), { ok: false, failed: "not-found" }, "the 2nd Greet");
    },
  },
  {
    name: "reads a control by its native id; a missing native id is not found",
    alsoNeeds: ["native-ids"],
    async run(d, ids) {
      like(await d.readText(id(ids.greeting)), { ok: true }, "the greeting by its id");
      like(await d.fill(id("no-such-id"), "x"), { ok: false, failed: "not-found" }, "a missing id");
    },
  },
  {
    name: "never reads a password field's value",
    area: "unread-passwords",
    async run(d) {
      like(await d.fill(text("Password", { role: "field" }), "canary-Pw-5150", { secret: true }), { ok: true }, "typing the password");
      like(await d.readText(text("Password", { role: "field" })), { ok: false }, "reading the password");
    },
  },
  {
    name: "never shows a password field's value, and masks it in every frame",
    alsoNeeds: ["password-masks"],
    area: "screenshot",
    async run(d) {
      const secret = "canary-Pw-5150";
      like(await d.fill(text("Password", { role: "field" }), secret, { secret: true }), { ok: true }, "typing the password");
      same(await passes(d, [], { kind: "text_contains", text: secret }), false, "the surface shows the password");
      const [passwords, secrets] = await d.rectsFor!([{ passwordFields: true }, { secretFields: true }]);
      if (!passwords?.ok || passwords.rects.length < 1) throw new ConformanceFailure(`the password field is masked: got ${Bun.inspect(passwords)}`);
      if (!secrets?.ok || secrets.rects.length < 1) throw new ConformanceFailure(`the field a secret was typed into is masked: got ${Bun.inspect(secrets)}`);
      if (d.scene && JSON.stringify(await d.scene()).includes(secret)) throw new ConformanceFailure("the scene holds the password");
      if (d.debugSnapshot && JSON.stringify(await d.debugSnapshot()).includes(secret)) throw new ConformanceFailure("the debug snapshot holds the password");
    },
  },
  {
    name: "reports the environment recorded into trace headers",
    async run(d) {
      const env = await d.environment();
      if (env.os === "" || !(env.resolution[0] > 0) || !(env.resolution[1] > 0))
        throw new ConformanceFailure(`an OS and a resolution: got ${Bun.inspect(env)}`);
    },
  },
];

/** A driver showing the form, and how to close it. */
export interface OpenedForm {
  readonly driver: AppDriver;
  close(): Promise<void>;
}

/**
 * One case's outcome. `gap`: the driver declares a gap for the case's area and the case failed, as
 * declared. A declared gap whose case passes is `failed`: the declaration (or the capability) is wrong.
 */
export type CaseOutcome =
  | { readonly status: "passed" }
  | { readonly status: "gap"; readonly reason: string }
  | { readonly status: "failed"; readonly detail: string };

/** One case on a freshly opened form: its outcome. A case in a declared gap still runs, and must fail. */
export async function runFormCase(c: FormCase, open: () => Promise<OpenedForm>, ids: FormIds, expectations: Expectations = {}): Promise<CaseOutcome> {
  const declared = declaredGap(c, expectations);
  const gap = declared?.reason;
  let opened: OpenedForm | undefined;
  let failure: string | undefined;
  try {
    opened = await open();
    await c.run(opened.driver, ids);
  } catch (error) {
    failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } finally {
    await opened?.close().catch(() => undefined);
  }
  if (gap === undefined) return failure === undefined ? { status: "passed" } : { status: "failed", detail: failure };
  if (failure !== undefined) return { status: "gap", reason: gap };
  return {
    status: "failed",
    detail: `the driver declares the gap "${declared?.area}" (${gap}), but the case passed: remove the gap, or find why the behaviour works`,
  };
}

/** What a run of every case elsewhere (a Windows executable under Wine) reports: the driver's capabilities and each case's outcome by name. */
export interface FormRun {
  readonly capabilities: readonly Capability[];
  readonly outcomes: Readonly<Record<string, CaseOutcome>>;
}

/** Runs every case, in order, for a runner outside bun:test. */
export async function runFormCases(open: () => Promise<OpenedForm>, ids: FormIds, expectations: Expectations = {}): Promise<FormRun> {
  const probe = await open();
  const capabilities = [...probe.driver.capabilities];
  await probe.close();
  const outcomes: Record<string, CaseOutcome> = {};
  for (const c of FORM_CASES) outcomes[c.name] = await runFormCase(c, open, ids, expectations);
  return { capabilities, outcomes };
}
