import { describe, expect, test } from "bun:test";
import type { AppDriver, Selector } from "../../src/plugins/api.ts";
import { FakeSap, type FakeSapOptions } from "./fake-engine.ts";
import { launchSapDriver } from "./launch.ts";

const id = (v: string): Selector[] => [{ tier: "native_id", provenance: "rules", payload: { id: v } }];
const text = (v: string, role?: string): Selector[] => [{ tier: "text_anchor", provenance: "rules", payload: { text: v, ...(role ? { role } : {}) } }];
const LOGIN = { connection: "TS3", login: { user: "clerk", password: "canary-Pw-1" }, user_ref: "${CLERK_USER}" };

async function open(options: FakeSapOptions = {}, config: Record<string, unknown> = LOGIN): Promise<{ sap: FakeSap; driver: AppDriver; log: string[] }> {
  const sap = new FakeSap({ users: { CLERK: "canary-Pw-1", APPROVER: "canary-Pw-2" }, ...options });
  const log: string[] = [];
  const driver = await launchSapDriver(sap, config, { log: (l) => log.push(l) });
  return { sap, driver, log };
}

describe("SapDriver", () => {
  test("opens its own connection and logs on; the password goes only into RSYST-BCODE", async () => {
    const { sap, driver } = await open({ loggedOnUser: "SOMEONE" });
    expect(sap.app.children).toHaveLength(2);
    const pw = sap.writes.filter((w) => w.value.includes("canary-Pw-1"));
    expect(pw).toEqual([{ id: "/app/con[1]/ses[0]/wnd[0]/usr/pwdRSYST-BCODE", property: "Text", value: "canary-Pw-1" }]);
    expect((await driver.check([], { kind: "title", op: "equals", value: "SAP Easy Access" })).pass).toBe(true);
    await driver.close();
    expect(sap.app.children).toHaveLength(1);
  });

  test("Go to a transaction types it into the command field and presses Enter", async () => {
    const { sap, driver } = await open();
    expect(await driver.navigate("/nVA01", 1000)).toEqual({ ok: true, value: undefined });
    expect(sap.writes.at(-1)).toEqual({ id: "/app/con[0]/ses[0]/wnd[0]/tbar[0]/okcd", property: "Text", value: "/nVA01" });
    expect((await driver.check([], { kind: "url", op: "equals", value: "/nVA01" })).pass).toBe(true);
    expect(await driver.navigate("/nZZ99", 1000)).toMatchObject({ ok: false, failed: "dialog", detail: "SAP error message: Transaction ZZ99 does not exist" });
    expect(await driver.navigate("https://example.com", 1000)).toMatchObject({ ok: false, failed: "unsupported" });
  });

  test("an error in the status bar after Enter fails the step with SAP's message", async () => {
    const { driver } = await open();
    await driver.navigate("/nVA01", 1000);
    expect(await driver.fill(text("Order Type", "field"), "XX")).toMatchObject({ ok: true });
    expect(await driver.pressKey("Enter", [])).toEqual({
      ok: false,
      failed: "dialog",
      detail: "SAP error message: Enter a valid sales document type",
      retryable: false,
    });
  });

  test("creates an order: fields by label, tooltip and id, Save by tooltip, a warning is logged", async () => {
    const { sap, driver, log } = await open();
    await driver.navigate("/nVA01", 1000);
    expect(await driver.fill(text("Sales Document Type"), "ZOR")).toMatchObject({ ok: true });
    expect(await driver.pressKey("Enter", [])).toMatchObject({ ok: true });
    expect(await driver.fill(id("wnd[0]/usr/txtKUAGV-KUNNR"), "4711")).toMatchObject({ ok: true, tier: "native_id" });
    expect(await driver.pressKey("Enter", [])).toMatchObject({ ok: true });
    expect(await driver.setChecked(text("Express delivery", "checkbox"), true)).toMatchObject({ ok: true });
    expect((await driver.check(text("Express delivery"), { kind: "checked", checked: true })).pass).toBe(true);
    expect(await driver.click(text("Save the order"), { button: "left", clickCount: 1 })).toMatchObject({ ok: true });
    expect(log).toEqual(["SAP warning: No items were entered"]);
    expect((await driver.check([], { kind: "text_contains", text: "Standard Order 4711 has been saved" })).pass).toBe(true);
    // page shows honours case and count the same way on every surface: as written, else ignoring case.
    expect((await driver.check([], { kind: "text_contains", text: "standard ORDER 4711" })).pass).toBe(true);
    expect((await driver.check([], { kind: "text_contains", text: "has been saved", count: 1 })).pass).toBe(true);
    expect(await driver.check([], { kind: "text_contains", text: "has been saved", count: 2 })).toMatchObject({
      pass: false,
      actual: expect.stringMatching(/^1 times in /),
    });
    expect(sap.orders.get("4711")).toBe("4711");
    await driver.navigate("/nVA03", 1000);
    // VA03 offers the order just saved in this session.
    expect(await driver.readText(text("Order", "field"))).toMatchObject({ ok: true, value: "4711" });
    await driver.pressKey("Enter", []);
    expect(await driver.readText(id("wnd[0]/usr/ctxtVBAK-VBELN"))).toMatchObject({ ok: true, value: "4711" });
    expect(await driver.readText(text("Sold-To Party"))).toMatchObject({ ok: true, value: "4711" });
    expect((await driver.check(text("Order", "field"), { kind: "enabled", enabled: false })).pass).toBe(true);
    expect((await driver.check(text("Order", "field"), { kind: "numeric_equals", value: 4711 })).pass).toBe(true);
    expect((await driver.check(text("Order", "field"), { kind: "text_contains", text: "4712" })).pass).toBe(false);
  });

  test("F-keys and Ctrl chords map to SAP virtual keys; others are refused with the list", async () => {
    const { driver } = await open();
    await driver.navigate("/nVA01", 1000);
    expect(await driver.pressKey("F3", [])).toMatchObject({ ok: true });
    expect((await driver.check([], { kind: "title", op: "equals", value: "SAP Easy Access" })).pass).toBe(true);
    expect(await driver.pressKey("Tab", [])).toMatchObject({ ok: false, failed: "unsupported", detail: expect.stringContaining("F1–F12") });
  });

  test("a scripting id that is not on the screen names the nearest id", async () => {
    const { driver } = await open();
    await driver.navigate("/nVA01", 1000);
    const r = await driver.fill(id("wnd[0]/usr/ctxtVBAK-AUARX"), "OR");
    expect(r).toMatchObject({ ok: false, failed: "not-found", retryable: true });
    expect(!r.ok && r.detail).toContain('did you mean "wnd[0]/usr/ctxtVBAK-AUART"?');
    expect(await driver.count(id("wnd[0]/usr/ctxtVBAK-AUARX"))).toBe(0);
    expect((await driver.check(id("wnd[0]/usr/ctxtVBAK-AUARX"), { kind: "visible", visible: false })).pass).toBe(true);
    expect((await driver.check(id("wnd[0]/usr/ctxtVBAK-AUART"), { kind: "visible", visible: true })).pass).toBe(true);
  });

  test("dropdowns select by entry text or key; an unknown entry lists the entries", async () => {
    const { sap, driver } = await open();
    await driver.navigate("/nVA01", 1000);
    expect(await driver.select(text("Distribution Channel"), ["Wholesale"])).toMatchObject({ ok: true });
    expect(sap.writes.at(-1)).toMatchObject({ property: "Key", value: "20" });
    const bad = await driver.select(text("Distribution Channel"), ["Retail"]);
    expect(!bad.ok && bad.detail).toContain('"Final customer sales", "Wholesale"');
    expect(await driver.select(text("Order Type"), ["OR"])).toMatchObject({ ok: false, failed: "unsupported" });
  });

  test("a password field is never read, reported in the scene or the debug snapshot, and is masked in frames", async () => {
    const sap = new FakeSap({ users: { CLERK: "canary-Pw-1" } });
    // Attach-only finds no logged-on session: the login screen of a fresh connection stays for this test.
    sap.openConnection("TS3");
    sap.sessions[0]!.call("FindById", "wnd[0]/usr/pwdRSYST-BCODE");
    const { SapDriver } = await import("./driver.ts");
    const driver = new SapDriver({ engine: sap, session: sap.sessions[0]!, log: () => undefined });
    await driver.fill(text("Password"), "canary-Pw-1", { secret: true });
    expect(await driver.readText(text("Password"))).toMatchObject({ ok: false, detail: "a password field is never read" });
    expect(JSON.stringify(await driver.scene())).not.toContain("canary");
    expect(JSON.stringify(await driver.debugSnapshot())).not.toContain("canary");
    expect((await driver.check([], { kind: "text_contains", text: "canary" })).pass).toBe(false);
    const [secret] = await driver.rectsFor([{ secretFields: true }]);
    expect(secret).toMatchObject({ ok: true, rects: [expect.any(Object)] });
    // The targets every recorder masks (password inputs, secret fields) resolve, so frames of a SAP window are kept, never dropped.
    const answers = await driver.rectsFor([{ passwordFields: true }, { secretFields: true }]);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(answers[0]).toMatchObject({ ok: true, rects: [expect.any(Object)] });
  });

  test("attach-only takes a logged-on session and leaves its connection open", async () => {
    const { sap, driver } = await open({ loggedOnUser: "DEVELOPER" }, {});
    expect((await driver.check([], { kind: "text_contains", text: "Welcome DEVELOPER" })).pass).toBe(true);
    await driver.close();
    expect(sap.app.children).toHaveLength(1);
  });
});

