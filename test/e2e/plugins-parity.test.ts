// A project's own adapter and its keys through the real CLI: a secret declared inside a union
// (`sign_on: string | {user, password}`) reaches `launch` resolved and is redacted everywhere; a
// role in a shape no value is resolved through is refused when the plugin loads, naming the key;
// and a key holding `${VAR}` without a role that resolves it stops the run before the adapter
// launches, so an adapter never receives an unresolved reference. The loader refuses `kind: multi`;
// pointer and key steps are refused at load on a surface without `pointer` / `keyboard`; grammar
// refusals name the surface by its title and the missing form; an adapter raises its own declared codes.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { tmpProject, type TmpProject } from "../support/tmp-project.ts";

const PASSWORD = "pw-7731-canary";
const projects: TmpProject[] = [];
afterAll(() => {
  for (const p of projects) p.remove();
});

/** An inventory console adapter: it writes the config `launch` received to $INV_DUMP, and shows who signed on. */
const plugin = (schema: string, kind = "inventory", capabilities = "[]", extra = "") => `
import { AdapterError, defineAdapter, keyRole, Type } from "flowproof";
import { writeFileSync } from "node:fs";

const unsupported = async () => ({ ok: false, failed: "unsupported", detail: "the inventory console cannot", retryable: false });

export const plugin = defineAdapter({
  kind: "${kind}",
  title: "the inventory console",
  capabilities: ${capabilities},
  keys: { schema: ${schema} },${extra}
  open: async () => ({
    launch: async (config) => {
      writeFileSync(process.env.INV_DUMP, JSON.stringify(config));
      if (config.sign_on === "nobody") throw new AdapterError("inventory/not-signed-on", "the inventory console refused the sign-on of user nobody");
      if (config.sign_on === "stray") throw new AdapterError("inventory/oops", "something odd");
      const signOn = config.sign_on;
      const shown = (typeof signOn === "object" && signOn !== null ? "signed on " + signOn.user + " with " + signOn.password : "no sign-on")
        + (config.accounts ? "; accounts " + config.accounts.map((a) => a.user + "/" + a.password).join(", ") : "")
        + (config.tokens ? "; tokens " + Object.values(config.tokens).join(", ") : "");
      return {
        capabilities: new Set(),
        navigate: async () => ({ ok: true, value: undefined }),
        reload: async () => ({ ok: true, value: undefined }),
        click: unsupported, hover: unsupported, fill: unsupported, typeFocused: unsupported, pressKey: unsupported,
        select: unsupported, setChecked: unsupported,
        readText: async () => ({ ok: true, value: shown }),
        count: async () => 0,
        check: async (_ladder, expect) => ({ pass: expect.kind === "text_contains" && shown.includes(expect.text), actual: shown }),
        environment: async () => ({ os: process.platform, resolution: [0, 0] }),
        close: async () => {},
      };
    },
    close: async () => {},
  }),
});
`;

const UNION = `Type.Object({
    sign_on: Type.Optional(Type.Union([
      Type.Object({ user: Type.String(), password: Type.String({ ...keyRole({ secret: true, references: "env" }) }) }),
      Type.String(),
    ])),
    note: Type.Optional(Type.String()),
  })`;

function project(schema: string, kind?: string, capabilities?: string, extra?: string): TmpProject {
  const p = tmpProject();
  projects.push(p);
  p.write("package.json", "{}");
  p.write("plugins/inventory.ts", plugin(schema, kind, capabilities, extra));
  return p;
}

function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), "latin1"))
    .join("\n");
}

