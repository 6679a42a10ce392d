// The vision test bed, a Citrix/RDP stand-in: the Tk form (test/fixtures/vision/form.tcl) runs on a
// hidden Xvfb display, x11vnc serves that display on loopback, and TigerVNC's viewer shows it on a
// second Xvfb display, where the vision driver reads and drives the viewer's window. One bed per
// test FILE: startVisionBed() in beforeAll, stop() in afterAll. Every process runs in its own
// process group, registered with the group guard, so none outlives the test process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { guardGroup } from "../../src/plugins/api.ts";
import { openX11Screen } from "../../plugins/vision/x11/screen.ts";

export const FORM_TCL = resolve(import.meta.dir, "../fixtures/vision/form.tcl");
/** The remote desktop's size: the form's window fills it, so the viewer's window is this size. */
export const DESKTOP = { width: 700, height: 480 } as const;
/** The name x11vnc gives the desktop; the viewer's title is `<name> - TigerVNC`. */
export const DESKTOP_NAME = "Payments remote";

/** The 7-step flow of docs/vision.md on the bed's remote desktop, shown 1:1 at the screen's corner. */
export const PAY_FLOW = [
  "name: Pay a vendor through the remote desktop",
  "app: vision",
  `window: {title: "${DESKTOP_NAME}", width: ${DESKTOP.width}, height: ${DESKTOP.height}, x: 0, y: 0}`,
  "steps:",
  '  - rules: Type ACME Ltd into the "Payee" field',
  '  - rules: Type 42.50 into the "Amount" field',
  '  - rules: Click "Save"',
  "  - assert: page shows Saved ACME Ltd, 42.50",
  '  - rules: Click the 2nd "Pay"',
  "  - assert: page shows Paid 1002",
  '  - rules: Click "Clear"',
  "",
].join("\n");
export const VIEWER_TITLE = `${DESKTOP_NAME} - TigerVNC`;
export const FORM_TITLE = "Payments - Flowproof Vision Fixture";
export const INSTALL_HINT = "apt-get install -y xvfb x11vnc tigervnc-viewer tk fonts-dejavu-core";

export type FormVariant = "normal" | "regressed";

interface Started {
  readonly name: string;
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  readonly release: () => void;
  /** The tail of what it wrote on stderr. */
  readonly stderr: () => string;
}

export interface VisionBed {
  /** The hidden display the form runs on. */
  readonly appDisplay: string;
  /** The display the viewer shows it on: the one the vision driver reads. */
  readonly viewDisplay: string;
  /** Every process the bed started and still runs (pids). */
  pids(): number[];
  /** (Re)starts the form on the hidden display and waits until the viewer shows it. */
  startForm(variant?: FormVariant): Promise<void>;
  /**
   * Starts a small window titled `title` on the viewer's display at the given rectangle (over the
   * viewer); with `grab`, it holds a global grab of the keyboard and pointer (as an open menu
   * does). Returns its stop.
   */
  cover(title: string, rect: { x: number; y: number; width: number; height: number }, options?: { grab?: boolean }): Promise<() => Promise<void>>;
  /** Ends every process of the bed (terminate, then kill) and waits until each is gone. */
  stop(): Promise<void>;
}

/** Throws naming the apt-get command when a tool of the bed is missing. */
export function requireVisionTools(): void {
  const missing = ["Xvfb", "x11vnc", "xtigervncviewer", "wish"].filter((t) => Bun.which(t) === null);
  if (missing.length > 0) throw new Error(`the vision test bed needs ${missing.join(", ")}; install them with: ${INSTALL_HINT}`);
}

/** Reads a stream until `pattern` matches what came so far (bounded); answers the match. */
async function waitFor(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpExecArray> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const m = pattern.exec(text);
      if (m) return m;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const next = await Promise.race([
        reader.read(),
        new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
      if (next === undefined || next.done) throw new Error(`${what}: no ${pattern} within ${timeoutMs} ms; it wrote: ${text.slice(-800)}`);
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}

/** Pixels (a share) that may differ between the form and the viewer's picture of it: a caret blink. */
const VIEWER_DIFF_ALLOWED = 0.005;

/**
 * The share of the pixels of the form's window on `appDisplay` that the viewer's window on
 * `viewDisplay` (the remote desktop 1:1) shows differently, by more than 48 in a channel;
 * undefined while either window is missing.
 */
async function viewerDifference(appDisplay: string, viewDisplay: string): Promise<number | undefined> {
  const app = openX11Screen(appDisplay);
  const view = openX11Screen(viewDisplay);
  try {
    const form = (await app.windows()).find((w) => w.title === FORM_TITLE);
    const viewer = (await view.windows()).find((w) => w.title === VIEWER_TITLE);
    if (!form || !viewer) return undefined;
    const [a, b] = [await app.capture(form), await view.capture(viewer)];
    const width = Math.min(a.width, b.width);
    const height = Math.min(a.height, b.height);
    let differ = 0;
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * a.width + x) * 4;
        const j = (y * b.width + x) * 4;
        if (Math.abs(a.rgba[i]! - b.rgba[j]!) > 48 || Math.abs(a.rgba[i + 1]! - b.rgba[j + 1]!) > 48 || Math.abs(a.rgba[i + 2]! - b.rgba[j + 2]!) > 48)
          differ++;
      }
    return differ / (width * height);
  } finally {
    await app.close();
    await view.close();
  }
}

