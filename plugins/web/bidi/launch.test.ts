import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requireFirefox } from "../../../test/support/firefox.ts";
import { isAlive } from "../../../test/support/processes.ts";
import { BidiConnection } from "./connection.ts";
import { FIREFOX_PREFS, findFirefox, launchFirefox, profileTemplateDir, removeStaleStaging, userJs } from "./launch.ts";

const dir = mkdtempSync(join(tmpdir(), "flowproof-fxfind-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findFirefox", () => {
  test("FLOWPROOF_FIREFOX wins; a wrong one is reported, never replaced by another Firefox", () => {
    const exe = join(dir, "my-firefox");
    writeFileSync(exe, "#!/bin/sh\n");
    chmodSync(exe, 0o755);
    expect(findFirefox({ FLOWPROOF_FIREFOX: exe, PATH: "/usr/bin" })).toEqual({ path: exe, tried: [] });
    expect(findFirefox({ FLOWPROOF_FIREFOX: join(dir, "missing"), PATH: "/usr/bin" })).toEqual({
      tried: [`FLOWPROOF_FIREFOX=${join(dir, "missing")} (does not exist)`],
    });
  });

  test("firefox-esr, then firefox, on PATH", () => {
    const bin = join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    for (const name of ["firefox", "firefox-esr"]) {
      writeFileSync(join(bin, name), "#!/bin/sh\n");
      chmodSync(join(bin, name), 0o755);
    }
    expect(findFirefox({ PATH: bin }).path).toBe(join(bin, "firefox-esr"));
    rmSync(join(bin, "firefox-esr"));
    expect(findFirefox({ PATH: bin }).path).toBe(join(bin, "firefox"));
  });
});

test("a staging copy a killed flowproof left is removed once it is old; a fresh one (another run copying now) is kept", () => {
  const template = join(dir, "flowproof-firefox-template-0-abc");
  const old = join(dir, "flowproof-firefox-template-0-abc.staging-OLD");
  const fresh = join(dir, "flowproof-firefox-template-0-abc.staging-NEW");
  const other = join(dir, "flowproof-firefox-template-0-xyz.staging-OLD");
  for (const d of [old, fresh, other]) mkdirSync(join(d, "startupCache"), { recursive: true });
  const now = Date.now();
  utimesSync(old, new Date(now - 3_600_000), new Date(now - 3_600_000));
  utimesSync(other, new Date(now - 3_600_000), new Date(now - 3_600_000));
  removeStaleStaging(template, now);
  expect([existsSync(old), existsSync(fresh), existsSync(other)]).toEqual([false, true, true]);
});

test("user.js writes each preference as a user_pref line", () => {
  expect(userJs({ "a.b": false, "c.d": "x", "e.f": 2 })).toBe('user_pref("a.b", false);\nuser_pref("c.d", "x");\nuser_pref("e.f", 2);');
  expect(FIREFOX_PREFS["app.update.enabled"]).toBe(false);
});

test("launchFirefox starts Firefox with its BiDi socket and a fresh profile; closing stops the process and removes the profile", async () => {
  const browser = await launchFirefox(requireFirefox());
  expect(browser.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/session$/);
  const cmdline = readFileSync(`/proc/${browser.pid}/cmdline`, "utf8").split("\0");
  const profile = cmdline[cmdline.indexOf("--profile") + 1]!;
  expect(profile).toContain("flowproof-firefox-");
  expect(readFileSync(join(profile, "user.js"), "utf8")).toContain("app.update.enabled");
  expect(cmdline).toContain("--headless");
  await browser.close();
  expect(browser.exitReason).toBeDefined();
  expect(isAlive(browser.pid)).toBe(false);
  expect(existsSync(profile)).toBe(false);
}, 60_000);

test("the first Firefox of a build, closed through browser.close, leaves a profile template (startup cache, no page data) that the next start copies", async () => {
  const templates = join(dir, "templates");
  mkdirSync(templates, { recursive: true });
  const executable = requireFirefox();
  const template = profileTemplateDir(executable, templates);
  expect(existsSync(template)).toBe(false);
  const first = await launchFirefox(executable, { templateDir: templates });
  expect(first.fromTemplate).toBe(false);
  const connection = await BidiConnection.connect(first.wsUrl);
  await connection.send("browsingContext.getTree", {});
  await first.closeKeepingTemplate((method) => connection.send(method, {}, 5000));
  expect(isAlive(first.pid)).toBe(false);
  expect(existsSync(join(template, "startupCache"))).toBe(true);
  expect(existsSync(join(template, "extensions.json"))).toBe(true);
  for (const pageData of ["cookies.sqlite", "places.sqlite", "cache2", "storage", "sessionstore.jsonlz4"])
    expect(existsSync(join(template, pageData))).toBe(false);

  const second = await launchFirefox(executable, { templateDir: templates });
  expect(second.fromTemplate).toBe(true);
  const cmdline = readFileSync(`/proc/${second.pid}/cmdline`, "utf8").split("\0");
  const profile = cmdline[cmdline.indexOf("--profile") + 1]!;
  expect(existsSync(join(profile, "startupCache"))).toBe(true);
  expect(readFileSync(join(profile, "user.js"), "utf8")).toContain("app.update.enabled");
  await second.close();
  expect(isAlive(second.pid)).toBe(false);
  expect(existsSync(profile)).toBe(false);
  // a template already there is kept as it is
  expect(existsSync(template)).toBe(true);
}, 90_000);
