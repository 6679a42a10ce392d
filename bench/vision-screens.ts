// Captures the real-toolkit screenshots of test/fixtures/vision/screens/ once, from real programs on
// a hidden Xvfb display (no window manager, so a window is exactly what the program draws): a GTK 3
// form (zenity --forms), the same form dark (GTK_THEME=Adwaita:dark) and at its own size on a
// black remote desktop, xcalc (Athena widgets), a Tk list dialog and Wine's About box (a Win32
// dialog; a fresh Wine prefix takes a minute to create). The tests and
// bench/vision-recall.ts read only the committed PNGs; this script is how they were made.
//
//   node_modules/.bin/bun bench/vision-screens.ts [FILE]    (apt-get install -y xvfb zenity x11-apps tk wine64)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodeFramePng, type Frame } from "../plugins/vision/frame.ts";
import { openX11Screen } from "../plugins/vision/x11/screen.ts";

const OUT = resolve(import.meta.dir, "../test/fixtures/vision/screens");
const DISPLAY = ":93";

const TK_LIST = `
wm title . "Choose a vendor"
label .l -text "Pay which vendor?"
listbox .lb -height 4
foreach v {"ACME Ltd" Globex Initech "Umbrella Corp"} { .lb insert end $v }
frame .b
button .b.ok -text OK -width 8
button .b.cancel -text Cancel -width 8
pack .l -anchor w -padx 8 -pady 4
pack .lb -fill x -padx 8
pack .b.ok .b.cancel -side left -padx 6 -pady 6
pack .b
`;

const ZENITY = ["zenity", "--forms", "--title=Expense", "--text=Enter the expense", "--add-entry=Name", "--add-entry=Amount", "--add-entry=Note"];

interface Shot {
  readonly file: string;
  readonly title: string;
  readonly argv: string[];
  readonly env?: Record<string, string>;
  /** Paste the window at the top-left of a canvas this size, this colour (a remote desktop around a dialog). */
  readonly canvas?: { width: number; height: number; rgb: [number, number, number] };
}

function onCanvas(frame: Frame, canvas: NonNullable<Shot["canvas"]>): Frame {
  const rgba = new Uint8Array(canvas.width * canvas.height * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set([...canvas.rgb, 255], i);
  for (let y = 0; y < Math.min(frame.height, canvas.height); y++) {
    const w = Math.min(frame.width, canvas.width);
    rgba.set(frame.rgba.subarray(y * frame.width * 4, (y * frame.width + w) * 4), y * canvas.width * 4);
  }
  return { width: canvas.width, height: canvas.height, rgba };
}

const dir = mkdtempSync(join(tmpdir(), "flowproof-screens-"));
const tcl = join(dir, "list.tcl");
writeFileSync(tcl, TK_LIST);
const ONLY = process.argv[2];
const SHOTS: Shot[] = [
  { file: "gtk-form.png", title: "Expense", argv: ZENITY },
  { file: "gtk-form-black.png", title: "Expense", argv: ZENITY, canvas: { width: 640, height: 400, rgb: [0, 0, 0] } },
  { file: "gtk-dark.png", title: "Expense", argv: ZENITY, env: { GTK_THEME: "Adwaita:dark" } },
  { file: "xcalc.png", title: "Calculator", argv: ["xcalc"] },
  { file: "tk-list.png", title: "Choose a vendor", argv: ["wish", tcl] },
  {
    file: "wine-about.png",
    title: "About Wine 8.0",
    argv: ["/usr/lib/wine/wine64", "winver"],
    env: { WINEPREFIX: process.env["WINEPREFIX"] ?? join(dir, "wine"), WINEDEBUG: "-all", WINEDLLOVERRIDES: "mscoree,mshtml=" },
  },
];

const xvfb = Bun.spawn(["Xvfb", DISPLAY, "-screen", "0", "1024x768x24", "-nolisten", "tcp"], { stdout: "ignore", stderr: "ignore" });
try {
  await Bun.sleep(1500);
  const screen = openX11Screen(DISPLAY);
  for (const shot of SHOTS.filter((s) => !ONLY || s.file === ONLY)) {
    const proc = Bun.spawn(shot.argv, { env: { ...process.env, DISPLAY, NO_AT_BRIDGE: "1", ...shot.env }, stdout: "ignore", stderr: "ignore" });
    try {
      let win;
      for (let i = 0; i < 1200 && !win; i++) {
        win = (await screen.windows()).find((w) => w.title === shot.title);
        if (!win) await Bun.sleep(100);
      }
      if (!win)
        throw new Error(`${shot.argv[0]}: no window titled ${shot.title}; windows: ${(await screen.windows()).map((w) => JSON.stringify(w.title)).join(", ")}`);
      await Bun.sleep(1500); // drawn and settled
      let frame = await screen.capture(win);
      if (shot.canvas) frame = onCanvas(frame, shot.canvas);
      writeFileSync(join(OUT, shot.file), encodeFramePng(frame));
      console.log(`${shot.file}: ${frame.width}×${frame.height}`);
    } finally {
      proc.kill();
      await proc.exited;
    }
  }
  await screen.close();
} finally {
  xvfb.kill();
  await xvfb.exited;
  rmSync(dir, { recursive: true, force: true });
}
