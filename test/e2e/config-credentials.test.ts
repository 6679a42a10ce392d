// `flowproof config <kind>` through the real CLI: a project plugin that declares credentials (kept
// in a file of the test project, standing in for an OS credential store) is configured like a
// built-in — its field a flag, the password from standard input and never printed — and the
// built-in sap adapter still refuses on a platform that is not Windows, before reading anything.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const PLUGIN = `import { defineAdapter } from "flowproof";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FILE = join(import.meta.dir, "..", "vault-store.json");

export const plugin = defineAdapter({
  kind: "vault",
  capabilities: [],
  open: async () => { throw new Error("not opened by config"); },
  credentials: {
    name: "Vault",
    where: "test store vault-store.json",
    usedBy: "vault flows without a login use them",
    fields: [{ name: "tenant", placeholder: "id", description: "The tenant to log on to." }],
    read: async () => (existsSync(FILE) ? JSON.parse(readFileSync(FILE, "utf8")) : undefined),
    store: async (c) => writeFileSync(FILE, JSON.stringify(c)),
    delete: async () => rmSync(FILE, { force: true }),
  },
});
`;

const PASSWORD = "Canary-Vault-7f3a";
const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

function vaultProject(): TmpProject {
  const p = tmpProject();
  projects.push(p);
  p.write("package.json", JSON.stringify({ name: "vault-project", private: true }));
  p.write("plugins/vault.ts", PLUGIN);
  return p;
}

describe("flowproof config <kind>", () => {
  test("a project plugin's credentials: stored with its field from standard input, shown, deleted; the password never printed", async () => {
    const p = vaultProject();
    const store = join(p.dir, "vault-store.json");
    const set = await runCli(["config", "vault", "--user", "ada", "--tenant", "t1"], { cwd: p.dir, stdin: `${PASSWORD}\n` });
    expect([set.code, set.stdout.trim(), set.stderr]).toEqual([
      0,
      "Stored Vault fallback credentials for user ada, tenant t1 in the test store vault-store.json; vault flows without a login use them.",
      "",
    ]);
    expect(JSON.parse(readFileSync(store, "utf8"))).toEqual({ user: "ada", password: PASSWORD, fields: { tenant: "t1" } });

    const show = await runCli(["config", "vault", "--show", "--json"], { cwd: p.dir });
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toEqual({ action: "show", stored: true, store: "test store vault-store.json", user: "ada", tenant: "t1" });
    for (const r of [set, show]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);

    const help = await runCli(["config", "--help"], { cwd: p.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--tenant <id>\s+`vault`: The tenant to log on to\. With --user\./);
    expect(help.stdout).toMatch(/--client <nnn>\s+`sap`: The SAP client to log on to\./);

    const removed = await runCli(["config", "vault", "--delete"], { cwd: p.dir });
    expect([removed.code, removed.stdout.trim()]).toEqual([0, "Removed the Vault fallback credentials from the test store vault-store.json."]);
    expect(existsSync(store)).toBe(false);
  });

  test("bad input is a usage error (exit 2) saying what to write", async () => {
    const p = vaultProject();
    const cases: [string[], string][] = [
      [["config", "web", "--show"], "app kind `web` keeps no fallback credentials: flowproof config knows only `sap` and `vault`"],
      [["config", "vault", "--user", "ada", "--client", "100"], "`flowproof config vault` takes no --client: its fields are --tenant"],
      [["config", "vault", "--show", "--tenant", "t1"], "--tenant goes with --user"],
      [["config", "vault", "--user", "ada"], "`flowproof config vault` read no password from standard input"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, { cwd: p.dir, stdin: "" });
      expect([r.code, r.stderr], args.join(" ")).toEqual([2, expect.stringContaining(message)]);
    }
    expect(existsSync(join(p.dir, "vault-store.json"))).toBe(false);
  });

  test("`config sap` off Windows: unsupported-platform, exit 2, the password nowhere in its output", async () => {
    if (process.platform === "win32") throw new Error("this test describes the non-Windows behaviour");
    const p = vaultProject();
    const r = await runCli(["config", "sap", "--user", "clerk", "--client", "100", "--json"], { cwd: p.dir, stdin: `${PASSWORD}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain(PASSWORD);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: "unsupported-platform", message: expect.stringContaining("`flowproof config sap` requires Windows") },
    });
  });
});
