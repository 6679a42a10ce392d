// The root of `flowproof mcp` holds for what a flow reads, through the real server (the MCP SDK's
// client over stdio) in real Chromium: an upload outside the root (absolute, `../`, or a symlink
// inside the root leading out) and a `file:` start URL, Go to or link outside it are refused naming
// the path and the root, and no byte of the outside file reaches the client. The CLI does the same
// with `--root`, and keeps reading anywhere without it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startServer, type TestServer } from "../support/server.ts";
import { requireChromium } from "../support/chromium.ts";
import { REPO_ROOT, runCli } from "../support/cli.ts";

/** The outside file's text: it must never reach the client. */
const SECRET = "TOPSECRET-7f3a-outside-the-root";

let server: TestServer;
/** <base>/project is the server's root; <base>/outside-secret.txt lies beside it. */
let base: string;
let root: string;
let outside: string;
let client: Client;
/** Every byte the client received, results and progress alike. */
let received = "";

beforeAll(async () => {
  requireChromium();
  server = await startServer();
  // The upload page shows the text of the file it was given, as an app that echoes an upload would.
  server.setRoute(
    "/echo-upload.html",
    () =>
      new Response(
        `<!doctype html><title>Upload</title><label>File <input type="file" id="f"></label><p id="got">nothing yet</p>
<script>document.getElementById("f").addEventListener("change", async (e) => { document.getElementById("got").textContent = "GOT:" + await e.target.files[0].text(); });</script>`,
        { headers: { "content-type": "text/html" } },
      ),
  );
  base = mkdtempSync(join(tmpdir(), "flowproof-mcp-root-"));
  root = join(base, "project");
  mkdirSync(root);
  outside = join(base, "outside-secret.txt");
  writeFileSync(outside, `${SECRET}\n`);
  writeFileSync(join(root, "inside.txt"), "inside the root\n");
  symlinkSync(outside, join(root, "innocent.txt"));
  writeFileSync(join(root, "page.html"), `<!doctype html><title>Local</title><h1>Local page</h1><a href="${pathToFileURL(outside).href}">Secret link</a>`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1" })) if (v !== undefined) env[k] = v;
  client = new Client({ name: "flowproof-root-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, "src/cli/main.ts"), "mcp"], cwd: root, env, stderr: "ignore" }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  server?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: unknown };
async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; value: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args }, undefined, { onprogress: (p) => void (received += JSON.stringify(p)) })) as ToolResult;
  const text = JSON.stringify(r);
  received += text;
  return { isError: r.isError === true, text, value: JSON.parse(r.content[0]!.text!) as Record<string, unknown> };
}

const flow = (name: string, url: string, steps: readonly string[]) =>
  `name: ${name}\napp: web\nurl: ${url}\nsteps:\n${steps.map((s) => `  - ${s.startsWith("assert: ") ? s : JSON.stringify(s)}`).join("\n")}\n`;
const write = (rel: string, text: string): string => {
  writeFileSync(join(root, rel), text);
  return rel;
};

describe("flowproof mcp: a flow reads nothing outside the server's root", () => {
  for (const [how, path] of [
    ["an absolute path", () => outside],
    ["a ../ path", () => "../outside-secret.txt"],
    ["a symlink inside the root leading out", () => "innocent.txt"],
  ] as const) {
    test(`an upload of ${how} is refused naming the path and the root; no byte of the file reaches the client`, async () => {
      const spec = write(
        "upload.flow.yaml",
        flow("Upload", `${server.url}/echo-upload.html`, [`Upload ${path()} into the "File" field`, "assert: page shows GOT:nothing"]),
      );
      const r = await call("flowproof_record", { spec, author: "rules" });
      expect(r.isError).toBe(false);
      expect(r.value["ok"]).toBe(false);
      const step = (r.value["step_results"] as Array<{ status: string; detail: string }>)[0]!;
      expect(step.status).toBe("failed");
      expect(step.detail).toContain(`the file to upload ${JSON.stringify(path())} is outside the root (${root})`);
      expect(received).not.toContain(SECRET);
    }, 60_000);
  }

  test("an assert_spreadsheet file outside the root is refused naming it and the root; its cells never reach the client", async () => {
    writeFileSync(join(base, "outside.csv"), `Name,Secret\nAda,${SECRET}\n`);
    const spec = write(
      "sheet.flow.yaml",
      `name: Sheet\napp: web\nurl: ${server.url}/echo-upload.html\nsteps:\n  - assert_spreadsheet:\n      path: ../outside.csv\n      column: Secret\n      row_contains: Ada\n      equals: nothing\n`,
    );
    const r = await call("flowproof_record", { spec, author: "rules" });
    expect(r.value["ok"]).toBe(false);
    const step = (r.value["step_results"] as Array<{ status: string; detail: string }>)[0]!;
    expect(step.detail).toContain(`assert_spreadsheet: the spreadsheet "../outside.csv" is outside the root (${root})`);
    expect(received).not.toContain(SECRET);
  }, 60_000);

  test("an upload inside the root still works", async () => {
    const spec = write(
      "inside.flow.yaml",
      flow("Inside", `${server.url}/echo-upload.html`, ['Upload inside.txt into the "File" field', "assert: page shows GOT:inside the root"]),
    );
    const r = await call("flowproof_record", { spec, author: "rules" });
    expect(r.value["error"]).toBeUndefined();
    expect(r.value["ok"]).toBe(true);
  }, 60_000);

  test("`url: file:` outside the root is refused before anything opens; a Go to and a link to it fail their step", async () => {
    const start = await call("flowproof_record", {
      spec: write("start.flow.yaml", flow("Start", pathToFileURL(outside).href, ["assert: page shows nothing"])),
      author: "rules",
    });
    expect(start.isError).toBe(true);
    expect(start.text).toContain(`the flow's url ${pathToFileURL(outside).href} is outside the root (${root})`);
    const passwd = await call("flowproof_record", {
      spec: write("passwd.flow.yaml", flow("Passwd", "file:///etc/passwd", ["assert: page shows root"])),
      author: "rules",
    });
    expect(passwd.isError).toBe(true);
    expect(passwd.text).toContain(`the flow's url file:///etc/passwd is outside the root (${root})`);
    expect(passwd.text).not.toContain("root:x:0:0");

    const goTo = await call("flowproof_record", {
      spec: write(
        "goto.flow.yaml",
        flow("Go", pathToFileURL(join(root, "page.html")).href, [`Go to ${pathToFileURL(outside).href}`, "assert: page shows nothing"]),
      ),
      author: "rules",
    });
    const goStep = (goTo.value["step_results"] as Array<{ status: string; detail: string }>)[0]!;
    expect(goStep.status).toBe("failed");
    expect(goStep.detail).toContain("is outside the root");

    const link = await call("flowproof_record", {
      spec: write("link.flow.yaml", flow("Link", "page.html", ['Click "Secret link"', `assert: page shows ${SECRET.slice(0, 9)}`])),
      author: "rules",
    });
    const linkSteps = link.value["step_results"] as Array<{ status: string; detail: string }>;
    expect(linkSteps[0]?.status).toBe("failed");
    expect(linkSteps[0]?.detail).toContain(`the page's file ${pathToFileURL(outside).href} is outside the root (${root})`);
    expect(received).not.toContain(SECRET);
  }, 90_000);
});

describe("the CLI's --root", () => {
  test("refuses an upload outside the root with --root, and keeps reading it without", async () => {
    const spec = write(
      "cli-upload.flow.yaml",
      flow("CLI upload", `${server.url}/echo-upload.html`, [
        'Upload ../outside-secret.txt into the "File" field',
        `assert: page shows GOT:${SECRET.slice(0, 9)}`,
      ]),
    );
    const confined = await runCli(["record", spec, "--author", "rules", "--root", "."], { cwd: root });
    expect(confined.stderr).toContain(`the file to upload "../outside-secret.txt" is outside the root (${root})`);
    expect(confined.stdout + confined.stderr).not.toContain(SECRET);
    expect(confined.code).toBe(1);
    const free = await runCli(["record", spec, "--author", "rules"], { cwd: root });
    expect(free.stderr).not.toContain("outside the root");
    expect(free.code).toBe(0);
  }, 90_000);

  test("refuses a flow, a trace or a file: url outside the root (exit 2), and validate takes --root too", async () => {
    const elsewhere = join(base, "elsewhere.flow.yaml");
    writeFileSync(elsewhere, flow("Elsewhere", `${server.url}/echo-upload.html`, ["assert: page shows File"]));
    const validated = await runCli(["validate", elsewhere, "--root", root], { cwd: root });
    expect(validated.stderr).toContain(`the flow ${JSON.stringify(elsewhere)} is outside the root (${root})`);
    expect(validated.code).toBe(2);
    const fileUrl = await runCli(
      [
        "run",
        write("file-url.flow.yaml", flow("File url", pathToFileURL(outside).href, ["assert: page shows x"])),
        "--root",
        root,
        "-t",
        "nowhere.trace.jsonl",
      ],
      { cwd: root },
    );
    expect(fileUrl.code).toBe(2);
    const out = await runCli(["record", "inside.flow.yaml", "--author", "rules", "--root", root, "-o", join(base, "stolen.trace.jsonl")], { cwd: root });
    expect(out.stderr).toContain("the trace");
    expect(out.stderr).toContain("is outside the root");
    expect(out.code).toBe(2);
  }, 60_000);
});
