// `flowproof config <kind>` on Linux for an adapter that declares credentials and keeps none
// itself: the core stores them in the kernel keyring through the real `keyctl` (in a session
// keyring of this test's own, so the machine's user keyring is untouched), a flow without a
// sign-on of its own signs on with them, and the password reaches no output file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { dlopen, FFIType } from "bun:ffi";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const PASSWORD = "Canary-Keyring-9c1e";
const HASH = new Bun.CryptoHasher("sha256").update(PASSWORD).digest("hex");

/** A vault console that signs on with `sign_on:` (user, password, tenant) and, badly behaved, shows the password it accepted. */
const PLUGIN = `
import { AdapterUnavailableError, defineAdapter, keyRole, Type } from "flowproof";

const unsupported = async () => ({ ok: false, failed: "unsupported", detail: "the vault cannot", retryable: false });

export const plugin = defineAdapter({
  kind: "vault",
  title: "the vault console",
  capabilities: [],
  keys: {
    schema: Type.Object(
      {
        sign_on: Type.Optional(
          Type.Object({
            user: Type.String(),
            password: Type.String({ ...keyRole({ secret: true, references: "env" }) }),
            tenant: Type.Optional(Type.String()),
          }),
        ),
      },
      { additionalProperties: false },
    ),
  },
  credentials: {
    name: "Vault",
    usedBy: "vault flows without a \`sign_on:\` sign on with them",
    key: "sign_on",
    fields: [{ name: "tenant", placeholder: "id", description: "The tenant to sign on to." }],
  },
  open: async () => ({
    launch: async (config) => {
      const s = config.sign_on;
      if (!s) throw new AdapterUnavailableError("the vault console needs a sign-on", "give \`sign_on:\` or run \`flowproof config vault --user <name>\`");
      const ok = new Bun.CryptoHasher("sha256").update(s.password).digest("hex") === "${HASH}";
      const shown = ok ? \`welcome \${s.user} of \${s.tenant}; password \${s.password} accepted\` : "access denied";
      return {
        capabilities: new Set([]),
        navigate: async () => ({ ok: true, value: undefined }),
        reload: async () => ({ ok: true, value: undefined }),
        click: unsupported, hover: unsupported, fill: unsupported, typeFocused: unsupported, pressKey: unsupported, select: unsupported, setChecked: unsupported,
        readText: async () => ({ ok: true, value: shown }),
        count: async () => 1,
        check: async (_ladder, expect) => ({ pass: expect.kind === "text_contains" && shown.includes(expect.text), actual: shown }),
        environment: async () => ({ os: process.platform, resolution: [0, 0] }),
        close: async () => {},
      };
    },
    close: async () => {},
  }),
});
`;

const projects: TmpProject[] = [];
beforeAll(() => {
  // A fresh anonymous session keyring for this process, inherited by every CLI it starts.
  const keyutils = dlopen("libkeyutils.so.1", { keyctl_join_session_keyring: { args: [FFIType.ptr], returns: FFIType.i32 } });
  expect(keyutils.symbols.keyctl_join_session_keyring(null)).toBeGreaterThan(0);
  keyutils.close();
});
afterAll(() => {
  for (const p of projects) p.remove();
});

const ENV = { FLOWPROOF_KEYRING: "@s" };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (name === "node_modules" ? [] : filesUnder(path)) : [path];
  });
}

const inKeyring = (ring: string, name: string) => Bun.spawnSync(["keyctl", "search", ring, "user", `flowproof:vault:${name}`]).exitCode === 0;