describe("a project adapter's keys reach launch resolved", () => {
  test("a secret inside a union is resolved before launch, and its value is redacted from every output", async () => {
    const p = project(UNION);
    const dump = join(p.dir, "launch.json");
    const spec = p.write(
      "sign-on.flow.yaml",
      [
        "name: Sign on",
        "app: inventory",
        "sign_on:",
        "  user: clerk",
        "  password: ${INV_PASSWORD}",
        "steps:",
        // Fails on purpose: the console shows the password, and the failure message must not.
        "  - assert: page shows nobody",
        "",
      ].join("\n"),
    );
    const r = await runCli(["record", spec, "--author", "rules", "--json"], {
      cwd: p.dir,
      env: { INV_PASSWORD: PASSWORD, INV_DUMP: dump, FLOWPROOF_STEP_TIMEOUT_MS: "500" },
    });
    expect(existsSync(dump)).toBe(true);
    expect(JSON.parse(readFileSync(dump, "utf8"))).toEqual({ sign_on: { user: "clerk", password: PASSWORD } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("signed on clerk with");
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    const text = allText(p.dir).replace(readFileSync(dump, "utf8"), "");
    expect(text).not.toContain(PASSWORD);
  }, 60_000);

  test("a key holding ${VAR} with no role that resolves it is refused when the flow loads, at its line, and never launches", async () => {
    const p = project(UNION);
    const dump = join(p.dir, "launch.json");
    const spec = p.write(
      "note.flow.yaml",
      "name: Note\napp: inventory\nnote: ${INV_NOTE}\nsign_on:\n  user: ${INV_USER}\n  password: ${INV_PASSWORD}\nsteps:\n  - assert: page shows no sign-on\n",
    );
    const v = await runCli(["validate", spec], { cwd: p.dir });
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(
      "note.flow.yaml:3:7: error[bad-reference] `note` cannot hold `${INV_NOTE}`: the inventory console does not resolve references in it, so it would reach the app as written",
    );
    expect(v.stderr).toContain("note.flow.yaml:5:9: error[bad-reference] `sign_on.user` cannot hold `${INV_USER}`");
    expect(v.stderr).not.toContain("sign_on.password");
    const r = await runCli(["record", spec, "--author", "rules", "--json"], {
      cwd: p.dir,
      env: { INV_NOTE: "hello", INV_USER: "clerk", INV_PASSWORD: PASSWORD, INV_DUMP: dump },
    });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe("bad-reference");
    expect(existsSync(dump)).toBe(false);
  }, 60_000);

  test("a role where no value is resolved through it is refused when the plugin loads, naming the key", async () => {
    const p = project(`Type.Object({ sign_on: Type.Optional(Type.Not(Type.Object({ password: Type.String(keyRole({ secret: true })) }))) })`);
    const spec = p.write("x.flow.yaml", "name: X\napp: inventory\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["validate", spec, "--json"], { cwd: p.dir });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("plugin-error");
    expect(error.message).toContain("inventory.ts");
    expect(error.message).toContain("key `sign_on.password` has a role inside `not`");
  }, 60_000);

  test("a recorded role inside a list's items is refused when the plugin loads", async () => {
    const p = project(`Type.Object({ hosts: Type.Optional(Type.Array(Type.Object({ name: Type.String(keyRole({ recorded: true })) }))) })`);
    const spec = p.write("x.flow.yaml", "name: X\napp: inventory\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["validate", spec, "--json"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain(
      "key `hosts[].name` is inside a list or a record, so its role cannot have `recorded`",
    );
  }, 60_000);

  test("secrets in a list's items and a record's values are resolved and registered", async () => {
    const p = project(`Type.Object({
      accounts: Type.Optional(Type.Array(Type.Object({ user: Type.String(), password: Type.String(keyRole({ secret: true, references: "env" })) }))),
      tokens: Type.Optional(Type.Record(Type.String(), Type.String(keyRole({ secret: true, references: "env" })))),
      both: Type.Optional(Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String(keyRole({ references: "env" })) })])),
    })`);
    const dump = join(p.dir, "launch.json");
    const spec = p.write(
      "many.flow.yaml",
      [
        "name: Many",
        "app: inventory",
        "accounts:",
        "  - user: clerk",
        "    password: ${INV_PASSWORD}",
        "tokens:",
        "  north: ${INV_TOKEN}",
        "both:",
        "  a: plain",
        "  b: ${INV_B}",
        "steps:",
        "  - assert: page shows nobody",
        "",
      ].join("\n"),
    );
    const r = await runCli(["record", spec, "--author", "rules"], {
      cwd: p.dir,
      env: { INV_PASSWORD: PASSWORD, INV_TOKEN: "tok-5512-canary", INV_B: "bee", INV_DUMP: dump, FLOWPROOF_STEP_TIMEOUT_MS: "500" },
    });
    expect(JSON.parse(readFileSync(dump, "utf8"))).toEqual({
      accounts: [{ user: "clerk", password: PASSWORD }],
      tokens: { north: "tok-5512-canary" },
      both: { a: "plain", b: "bee" },
    });
    // The step fails showing what the console shows: both secrets hidden there and in every file.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("accounts clerk/");
    const text = allText(p.dir).replace(readFileSync(dump, "utf8"), "") + r.stdout + r.stderr;
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("tok-5512-canary");
  }, 60_000);
});

describe("the plugin loader", () => {
  test("refuses `kind: multi`, the multi-surface marker, naming the plugin file", async () => {
    const p = project(UNION, "multi");
    const spec = p.write("w.flow.yaml", "name: W\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["validate", spec, "--json"], { cwd: p.dir });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("plugin-error");
    expect(error.message).toBe('plugins/inventory.ts: the app kind "multi" is reserved: a trace header\'s `app.adapter: multi` marks a multi-surface flow');
  }, 60_000);
});

describe("pointer and key capabilities", () => {
  test("pointer steps are refused at load on a surface without `pointer`, key steps on one without `keyboard`", async () => {
    const p = project(UNION);
    const steps = [
      'Click "Save"',
      'Press the "Save" button',
      'Double-click "Row 1"',
      'Right-click "Row 1"',
      'Click "Map" at 10%,20%',
      "Press Enter",
      "Type clerk",
    ];
    const spec = p.write("pointer.flow.yaml", ["name: Pointer", "app: inventory", "steps:", ...steps.map((s) => `  - rules: ${s}`), ""].join("\n"));
    const r = await runCli(["validate", spec], { cwd: p.dir });
    expect(r.code).toBe(2);
    steps.forEach((s, i) => {
      const need = i >= 5 ? "keyboard" : "pointer";
      expect(r.stderr).toContain(`pointer.flow.yaml:${4 + i}:12: error[unsupported-step] \`${s}\` needs the ${need} capability, which`);
    });
  }, 60_000);

  test("a surface with `keyboard` but no `pointer` takes key steps and refuses pointer ones", async () => {
    const p = project(UNION, "inventory", '["keyboard"]');
    const spec = p.write("keys.flow.yaml", 'name: Keys\napp: inventory\nsteps:\n  - rules: Press Enter\n  - rules: Type clerk\n  - rules: Hover over "Menu"\n');
    const r = await runCli(["validate", spec], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain("keys.flow.yaml:4:");
    expect(r.stderr).not.toContain("keys.flow.yaml:5:");
    expect(r.stderr).toContain('keys.flow.yaml:6:12: error[unsupported-step] `Hover over "Menu"` needs the pointer and hover capabilities, which');
  }, 60_000);
});

describe("grammar refusals on a project adapter's surface", () => {
  test("name the missing grammar form and the surface's title, not the web", async () => {
    const p = project(UNION, "inventory", '["pointer", "keyboard"]', '\n  grammar: { lacks: ["page_url", "css", "reload", "container"] },');
    const spec = p.write(
      "forms.flow.yaml",
      [
        "name: Forms",
        "app: inventory",
        "steps:",
        "  - assert: page url contains /orders",
        '  - rules: Click "css:#save"',
        "  - rules: Reload the page",
        '  - rules: Click the "Pay" in the item containing "Invoice 1"',
        "  - rules: Press F5",
        "",
      ].join("\n"),
    );
    const r = await runCli(["validate", spec], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "forms.flow.yaml:4:13: error[unsupported-step] `page url` cannot be checked on the inventory console: it has no page address (grammar form `page_url`).",
    );
    expect(r.stderr).toContain(
      "forms.flow.yaml:5:18: error[unsupported-step] A `css:` selector cannot be used on the inventory console: it has no CSS selectors (grammar form `css`).",
    );
    expect(r.stderr).toContain(
      "forms.flow.yaml:6:19: error[unsupported-step] `Reload the page` cannot be done on the inventory console: it has no page to reload (grammar form `reload`).",
    );
    expect(r.stderr).toContain("cannot be used on the inventory console: it has no item or container scopes (grammar form `container`).");
    expect(r.stderr).toContain(
      "error[unsupported-step] Function key `F5` cannot be pressed on the inventory console: it takes no function keys (grammar `keys.functionKeys`).",
    );
    expect(r.stderr).toContain('hint: press the control the key would trigger instead, e.g. `Press the "Close" button`');
    expect(r.stderr).not.toContain("web-only");
    expect(r.stderr).not.toContain("a inventory");
  }, 60_000);

  test("a capability refusal names the surface's title", async () => {
    const p = project(UNION);
    const spec = p.write("c.flow.yaml", 'name: C\napp: inventory\nsteps:\n  - rules: Click "Save"\n');
    const r = await runCli(["validate", spec], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'c.flow.yaml:4:12: error[unsupported-step] `Click "Save"` needs the pointer capability, which the inventory console (`app: inventory`) does not have',
    );
  }, 60_000);
});

describe("a plugin's own error codes", () => {
  const ERRORS =
    '\n  errors: { "not-signed-on": { meaning: "The console refused the sign-on.", hint: "check the flow\'s `sign_on:` and the user\'s password" } },';

  test("a declared code, namespaced by the kind, reaches --json output with its declared hint (exit 2)", async () => {
    const p = project(UNION, "inventory", "[]", ERRORS);
    const spec = p.write("s.flow.yaml", "name: S\napp: inventory\nsign_on: nobody\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["record", spec, "--author", "rules", "--json"], { cwd: p.dir, env: { INV_DUMP: join(p.dir, "launch.json") } });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string; diagnostics: Array<{ hint?: string }> } }).error;
    expect(error.code).toBe("inventory/not-signed-on");
    expect(error.message).toBe("the inventory console refused the sign-on of user nobody");
    expect(error.diagnostics[0]?.hint).toBe("check the flow's `sign_on:` and the user's password");
    const human = await runCli(["record", spec, "--author", "rules"], { cwd: p.dir, env: { INV_DUMP: join(p.dir, "launch.json") } });
    expect(human.code).toBe(2);
    expect(human.stderr).toContain("error: the inventory console refused the sign-on of user nobody [inventory/not-signed-on]");
  }, 60_000);

  test("a code the adapter does not declare is a plugin-error naming it", async () => {
    const p = project(UNION, "inventory", "[]", ERRORS);
    const spec = p.write("s.flow.yaml", "name: S\napp: inventory\nsign_on: stray\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["record", spec, "--author", "rules", "--json"], { cwd: p.dir, env: { INV_DUMP: join(p.dir, "launch.json") } });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("plugin-error");
    expect(error.message).toBe("the `app: inventory` adapter raised the error code `inventory/oops`, which it does not declare: something odd");
  }, 60_000);

  test("a malformed `errors` declaration is refused when the plugin loads", async () => {
    const p = project(UNION, "inventory", "[]", '\n  errors: { "Not Signed": { meaning: "x" } },');
    const spec = p.write("s.flow.yaml", "name: S\napp: inventory\nsteps:\n  - assert: page shows x\n");
    const r = await runCli(["validate", spec, "--json"], { cwd: p.dir });
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toBe(
      'plugins/inventory.ts: error code name "Not Signed" must be lowercase letters, digits and dashes (the kind is added: `inventory/<name>`)',
    );
  }, 60_000);
});
