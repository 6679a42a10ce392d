import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineHarness, traceStep, byId, type EngineHarness } from "../../../test/support/engine.ts";
import { typeText } from "./type-text.ts";
import { UnresolvedReferenceError } from "../templates.ts";

let h: EngineHarness;
beforeAll(async () => {
  h = await engineHarness();
});
afterAll(async () => {
  await h.close();
});
const nameField = byId("name");

describe("typeText", () => {
  test("fills, appends, replaces and clears", async () => {
    const ctx = await h.context("greeter.html");
    await typeText(traceStep('Type Ada into the "Your name" field'), ctx);
    await typeText(traceStep("Type !"), ctx);
    expect(await h.driver.readText(nameField)).toMatchObject({ value: "Ada!" });
    await typeText(traceStep('Replace the "Your name" field with Bo'), ctx);
    expect(await h.driver.readText(nameField)).toMatchObject({ value: "Bo" });
    await typeText(traceStep('Clear the "Your name" field'), ctx);
    expect(await h.driver.readText(nameField)).toMatchObject({ value: "" });
  });
  test("types ${VAR} and captured values resolved at execution, and records the secret for redaction", async () => {
    const ctx = await h.context("greeter.html", { WHO: "Grace" });
    ctx.captures.set("suffix", "Hopper");
    expect((await typeText(traceStep('Type ${WHO} ${captured.suffix} into the "Your name" field'), ctx)).status).toBe("passed");
    expect(await h.driver.readText(nameField)).toMatchObject({ value: "Grace Hopper" });
    expect(ctx.secrets.get("WHO")).toBe("Grace");
  });
  test("never types an unresolved reference", async () => {
    const ctx = await h.context("greeter.html");
    await expect(typeText(traceStep('Type ${NOPE_NOT_SET} into the "Your name" field'), ctx)).rejects.toBeInstanceOf(UnresolvedReferenceError);
    expect(await h.driver.readText(nameField)).toMatchObject({ value: "" });
  });
  test("selects an option by its text and names the options when none matches", async () => {
    const ctx = await h.context("form.html");
    expect((await typeText(traceStep('Select Editor from the "Role" dropdown'), ctx)).status).toBe("passed");
    expect(await h.driver.readText(byId("role"))).toMatchObject({ value: "Editor" });
    const missing = await typeText(traceStep('Select Owner from the "Role" dropdown', { stepTimeoutMs: 300 }), ctx);
    expect(missing.status).toBe("failed");
    expect(missing.detail).toContain('has no option "Owner"');
  });
});