describe("launchSapDriver", () => {
  test.each<[string, FakeSapOptions, Record<string, unknown>, string, string]>([
    ["no logged-on session to attach to", {}, {}, "no logged-on SAP GUI session to attach to", "give the flow `connection:`"],
    [
      "an unknown connection lists SAP Logon's entries",
      {},
      { ...LOGIN, connection: "PRD" },
      'SAP Logon has no connection "PRD"',
      'use one of SAP Logon\'s entries: "TS3 - Test System"',
    ],
    ["client scripting off names the setting", { scriptingDisabled: true }, LOGIN, "scripting is disabled on this client", "Enable scripting"],
    ["server scripting off names the profile parameter", { disabledByServer: true }, LOGIN, "does not allow scripting", "sapgui/user_scripting = TRUE"],
    ["no credentials anywhere", {}, { connection: "TS3" }, 'connection "TS3" needs a user to log on with', "flowproof config sap"],
    [
      "a user without a password names the missing password",
      { stored: { user: "approver", password: "canary-Pw-2" } },
      { connection: "TS3", user_ref: "${SAP_USER}" },
      'connection "TS3" has a user to log on with (${SAP_USER}) but no password for it',
      "set SAP_PASSWORD",
    ],
    [
      "an unknown connection is named as written",
      {},
      { ...LOGIN, connection: "canary-PRD", connection_ref: "${SAP_CONNECTION}" },
      'SAP Logon has no connection "${SAP_CONNECTION}"',
      "use one of SAP Logon's entries",
    ],
    [
      "a refused login names the user reference, not the password",
      {},
      { ...LOGIN, login: { user: "clerk", password: "wrong-canary" } },
      "SAP refused the login of ${CLERK_USER}: Name or password is incorrect",
      "never shown",
    ],
  ])("%s", async (_name, options, config, message, hint) => {
    const error = await open(options, config).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "sap-error" });
    const d = (error as { diagnostics: { message: string; hint: string }[] }).diagnostics[0]!;
    expect(d.message).toContain(message);
    expect(d.hint).toContain(hint);
    expect(JSON.stringify(d)).not.toContain("canary");
  });

  test("falls back to the credentials stored by flowproof config sap", async () => {
    const { sap } = await open({ stored: { user: "approver", password: "canary-Pw-2", client: "200" } }, { connection: "TS3" });
    expect(sap.writes.filter((w) => w.value === "canary-Pw-2").map((w) => w.id)).toEqual(["/app/con[0]/ses[0]/wnd[0]/usr/pwdRSYST-BCODE"]);
    expect(sap.writes.find((w) => w.id.endsWith("RSYST-MANDT"))?.value).toBe("200");
  });
});

describe("step effects", () => {
  test("a SAP surface observes no kind: a transaction it opened and a field it filled are not claimed", async () => {
    const { driver } = await open();
    const watch = await driver.observeEffect!([]);
    expect(watch?.kinds).toEqual([]);
    expect(watch?.sent).toBeUndefined();
    expect(await driver.navigate("/nVA01", 1000)).toEqual({ ok: true, value: undefined });
    expect(await driver.fill(text("Order Type", "field"), "OR")).toMatchObject({ ok: true });
    expect(await watch!.read()).toEqual({ effect: {}, idleMs: Number.POSITIVE_INFINITY, final: true });
    await watch!.stop();
    await driver.close();
  });
});
