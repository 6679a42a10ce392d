// Finds Firefox and starts it headless with its WebDriver BiDi socket on a free port (no
// geckodriver: Firefox speaks BiDi itself). The process is managed as a Chromium one is
// (launch.ts): its own process group, killed with flowproof, its temporary profile removed.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { findOnPath, isExecutable, launchBrowser, type LaunchedBrowser } from "../launch.ts";

export const FIREFOX_INSTALL_HINT = "install Firefox (Debian/Ubuntu: `apt-get install firefox-esr`) or point FLOWPROOF_FIREFOX at a Firefox executable";

const NAMES = ["firefox-esr", "firefox"];
const USUAL_PATHS = [
  "/usr/lib/firefox-esr/firefox-esr",
  "/usr/lib/firefox/firefox",
  "/Applications/Firefox.app/Contents/MacOS/firefox",
  "C:\\Program Files\\Mozilla Firefox\\firefox.exe",
];

/** `FLOWPROOF_FIREFOX` (an explicit choice that is wrong is an error, never a switch), then `firefox-esr` and `firefox` on PATH, then the usual install paths. */
export function findFirefox(env: Readonly<Record<string, string | undefined>> = process.env): { path?: string; tried: string[] } {
  const explicit = env["FLOWPROOF_FIREFOX"];
  if (explicit) return existsSync(explicit) ? { path: explicit, tried: [] } : { tried: [`FLOWPROOF_FIREFOX=${explicit} (does not exist)`] };
  const named = findOnPath(NAMES, env);
  if (named) return { path: named, tried: [] };
  const found = USUAL_PATHS.find(isExecutable);
  return found ? { path: found, tried: [] } : { tried: [`${NAMES.join(", ")} on PATH`, "the usual install paths"] };
}

/**
 * Preferences for a browser under test: no first-run pages, updates or telemetry, and nothing
 * that reaches the network on its own (Firefox's remote agent adds its recommended ones too).
 */
export const FIREFOX_PREFS: Readonly<Record<string, string | number | boolean>> = {
  "browser.shell.checkDefaultBrowser": false,
  "browser.startup.homepage_override.mstone": "ignore",
  "browser.startup.page": 0,
  "datareporting.policy.dataSubmissionEnabled": false,
  "toolkit.telemetry.reportingpolicy.firstRun": false,
  "app.update.enabled": false,
  "app.update.auto": false,
  "app.normandy.enabled": false,
  "browser.newtabpage.enabled": false,
  "extensions.update.enabled": false,
  "browser.safebrowsing.malware.enabled": false,
  "browser.safebrowsing.phishing.enabled": false,
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "browser.download.dir": "",
  "browser.download.useDownloadDir": true,
  "browser.download.folderList": 2,
  "browser.download.always_ask_before_handling_new_types": false,
  "media.autoplay.default": 0,
  "ui.prefersReducedMotion": 0,
  "layout.css.devPixelsPerPx": "1.0",
};

/** The profile's user.js: one `user_pref(name, value);` line per preference. */
export function userJs(prefs: Readonly<Record<string, string | number | boolean>>): string {
  return Object.entries(prefs)
    .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
    .join("\n");
}

/**
 * What a first start of Firefox writes that spares every later start its work: the startup cache
 * (compiled browser scripts), the add-on database and the certificate and key stores. Nothing a page
 * leaves (cookies, history, HTTP cache, storage) is among them.
 */
export const PROFILE_TEMPLATE_FILES = [
  "startupCache",
  "extensions.json",
  "addonStartup.json.lz4",
  "compatibility.ini",
  "prefs.js",
  "cert9.db",
  "key4.db",
  "pkcs11.txt",
  "search.json.mozlz4",
  "times.json",
] as const;

/**
 * Where the profile template of this Firefox build is kept (the temporary directory, named by the
 * executable's path, size and time, and by the user): a new build or another user gets its own.
 */