/** Whether a window titled `title` is mapped on `display` (read with the vision surface's own X11 screen). */
async function hasWindow(display: string, title: string): Promise<boolean> {
  const screen = openX11Screen(display);
  try {
    return (await screen.windows()).some((w) => w.title === title);
  } finally {
    await screen.close();
  }
}

/**
 * How long a start-up step of the bed may take: generous, since a busy machine (CI with other work
 * beside it) can be many times slower than an idle one. Each wait still ends as soon as its event
 * happens, and at once when the process it waits on exits.
 */
export const BED_START_MS = Number(process.env["FLOWPROOF_TEST_BED_START_MS"] ?? 90_000);

/** The last few KiB a process wrote on stderr, read as it goes (for a failure message). */
function stderrTail(proc: Subprocess<"ignore", "pipe", "pipe">): () => string {
  let tail = "";
  const decoder = new TextDecoder();
  void (async () => {
    const reader = proc.stderr.getReader();
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        tail = (tail + decoder.decode(next.value, { stream: true })).slice(-4096);
      }
    } catch {
      // the stream closed with the process: what was read is kept
    }
  })();
  return () => tail.trim();
}

/**
 * Waits until `check` holds, at most `timeoutMs`; fails at once when `watched` exits first. The
 * failure says what was seen: `seen()` (the windows on the display) and the watched process's state
 * and stderr.
 */
async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  context: { watched?: Started & { stderr: () => string }; seen?: () => Promise<string> } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const started = Date.now();
  while (!(await check())) {
    const exited = context.watched?.proc.exitCode ?? context.watched?.proc.signalCode ?? null;
    if (Date.now() > deadline || exited !== null) {
      const parts = [`${what} within ${exited !== null ? `${Date.now() - started} ms: ${context.watched!.name} exited (${exited}) first` : `${timeoutMs} ms`}`];
      if (context.seen) parts.push(`seen: ${await context.seen().catch((e: unknown) => `(could not read: ${String(e)})`)}`);
      if (context.watched)
        parts.push(
          `${context.watched.name} ${exited === null ? "is still running" : "is gone"}; its stderr ends: ${JSON.stringify(context.watched.stderr().slice(-800))}`,
        );
      throw new Error(parts.join("; "));
    }
    await Bun.sleep(50);
  }
}

/** The titles of the windows mapped on `display`, for a failure message. */
async function windowTitles(display: string): Promise<string> {
  const screen = openX11Screen(display);
  try {
    return JSON.stringify((await screen.windows()).map((w) => w.title));
  } finally {
    await screen.close();
  }
}

/** A free loopback TCP port (bound and released at once; x11vnc binds it right after). */
function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

