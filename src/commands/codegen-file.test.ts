// The flow file codegen writes loads as a flow, keeps TODO comments above their steps, and is replaced whole.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpProject, type TmpProject } from "../../test/support/tmp-project.ts";
import { renderFlow, writeWhole } from "./codegen-file.ts";
import { validateFlow } from "./validate.ts";

let project: TmpProject | undefined;
afterEach(() => project?.remove());

const HEAD = { name: "Sign in: the happy path #1", url: "${APP_URL}/login", startedAt: "2026-01-02T03:04:05Z" };

describe("renderFlow", () => {
  test("writes the keys, every step (quoted where YAML needs it) and a TODO comment above the steps to review; the file loads as a flow", async () => {
    const text = renderFlow(HEAD, [
      { key: "rules", text: 'Type ${EMAIL} into the "Email" field' },
      { key: "rules", text: 'Click "Invoice #1001"', todo: "check this step:\nits words name another element" },
      { key: "assert", text: "page shows Welcome: Ada" },
    ]);
    expect(text).toBe(
      [
        "# Recorded with `flowproof codegen` at 2026-01-02T03:04:05Z; review it, then record it with `flowproof record`.",
        'name: "Sign in: the happy path #1"',
        "app: web",
        "url: ${APP_URL}/login",
        "steps:",
        '  - rules: Type ${EMAIL} into the "Email" field',
        "  # TODO check this step: its words name another element",
        "  - rules: 'Click \"Invoice #1001\"'",
        '  - assert: "page shows Welcome: Ada"',
        "",
      ].join("\n"),
    );
    project = tmpProject();
    const path = project.write("x.flow.yaml", text);
    expect(await validateFlow({ spec: path })).toMatchObject({ name: "Sign in: the happy path #1", steps: 3 });
  });

  test("writes an empty step list before the first action", () => {
    expect(renderFlow(HEAD, [])).toContain("\nsteps: []\n");
  });
});

describe("writeWhole", () => {
  test("replaces the file and leaves no part file behind", () => {
    project = tmpProject();
    const path = join(project.dir, "f.flow.yaml");
    writeWhole(path, "one\n");
    writeWhole(path, "two\n");
    expect(readFileSync(path, "utf8")).toBe("two\n");
    expect(readdirSync(project.dir)).toEqual(["f.flow.yaml"]);
  });
});
