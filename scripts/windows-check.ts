// `bun scripts/windows-check.ts`: checks the Windows bindings (plugins/windows/ffi) on a real
// Windows machine. It starts notepad, finds its window, types into it and reads the text back,
// captures a frame, reads MSAA and UI Automation facts, then ends notepad; it prints one line per
// check and exits 1 when any failed. On another system it says so and exits 2.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly ms: number;
}

const checks: Check[] = [];

async function check(name: string, fn: () => string | Promise<string>): Promise<void> {
  const t0 = performance.now();
  try {
    const detail = await fn();
    checks.push({ name, ok: true, detail, ms: performance.now() - t0 });
  } catch (e) {
    checks.push({ name, ok: false, detail: e instanceof Error ? e.message : String(e), ms: performance.now() - t0 });
  }
  const c = checks[checks.length - 1];
  if (c !== undefined) console.log(`${c.ok ? "ok  " : "FAIL"} ${c.name} (${Math.round(c.ms)} ms): ${c.detail}`);
}

async function poll<T>(what: string, fn: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await Bun.sleep(100);
  }
}

async function main(): Promise<number> {
  if (process.platform !== "win32") {
    console.error(
      `scripts/windows-check.ts checks the Windows bindings on a Windows machine; this is ${process.platform}. On Linux, test/e2e/wine-bed.test.ts runs them under Wine.`,
    );
    return 2;
  }
  const u = await import("../plugins/windows/ffi/user32.ts");
  const g = await import("../plugins/windows/ffi/gdi32.ts");
  const k = await import("../plugins/windows/ffi/kernel32.ts");
  const com = await import("../plugins/windows/ffi/com.ts");
  const acc = await import("../plugins/windows/ffi/oleacc.ts");
  const uia = await import("../plugins/windows/ffi/uia.ts");

  const before = new Set(u.findWindows((w) => w.className === "Notepad").map((w) => w.hwnd));
  Bun.spawn(["notepad.exe"], { stdio: ["ignore", "ignore", "ignore"] });
  let hwnd = 0;
  let editor = 0;
  let notepadPid = 0;
  const text = `flowproof windows-check ${Date.now()}`;

  await check("find the notepad window (EnumWindows + JSCallback)", async () => {
    const w = await poll("a new notepad window", () => u.findWindows((x) => x.className === "Notepad" && x.visible && !before.has(x.hwnd))[0]);
    hwnd = w.hwnd;
    notepadPid = w.pid;
    return `hwnd ${w.hwnd}, title "${w.title}", pid ${w.pid}, ${w.rect.width}x${w.rect.height} at ${w.rect.x},${w.rect.y}`;
  });
  if (hwnd === 0) return report();

  await check("find its text area (EnumChildWindows)", () => {
    const kids = u.children(hwnd).map((c) => ({ c, cls: u.className(c) }));
    const found = kids.find((x) => x.cls === "Edit") ?? kids.find((x) => /^RichEdit/i.test(x.cls));
    if (found === undefined) throw new Error(`no Edit or RichEdit child; children: ${kids.map((x) => x.cls).join(", ") || "none"}`);
    editor = found.c;
    return `class ${found.cls}, control id ${u.controlId(found.c)}`;
  });

  await check("bring it to the foreground (SetForegroundWindow)", () => {
    if (!u.bringToForeground(hwnd, k.currentThreadId())) throw new Error(`the foreground is window ${u.foregroundWindow()}, not ${hwnd}`);
    return "GetForegroundWindow answers the notepad window";
  });

  await check("type with SendInput and read back with WM_GETTEXT", async () => {
    if (editor === 0) throw new Error("no text area");
    if (u.foregroundWindow() !== hwnd) throw new Error("notepad is not the foreground window: nothing typed");
    u.typeText(text);
    const got = await poll("the typed text", () => (u.controlText(editor).includes(text) ? u.controlText(editor) : undefined), 5_000);
    return `read ${JSON.stringify(got.slice(0, 60))}`;
  });

  await check("capture a frame (BitBlt → PNG)", () => {
    const c = g.captureWindow(hwnd);
    let nonBlack = 0;
    for (let i = 0; i < c.rgba.length; i += 4) if ((c.rgba[i] ?? 0) + (c.rgba[i + 1] ?? 0) + (c.rgba[i + 2] ?? 0) > 0) nonBlack++;
    const path = join(tmpdir(), "flowproof-windows-check.png");
    writeFileSync(path, c.png);
    if (nonBlack === 0) throw new Error(`the ${c.width}x${c.height} frame is all black (${path})`);
    return `${c.width}x${c.height}, ${Math.round((100 * nonBlack) / (c.width * c.height))}% non-black, written to ${path}`;
  });

  await check("MSAA (AccessibleObjectFromWindow → IAccessible)", () => {
    com.coInitialize("sta");
    const a = acc.accessibleFromWindow(editor === 0 ? hwnd : editor);
    try {
      const f = acc.accessibleFacts(a);
      return `name "${f.name}", role ${f.roleName}, states [${f.states.join(", ")}]`;
    } finally {
      acc.releaseAccessible(a);
    }
  });

  await check("UI Automation (CUIAutomation → ElementFromHandle → properties, FindAll)", () => {
    com.coInitialize("sta");
    const automation = uia.createAutomation();
    const owned: number[] = [automation];
    try {
      const el = uia.elementFromHandle(automation, hwnd);
      owned.push(el);
      const f = uia.elementFacts(el);
      const all = uia.trueCondition(automation);
      owned.push(all);
      const kids = uia.findAll(el, uia.TreeScope.Descendants, all);
      owned.push(...kids);
      const edits = uia.propertyCondition(automation, uia.PROPERTY.ControlType, { kind: "i4", value: uia.CONTROL_TYPE.Document });
      owned.push(edits);
      const doc = uia.findFirst(el, uia.TreeScope.Descendants, edits) ?? null;
      let value = "";
      if (doc !== null) {
        owned.push(doc);
        try {
          value = uia.value(doc).slice(0, 40);
        } catch (e) {
          value = `(${e instanceof Error ? e.message : String(e)})`;
        }
      }
      return `name "${f.name}", class ${f.className}, control type ${f.controlType}, ${kids.length} descendants, document value ${JSON.stringify(value)}`;
    } finally {
      for (const p of owned.reverse()) com.release(p);
    }
  });

  await check("end notepad (TerminateProcess)", () => {
    if (!k.terminateProcess(notepadPid)) throw new Error(`could not end process ${notepadPid}`);
    return `process ${notepadPid} ended: ${k.waitProcess(notepadPid, 5_000)}`;
  });
  return report();
}

function report(): number {
  const failed = checks.filter((c) => !c.ok);
  console.log(
    `${checks.length - failed.length} of ${checks.length} checks passed${failed.length > 0 ? `; failed: ${failed.map((c) => c.name).join("; ")}` : ""}`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.exit(await main());