/** A bare X display: one Xvfb with no window on it (its own process group, guarded). */
export interface BareDisplay {
  readonly display: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a bare Xvfb (its own process group, guarded), for checks that need an X server and nothing
 * on it: a vision flow there finds no window; a headed browser (--keep-open, codegen) shows on it.
 */
export async function startBareDisplay(size = "640x480", needs = "a bare X display"): Promise<BareDisplay> {
  if (Bun.which("Xvfb") === null) throw new Error(`${needs} needs Xvfb, which was not found; on Debian: apt-get install -y xvfb`);
  const proc = Bun.spawn(["Xvfb", "-displayfd", "1", "-screen", "0", `${size}x24`, "-nolisten", "tcp"], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const release = guardGroup(proc.pid);
  const stop = async (): Promise<void> => {
    try {
      process.kill(-proc.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
    await proc.exited;
    release();
  };
  try {
    const m = await waitFor(proc.stdout, /^(\d+)\n/m, BED_START_MS, "Xvfb");
    return { display: `:${m[1]}`, pid: proc.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function startVisionBed(variant: FormVariant = "normal"): Promise<VisionBed> {
  requireVisionTools();
  const home = mkdtempSync(join(tmpdir(), "flowproof-vision-"));
  const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8" };
  const running: Started[] = [];
  const spawn = (name: string, argv: string[], extraEnv: Record<string, string> = {}): Subprocess<"ignore", "pipe", "pipe"> => {
    // Its own process group (detached), guarded: killed with the test process however it ends.
    const proc = Bun.spawn(argv, { env: { ...env, ...extraEnv }, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
    running.push({ name, proc, release: guardGroup(proc.pid), stderr: stderrTail(proc) });
    return proc;
  };
  const end = async (p: Started): Promise<void> => {
    try {
      process.kill(-p.proc.pid, "SIGTERM");
    } catch {
      // the group is gone already
    }
    const gone = await Promise.race([p.proc.exited.then(() => true), Bun.sleep(3_000).then(() => false)]);
    if (!gone) {
      try {
        process.kill(-p.proc.pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      await p.proc.exited;
    }
    p.release();
    running.splice(running.indexOf(p), 1);
  };
  const xvfb = async (name: string, size: string): Promise<string> => {
    // -displayfd: Xvfb picks a free display number and writes it once it accepts clients.
    const proc = spawn(name, ["Xvfb", "-displayfd", "1", "-screen", "0", `${size}x24`, "-nolisten", "tcp", "-dpi", "96"]);
    const m = await waitFor(proc.stdout, /^(\d+)\n/m, BED_START_MS, name);
    return `:${m[1]}`;
  };
  const stop = async (): Promise<void> => {
    for (const p of [...running].reverse()) await end(p);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const appDisplay = await xvfb("Xvfb (app)", `${DESKTOP.width}x${DESKTOP.height}`);
    const viewDisplay = await xvfb("Xvfb (viewer)", "1024x768");
    const startForm = async (v: FormVariant = "normal"): Promise<void> => {
      const old = running.find((p) => p.name === "form");
      if (old) await end(old);
      const form = spawn("form", ["wish", FORM_TCL, ...(v === "regressed" ? ["regressed"] : [])], { DISPLAY: appDisplay });
      await until(() => hasWindow(appDisplay, FORM_TITLE), BED_START_MS, `the form's window did not appear on ${appDisplay}`, {
        watched: running.find((p) => p.proc === form)!,
        seen: () => windowTitles(appDisplay),
      });
    };
    await startForm(variant);
    const port = freePort();
    const vnc = spawn("x11vnc", [
      "x11vnc",
      "-display",
      appDisplay,
      "-localhost",
      "-rfbport",
      String(port),
      "-nopw",
      "-forever",
      "-shared",
      "-desktop",
      DESKTOP_NAME,
      "-noxdamage",
      "-noxfixes",
      "-noxrecord",
      "-nobell",
      "-nosel",
      "-noipv6",
      "-wait",
      "5",
      "-defer",
      "5",
    ]);
    await waitFor(vnc.stdout, /^PORT=\d+/m, BED_START_MS, "x11vnc");
    // The viewer connects once; on a busy machine its first connection can fail (x11vnc still
    // setting up the session), so a viewer that exits before its window shows is started again.
    for (let attempt = 1; ; attempt++) {
      const viewer = spawn("viewer", [
        "xtigervncviewer",
        "-display",
        viewDisplay,
        "-SecurityTypes",
        "None",
        "-ReconnectOnError=0",
        "-AlertOnFatalError=0",
        "-RemoteResize=0",
        // Lossless full colour always: with its defaults the viewer picks JPEG and fewer colours
        // when it judges the link slow (as on a loaded machine), and a lossy frame reads differently.
        "-AutoSelect=0",
        "-FullColor=1",
        "-PreferredEncoding=Tight",
        "-NoJPEG=1",
        "-AcceptClipboard=0",
        "-SendClipboard=0",
        "-SendPrimary=0",
        "-MenuKey=",
        "-geometry",
        `${DESKTOP.width}x${DESKTOP.height}+0+0`,
        `127.0.0.1::${port}`,
      ]);
      const entry = running.find((p) => p.proc === viewer)!;
      try {
        await until(() => hasWindow(viewDisplay, VIEWER_TITLE), BED_START_MS, `the viewer's window did not appear on ${viewDisplay}`, {
          watched: entry,
          seen: () => windowTitles(viewDisplay),
        });
        break;
      } catch (error) {
        if (attempt >= 3 || entry.proc.exitCode === null) throw error;
        await end(entry);
      }
    }
    return {
      appDisplay,
      viewDisplay,
      pids: () => running.map((p) => p.proc.pid),
      // A restarted form is ready once the viewer shows it: under load the remote desktop's
      // updates lag behind the app's display.
      async startForm(v) {
        await startForm(v);
        let seen = "no picture of both windows";
        const shows = async (): Promise<boolean> => {
          const share = await viewerDifference(appDisplay, viewDisplay);
          if (share !== undefined) seen = `${(share * 100).toFixed(1)} % of the pixels differed last`;
          return share !== undefined && share <= VIEWER_DIFF_ALLOWED;
        };
        await until(shows, BED_START_MS, "the viewer did not come to show the restarted form", {
          watched: running.find((p) => p.name === "form")!,
          seen: async () => `${seen}; windows ${await windowTitles(viewDisplay)}`,
        });
      },
      async cover(title, rect, options = {}) {
        const script = join(home, `cover-${running.length}.tcl`);
        const grab = options.grab ? "update\ngrab set -global .\n" : "";
        writeFileSync(
          script,
          `wm title . {${title}}\nwm geometry . ${rect.width}x${rect.height}+${rect.x}+${rect.y}\n. configure -background "#884444"\n${grab}`,
        );
        const proc = spawn(`cover ${title}`, ["wish", script], { DISPLAY: viewDisplay });
        const entry = running.find((p) => p.proc === proc)!;
        await until(() => hasWindow(viewDisplay, title), BED_START_MS, `the covering window did not appear on ${viewDisplay}`, {
          watched: entry,
          seen: () => windowTitles(viewDisplay),
        });
        return () => end(entry);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
