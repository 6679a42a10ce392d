// Finds the Firefox the Firefox tests use (FLOWPROOF_FIREFOX, else firefox-esr or firefox on PATH).
// A missing Firefox FAILS the suite with instructions; it is never a silent skip.
import { FIREFOX_INSTALL_HINT, findFirefox } from "../../plugins/web/bidi/launch.ts";

export function requireFirefox(): string {
  const found = findFirefox(process.env);
  if (!found.path)
    throw new Error(`The Firefox tests need Firefox and none was found (looked at ${found.tried.join("; ")}). ${FIREFOX_INSTALL_HINT}. On Debian: apt-get install -y firefox-esr`);
  return found.path;
}
