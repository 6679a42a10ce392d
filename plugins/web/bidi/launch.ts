// Finds Firefox and starts it headless with its WebDriver BiDi socket on a free port (no
// geckodriver: Firefox speaks BiDi itself). The process is managed as a Chromium one is
// (launch.ts): its own process group, killed with flowproof, its temporary profile removed.
import { accessSync, constants, existsSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { launchBrowser, type LaunchedBrowser } from "../launch.ts";

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
  const isExecutable = (p: string) => {
    try {
      if (!statSync(p).isFile()) return false;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false; // missing or not executable: keep looking
    }
  };
  const dirs = (env["PATH"] ?? "").split(delimiter).filter(Boolean);
  for (const name of NAMES)
    for (const dir of dirs)
      for (const ext of process.platform === "win32" ? [".exe", ""] : [""]) {
        const p = join(dir, name + ext);
        if (isExecutable(p)) return { path: p, tried: [] };
      }
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

/** Starts Firefox with a fresh profile; resolves with its BiDi socket (`ws://127.0.0.1:<port>/session`). */
export async function launchFirefox(
  executable: string,
  options: { headed?: boolean; windowSize?: [number, number]; downloadsDir?: string } = {},
): Promise<LaunchedBrowser> {
  const [w, h] = options.windowSize ?? [1280, 800];
  const browser = await launchBrowser(executable, {
    headed: options.headed === true,
    start: {
      profilePrefix: "flowproof-firefox-",
      argv: (profile) => {
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
    get exitReason() {
      return browser.exitReason;
    },
    onExit: (listener) => browser.onExit(listener),
    close: () => browser.close(),
  };
}
