import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { click } from "./click.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});

const logShows = async (text: string) => (await h.driver.check(byId("log"), { kind: "text_contains", text })).pass;

describe("withDialog (through click)", () => {
  test("accepts a confirm whose message contains the declared text", async () => {
    const ctx = await h.context("dialogs.html");
    expect((await click(traceStep('Click "Delete", accepting the "Are you sure" dialog'), ctx)).status).toBe("passed");
    expect(await logShows("deleted")).toBe(true);
  });
  test("answers a prompt with a resolved ${VAR} reply", async () => {
    const ctx = await h.context("dialogs.html", { NEW_NAME: "Quarterly" });
    expect((await click(traceStep('Press the "Rename" button, answering the prompt with "${NEW_NAME}"'), ctx)).status).toBe("passed");
    expect(await logShows("renamed to Quarterly")).toBe(true);
  });
  test("fails a declared dialog that never opens", async () => {
    const ctx = await h.context("dialogs.html");
    const r = await click(traceStep('Click "Nothing", dismissing the dialog'), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("no dialog opened within");
  });
  test("dismisses and fails a dialog whose message does not match", async () => {
    const ctx = await h.context("dialogs.html");
    const r = await click(traceStep('Click "Delete", accepting the "Gone for good" dialog'), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("it was dismissed");
    expect(await logShows("kept")).toBe(true);
  });
  test("fails a prompt answer when a different kind of dialog opens", async () => {
    const ctx = await h.context("dialogs.html");
    const r = await click(traceStep('Click "Notify", answering the prompt with "x"'), ctx);
    expect(r.status).toBe("failed");
    expect(r.detail).toContain("expected a prompt to answer, but an alert dialog opened");
  });
});
