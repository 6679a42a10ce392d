import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prelaunch } from "./prelaunch.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";
import { dropPrestarts, hasPrestarts } from "../plugins/builtin-prestart.ts";
import { requireChromium } from "../../test/support/chromium.ts";

let dir = "";
afterEach(async () => {
  await dropPrestarts();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

function flows(): { web: string; api: string } {
  dir = mkdtempSync(join(tmpdir(), "flowproof-prelaunch-"));
  const web = join(dir, "web.flow.yaml");
  const api = join(dir, "api.flow.yaml");
  writeFileSync(web, 'name: Web\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - Click "Go"\n');
  writeFileSync(api, "name: Api\napp: api\nsteps: []\n");
  return { web, api };
}

describe("prelaunch: the command lines that start their browser first", () => {
  test("run, record and heal of one headless web flow start it, owned by the lifecycle until the command ends", async () => {
    const { web } = flows();
    const env = { FLOWPROOF_CHROME: requireChromium() };
    for (const command of ["run", "record", "heal"] as const) {
      const lifecycle = new Lifecycle();
      const end = prelaunch(command, [web], env, lifecycle);
      expect(end).toBeDefined();
      expect(hasPrestarts()).toBe(true);
      expect(lifecycle.ownedCount).toBe(1);
      await end!();
      expect(hasPrestarts()).toBe(false);
      expect(lifecycle.ownsNothing).toBe(true);
    }
  });

  test("a stop request of the process stops the early browser with everything else it owns", async () => {
    const { web } = flows();
    const lifecycle = new Lifecycle();
    expect(prelaunch("run", [web, "--recording-detail", "off"], { FLOWPROOF_CHROME: requireChromium() }, lifecycle)).toBeDefined();
    await lifecycle.stopAll(10_000);
    expect(hasPrestarts()).toBe(false);
  });

  test("nothing starts for an api flow, a directory, --help, a bad command line, --root, a grid or a headed run", () => {
    const { web, api } = flows();
    const env = { FLOWPROOF_CHROME: requireChromium() };
    const lines: readonly (readonly string[])[] = [
      [api],
      [dir],
      [web, "--help"],
      [web, "--no-such-flag"],
      [web, api],
      [join(dir, "missing.flow.yaml")],
      [web, "--root", dir],
      [web, "--grid", "http://127.0.0.1:1/wd/hub"],
      [web, "--keep-open"],
    ];
    for (const argv of lines) {
      const lifecycle = new Lifecycle();
      expect(prelaunch("run", argv, env, lifecycle)).toBeUndefined();
      expect(hasPrestarts()).toBe(false);
      expect(lifecycle.ownsNothing).toBe(true);
    }
    expect(prelaunch("run", [web], { ...env, FLOWPROOF_HEADED: "1" }, new Lifecycle())).toBeUndefined();
    expect(prelaunch("run", [web], { ...env, FLOWPROOF_GRID_URL: "http://127.0.0.1:1/wd/hub" }, new Lifecycle())).toBeUndefined();
    // `--grid local` keeps the browser on this machine.
    expect(prelaunch("run", [web, "--grid", "local"], env, new Lifecycle())).toBeDefined();
  });
});