export function profileTemplateDir(executable: string, dir: string = tmpdir()): string {
  let key = executable;
  try {
    const real = realpathSync(executable);
    const stat = statSync(real);
    key = `${real}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    // an executable that cannot be read gets a template named by its path
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return join(dir, `flowproof-firefox-template-${uid}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}`);
}

/** A staging copy older than this was left by a flowproof that ended mid-copy (a copy takes well under a second). */
const STALE_STAGING_MS = 10 * 60_000;

/** Removes the staging copies of `template` a flowproof killed while copying left behind. */
export function removeStaleStaging(template: string, now = Date.now()): void {
  const prefix = `${basename(template)}.staging-`;
  let names: string[];
  try {
    names = readdirSync(dirname(template)).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dirname(template), name);
    try {
      if (now - statSync(path).mtimeMs > STALE_STAGING_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already, or another user's: left alone
    }
  }
}

/** Keeps the template files of a profile Firefox has closed as `template` (atomically; a template already there wins). */
export function keepProfileTemplate(profile: string, template: string): boolean {
  if (existsSync(template) || !existsSync(join(profile, "startupCache"))) return false;
  removeStaleStaging(template);
  const staging = mkdtempSync(`${template}.staging-`);
  try {
    for (const name of PROFILE_TEMPLATE_FILES) {
      const from = join(profile, name);
      if (existsSync(from)) cpSync(from, join(staging, name), { recursive: true });
    }
    renameSync(staging, template);
    return true;
  } catch {
    return false; // another run kept one first, or the disk refused: the next start is a fresh one
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A launched Firefox, and whether its profile began from a template. */
export interface LaunchedFirefox extends LaunchedBrowser {
  /** True when the profile was copied from this build's template (see `keepProfileTemplate`). */
  readonly fromTemplate: boolean;
  /** Closes Firefox through BiDi's `browser.close` (a full shutdown, which writes the startup cache) and keeps its profile as the template. */
  closeKeepingTemplate(send: (method: string) => Promise<unknown>, timeoutMs?: number): Promise<void>;
}

/**
 * Starts Firefox; resolves with its BiDi socket (`ws://127.0.0.1:<port>/session`). The profile
 * starts from this build's template when there is one (a start then costs about half the CPU of
 * a fresh profile's), otherwise empty. Closing stops the process at once (SIGKILL): the profile is
 * temporary, so nothing in it needs to be flushed.
 */
export async function launchFirefox(
  executable: string,
  options: { headed?: boolean; windowSize?: [number, number]; downloadsDir?: string; templateDir?: string; signal?: AbortSignal } = {},
): Promise<LaunchedFirefox> {
  const [w, h] = options.windowSize ?? [1280, 800];
  const template = profileTemplateDir(executable, options.templateDir);
  let fromTemplate = false;
  let keep = false;
  const browser = await launchBrowser(executable, {
    headed: options.headed === true,
    ...(options.signal ? { signal: options.signal } : {}),
    start: {
      profilePrefix: "flowproof-firefox-",
      stopSignal: "SIGKILL",
      beforeRemove: (profile) => {
        if (keep) keepProfileTemplate(profile, template);
      },
      argv: (profile) => {
        if (existsSync(template)) {
          try {
            cpSync(template, profile, { recursive: true });
            fromTemplate = true;
          } catch {
            // a template half gone (removed by a cleaner): Firefox rebuilds whatever is missing
          }
        }
        writeFileSync(
          join(profile, "user.js"),
          userJs({ ...FIREFOX_PREFS, ...(options.downloadsDir ? { "browser.download.dir": options.downloadsDir } : {}) }),
        );
        return [
          ...(options.headed ? [] : ["--headless"]),
          "--no-remote",
          "--profile",
          profile,
          "--remote-debugging-port",
          "0",
          `--window-size=${w},${h}`,
          "about:blank",
        ];
      },
      announce: /WebDriver BiDi listening on (ws:\/\/\S+)/,
    },
  });
  return {
    wsUrl: `${browser.wsUrl.replace(/\/+$/, "")}/session`,
    executable: browser.executable,
    pid: browser.pid,
    fromTemplate,
    get exitReason() {
      return browser.exitReason;
    },
    onExit: (listener) => browser.onExit(listener),
    close: () => browser.close(),
    async closeKeepingTemplate(send, timeoutMs = 5000) {
      if (browser.exitReason === undefined) {
        keep = true;
        const exited = new Promise<void>((resolve) => browser.onExit(() => resolve()));
        await send("browser.close").catch(() => undefined);
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
        clearTimeout(timer);
        // A browser that did not shut down in time is stopped, and its half-written profile is not kept.
        if (browser.exitReason === undefined) keep = false;
      }
      await browser.close();
    },
  };
}
