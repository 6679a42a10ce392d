import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { captureIo } from "../../test/support/io.ts";
import { validateCommand } from "./validate.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";

let project: TmpProject;
beforeAll(() => {
  project = tmpProject();
});
afterAll(() => project.remove());

describe("validateCommand", () => {
  test("prints OK with the flow's name and step count", async () => {
    const spec = project.write("ok.flow.yaml", 'name: Fine\napp: web\nurl: http://127.0.0.1:9/\nsteps:\n  - rules: Click "A"\n');
    const io = captureIo();
    expect(await validateCommand({ positional: [spec], flags: {} }, io)).toBe(0);
    expect(io.stdout).toBe(`OK: ${spec} (Fine: 1 step)\n`);
  });
  test("throws the file's problems for the caller to render", async () => {
    const spec = project.write("bad.flow.yaml", "name: Bad\napp: web\nsteps: []\n");
    await expect(validateCommand({ positional: [spec], flags: {} }, captureIo())).rejects.toBeInstanceOf(SpecError);
  });
});
