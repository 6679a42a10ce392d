import { Lifecycle } from "../plugins/lifecycle.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { tmpProject, flowYaml } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { healCommand } from "./heal.ts";
import { main } from "./main.ts";
import { UsageError } from "./flags.ts";

const project = tmpProject();
afterAll(() => project.remove());

describe("healCommand", () => {
  test("needs exactly one flow file", async () => {
    await expect(healCommand({ positional: [], flags: {} }, captureIo(), new Lifecycle())).rejects.toBeInstanceOf(UsageError);
  });
  test("a flow without a trace is an error (exit 2) that says to record first", async () => {
    const spec = project.write("n.flow.yaml", flowYaml("N", "http://127.0.0.1:9/", ['rules: Click "Go"']));
    const io = captureIo();
    expect(await main(["heal", spec, "--json"], io)).toBe(2);
    expect(JSON.parse(io.stdout).error.code).toBe("missing-trace");
  });
});
