// Finds the browser the e2e tests use: the one a headless run takes (the headless shell when it
// is installed). A missing browser FAILS the suite with instructions; it is never a silent skip.
import { findBrowser, INSTALL_HINT } from "../../plugins/web/launch.ts";

export function requireChromium(): string {
  const found = findBrowser(process.env, { headless: true });
  if (!found.path) {
    throw new Error(
      `The end-to-end tests need Chromium and none was found (looked at ${found.tried.join("; ")}). ${INSTALL_HINT}. On Debian: apt-get install -y chromium`,
    );
  }
  return found.path;
}
