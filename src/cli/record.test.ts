import { Lifecycle } from "../plugins/lifecycle.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { recordCommand } from "./record.ts";
import { UsageError } from "./flags.ts";

let server: TestServer;
let project: TmpProject;
beforeAll(async () => {
  requireChromium();
  server = await startServer();
  project = tmpProject();
});
afterAll(() => {
  server.stop();
  project.remove();
});

describe("recordCommand", () => {
  test("prints the Recorded line and exits 0; -o chooses the trace path", async () => {
    const spec = project.write("g.flow.yaml", flowYaml("G", `${server.url}/greeter.html`, ['rules: Press the "Greet" button']));
    const io = captureIo();
    const code = await recordCommand({ positional: [spec], flags: { out: `${project.dir}/custom.trace.jsonl` } }, io, new Lifecycle());
    expect(code).toBe(0);
    expect(io.stdout).toContain("Recorded 'G': 1 step -> ");
    expect(io.stdout).toContain("custom.trace.jsonl");
    expect(io.stderr).toContain('[AUTHOR rules] 1: Press the "Greet" button');
  });
  test("exits 1 with RECORD FAILED when a step fails", async () => {
    const spec = project.write("f.flow.yaml", flowYaml("F", `${server.url}/greeter.html`, ["assert: page shows Nothing like this within 0.2s"]));
    const io = captureIo();
    expect(await recordCommand({ positional: [spec], flags: {} }, io, new Lifecycle())).toBe(1);
    expect(io.stderr).toContain("RECORD FAILED: step s0001");
  });
  test("needs exactly one flow file", async () => {
    await expect(recordCommand({ positional: [], flags: {} }, captureIo(), new Lifecycle())).rejects.toBeInstanceOf(UsageError);
  });
});
