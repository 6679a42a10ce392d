import { Lifecycle } from "../plugins/lifecycle.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, type TestServer } from "../../test/support/server.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { flowYaml, tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { record } from "../commands/record.ts";
import { runCommand } from "./run.ts";
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

describe("runCommand", () => {
  test("prints a line per step, the verdict and the result path", async () => {
    const spec = project.write(
      "g.flow.yaml",
      flowYaml("Greeting", `${server.url}/greeter.html`, ['rules: Press the "Greet" button', "assert: page shows Hello"]),
    );
    expect((await record({ spec, env: {} })).ok).toBe(true);
    const io = captureIo();
    expect(await runCommand({ positional: [spec], flags: {} }, io, new Lifecycle())).toBe(0);
    expect(io.stdout).toMatch(
      /^  \[PASS\] s0001 Press the "Greet" button\n  \[PASS\] s0002 page shows Hello\nPASS: Greeting \(\d+ ms\) -> .*report\.html\nresult: .*result\.json\n$/,
    );
  });
  test("--json prints the report document", async () => {
    const io = captureIo();
    expect(await runCommand({ positional: [`${project.dir}/g.flow.yaml`], flags: { json: true } }, io, new Lifecycle())).toBe(0);
    const out = JSON.parse(io.stdout) as { report: { name: string; passed: boolean }; report_path: string };
    expect(out.report).toMatchObject({ name: "Greeting", passed: true });
  });
  test("needs exactly one flow file", async () => {
    await expect(runCommand({ positional: ["a", "b"], flags: {} }, captureIo(), new Lifecycle())).rejects.toBeInstanceOf(UsageError);
  });
});