describe("flowproof config <kind> on Linux (the kernel keyring)", () => {
  test("stored through keyctl, signed on with by a flow that gives no sign-on, never in an output file; --forget removes them", async () => {
    const p = tmpProject();
    projects.push(p);
    p.write("package.json", "{}");
    p.write("plugins/vault.ts", PLUGIN);
    const spec = p.write("open.flow.yaml", "name: Open the vault\napp: vault\nsteps:\n  - assert: page shows welcome ada\n");

    const set = await runCli(["config", "vault", "--user", "ada", "--tenant", "t1", "--json"], { cwd: p.dir, env: ENV, stdin: `${PASSWORD}\n` });
    expect(set.stderr).toBe("");
    expect(JSON.parse(set.stdout)).toEqual({
      action: "set",
      stored: true,
      store: 'Linux kernel keyring (keyring @s), keys "flowproof:vault:*"',
      user: "ada",
      tenant: "t1",
    });
    expect(["user", "password", "tenant"].map((n) => inKeyring("@s", n))).toEqual([true, true, true]);
    expect(inKeyring("@u", "password")).toBe(false);
    const id = Bun.spawnSync(["keyctl", "search", "@s", "user", "flowproof:vault:password"]).stdout.toString().trim();
    expect(Bun.spawnSync(["keyctl", "pipe", id]).stdout.toString()).toBe(PASSWORD);

    const show = await runCli(["config", "vault", "--show"], { cwd: p.dir, env: ENV });
    expect([show.code, show.stdout.trim()]).toEqual([
      0,
      'Stored are Vault fallback credentials for user ada, tenant t1 in the Linux kernel keyring (keyring @s), keys "flowproof:vault:*"; vault flows without a `sign_on:` sign on with them.',
    ]);

    const rec = await runCli(["record", spec, "--author", "rules"], { cwd: p.dir, env: ENV });
    expect([rec.code, rec.stderr]).toEqual([0, expect.any(String)]);
    const run = await runCli(["run", spec, "--json"], { cwd: p.dir, env: ENV });
    expect(run.code).toBe(0);
    // A step that fails shows what the screen held: the password in it is redacted.
    const wrong = p.write("wrong.flow.yaml", "name: Expect a farewell\napp: vault\nsteps:\n  - assert: page shows goodbye ada\n");
    const failed = await runCli(["record", wrong, "--author", "rules", "--json"], { cwd: p.dir, env: ENV });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("welcome ada of t1; password ");
    const outputs = [set, show, rec, run, failed].map((r) => r.stdout + r.stderr).join("\n");
    expect(outputs).not.toContain(PASSWORD);
    const files = filesUnder(p.dir).filter((f) => !f.includes("/plugins/"));
    expect(files.some((f) => f.endsWith(".trace.jsonl"))).toBe(true);
    expect(files.some((f) => f.endsWith("result.json"))).toBe(true);
    for (const f of files) expect(readFileSync(f).toString("latin1"), f).not.toContain(PASSWORD);
    // The screen showed it: the evidence holds the redaction where the password was.
    expect(files.map((f) => readFileSync(f, "utf8")).join("\n")).toContain("welcome ada of t1; password ");

    const forget = await runCli(["config", "vault", "--forget"], { cwd: p.dir, env: ENV });
    expect([forget.code, forget.stdout.trim()]).toEqual([
      0,
      'Removed the Vault fallback credentials from the Linux kernel keyring (keyring @s), keys "flowproof:vault:*".',
    ]);
    expect(["user", "password", "tenant"].map((n) => inKeyring("@s", n))).toEqual([false, false, false]);
    const gone = await runCli(["config", "vault", "--show", "--json"], { cwd: p.dir, env: ENV });
    expect(JSON.parse(gone.stdout)).toMatchObject({ stored: false });
    const without = await runCli(["run", spec], { cwd: p.dir, env: ENV });
    expect([without.code, without.stderr]).toEqual([2, expect.stringContaining("the vault console needs a sign-on")]);
  }, 120_000);

  test("on a terminal the password is prompted for without echo", async () => {
    const p = tmpProject();
    projects.push(p);
    p.write("package.json", "{}");
    p.write("plugins/vault.ts", PLUGIN);
    // `script` gives the CLI a pseudo-terminal as its standard input and output.
    const command = `'${process.execPath}' '${join(REPO_ROOT, "src", "cli", "main.ts")}' config vault --user bea`;
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
      cwd: p.dir,
      env: { ...process.env, ...ENV, NO_COLOR: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    let shown = "";
    while (!shown.includes("Password: ")) {
      const { value, done } = await reader.read();
      if (done) break;
      shown += new TextDecoder().decode(value);
    }
    expect(shown).toContain("Password: ");
    proc.stdin.write(`${PASSWORD}\r`);
    await proc.stdin.flush();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      shown += new TextDecoder().decode(value);
    }
    expect(await proc.exited).toBe(0);
    expect(shown).toContain("Stored Vault fallback credentials for user bea");
    expect(shown).not.toContain(PASSWORD);
    const id = Bun.spawnSync(["keyctl", "search", "@s", "user", "flowproof:vault:password"]).stdout.toString().trim();
    expect(Bun.spawnSync(["keyctl", "pipe", id]).stdout.toString()).toBe(PASSWORD);
    expect((await runCli(["config", "vault", "--forget"], { cwd: p.dir, env: ENV })).code).toBe(0);
  }, 60_000);

  test("without keyctl on PATH: exit 2 naming `apt-get install keyutils`, nothing read from standard input", async () => {
    const p = tmpProject();
    projects.push(p);
    p.write("package.json", "{}");
    p.write("plugins/vault.ts", PLUGIN);
    const r = await runCli(["config", "vault", "--user", "ada", "--json"], { cwd: p.dir, env: { ...ENV, PATH: "/nonexistent" }, stdin: `${PASSWORD}\n` });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: {
        code: "credential-store",
        message: expect.stringContaining("`keyctl`"),
        diagnostics: [{ hint: expect.stringContaining("apt-get install keyutils") }],
      },
    });
  });
});
