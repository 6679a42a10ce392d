// The refusal every desktop surface gives on a machine it cannot drive: `app: <kind>` needs an OS
// (or a display) this machine lacks. One error class, so a Windows app, a window read as pixels
// and a project's own desktop backend say it alike (code `unsupported-platform`).
import { FlowproofError } from "../../src/plugins/api.ts";

export interface UnsupportedPlatform {
  /** The surface's kind as a flow names it (`windows`, `vision`, `swing`). */
  readonly kind: string;
  /** What the surface needs, as the message's object: `Windows`, `X11 (Linux) or Win32 (Windows)`. */
  readonly needs: string;
  /** The platform this machine runs (process.platform). */
  readonly platform: string;
  /** What to do instead. */
  readonly hint: string;
  /** How the surface reaches what it needs, when it is more than running on it: `reads windows through`. */
  readonly verb?: string;
}

export class UnsupportedPlatformError extends FlowproofError {
  constructor(u: UnsupportedPlatform) {
    super({
      code: "unsupported-platform",
      message: `\`app: ${u.kind}\` ${u.verb ?? "requires"} ${u.needs}; this machine runs ${u.platform}`,
      hint: u.hint,
    });
  }
}
