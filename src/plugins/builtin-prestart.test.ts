import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropPrestarts, hasPrestarts, keepPrestartsFor, prestartFor } from "./builtin-prestart.ts";
import { requireChromium } from "../../test/support/chromium.ts";

let dir = "";
afterEach(async () => {
  await dropPrestarts();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

/** A temp project: `files` written under it (paths relative to it). */
function project(files: Readonly<Record<string, string>>): string {
  dir = mkdtempSync(join(tmpdir(), "flowproof-prestart-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const WEB = 'name: Web\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - Click "Go"\n';

describe("prestartFor: the browser a flow file surely needs, started first", () => {
  test("a web flow's Chromium starts; an api flow, a missing file or a suite default it cannot take start nothing", () => {
    const env = { FLOWPROOF_CHROME: requireChromium() };
    const root = project({
      "web.flow.yaml": WEB,
      "api.flow.yaml": "name: Api\napp: api\nsteps: []\n",
      // The suite.yaml above the flow is read too: its `browser:` default gives this flow flags of its own.
      "private/suite.yaml": "browser:\n  args: [--lang=de]\n",
      "private/flows/web.flow.yaml": WEB,
    });
    expect(prestartFor(join(root, "api.flow.yaml"), env, false)).toBeUndefined();
    expect(prestartFor(join(root, "missing.flow.yaml"), env, false)).toBeUndefined();
    expect(prestartFor(join(root, "private", "flows", "web.flow.yaml"), env, false)).toBeUndefined();
    expect(hasPrestarts()).toBe(false);
    expect(prestartFor(join(root, "web.flow.yaml"), env, false)).toEqual({ engine: "chromium", headed: false });
    expect(hasPrestarts()).toBe(true);
  });

  test("surfaces that are not web stop the early browser; a web surface keeps it", async () => {
    const root = project({ "web.flow.yaml": WEB });
    prestartFor(join(root, "web.flow.yaml"), { FLOWPROOF_CHROME: requireChromium() }, false);
    await keepPrestartsFor(["web", "api"]);
    expect(hasPrestarts()).toBe(true);
    await keepPrestartsFor(["api"]);
    expect(hasPrestarts()).toBe(false);
  });
});
