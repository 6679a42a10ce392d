import { describe, expect, test } from "bun:test";
import { loadFlowText, type LoadOptions } from "../../test/support/surfaces.ts";

const WIN: Partial<LoadOptions> = { platform: "win32" };
const load = (text: string, options: Partial<LoadOptions> = WIN) => loadFlowText("w.flow.yaml", text, options);
const problems = (text: string, options: Partial<LoadOptions> = WIN) => {
  const r = load(text, options);
  return r.ok ? [] : r.diagnostics.map((d) => `${d.span?.line}:${d.span?.column} ${d.code} ${d.message}`);
};

describe("Windows apps in a flow", () => {
  test("app: {command, window_title} is app kind windows, kept as written with window: geometry", () => {
    const r = load(
      `name: n\napp: {command: "\\"C:\\\\Program Files\\\\App\\\\app.exe\\" --user \${APP_USER}", window_title: "My App"}\nwindow: {width: 800, height: 600, x: 0, y: 10}\nsteps:\n  - rules: Type 5 into the id:15 field\n  - rules: Press Alt+F4\n`,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.flow.app).toBe("windows");
    expect(r.flow.keys).toEqual({
      command: `"C:\\Program Files\\App\\app.exe" --user \${APP_USER}`,
      window_title: "My App",
      window: { width: 800, height: 600, x: 0, y: 10 },
    });
  });

  test("notepad and calc load with their sugar", () => {
    expect(load("name: n\napp: notepad\nsteps:\n  - rules: Type hello\n  - assert: document contains hello\n").ok).toBe(true);
    expect(load("name: n\napp: calc\nsteps:\n  - rules: Type 12.5\n  - rules: Press plus\n  - assert: display shows 8\n").ok).toBe(true);
  });

  test("on another OS the app is refused at load: requires Windows", () => {
    expect(problems("name: n\napp: notepad\nsteps:\n  - rules: Type hello\n", { platform: "linux" })).toEqual([
      "2:6 unsupported-platform `app: notepad` requires Windows; this machine runs linux",
    ]);
    expect(problems("name: n\napp: {command: a.exe, window_title: A}\nsteps:\n  - rules: Type hello\n", { platform: "darwin" })).toEqual([
      "2:6 unsupported-platform `app: {command, window_title}` requires Windows; this machine runs darwin",
    ]);
  });

  test("bad app mappings: unknown key (with a suggestion), missing key, empty value, ${captured} before any step", () => {
    expect(problems("name: n\napp: {command: a.exe, window_titel: A}\nsteps:\n  - rules: Type x\n")).toEqual([
      "2:23 unknown-key unknown key `window_titel` in `app`: a Windows program is `{command, window_title}`",
    ]);
    expect(problems("name: n\napp: {command: a.exe}\nsteps:\n  - rules: Type x\n")).toEqual(["2:6 missing-key `app` needs `window_title`"]);
    expect(problems('name: n\napp: {command: "", window_title: A}\nsteps:\n  - rules: Type x\n')).toEqual([
      "2:16 bad-value `app.command` must be a non-empty string",
    ]);
    expect(problems('name: n\napp: {command: "a.exe ${captured.f}", window_title: A}\nsteps:\n  - rules: Type x\n')[0]).toContain(
      "bad-reference `app.command` cannot use ${captured.…}",
    );
  });

  test("window: literal integers, width+height together, x+y together and only with a size, no title", () => {
    const w = (window: string) => problems(`name: n\napp: notepad\nwindow: ${window}\nsteps:\n  - rules: Type x\n`);
    expect(w("{width: 800}")).toEqual(["3:9 bad-value `window` gives `width` without `height`; a size needs both"]);
    expect(w("{width: 800, height: 600, y: 3}")).toEqual(["3:9 bad-value `window` gives `y` without `x`; a position needs both"]);
    expect(w("{x: 1, y: 2}")).toEqual(["3:9 bad-value `window` gives a position without a size; give the window's `width` and `height`"]);
    expect(w('{width: "${W}", height: 600}')).toEqual(["3:17 bad-value `width` must be a whole number from 1 to 32767"]);
    expect(w("{width: 800, height: 600, title: Notepad}")).toEqual([
      "3:35 bad-value `window.title` is for vision apps; a Windows app's window is found by `app.window_title`",
    ]);
    expect(w("{width: 800, height: 600, left: 3}")).toEqual(["3:35 unknown-key unknown key `left` in `window`"]);
  });

  test("window: on a web flow points at the viewport; on an api flow it is refused", () => {
    expect(problems('name: n\napp: web\nurl: http://127.0.0.1/\nwindow: {width: 800, height: 600}\nsteps:\n  - rules: Click "A"\n')).toEqual([
      "4:1 unsupported-feature `window:` sizes a desktop window; a web flow sizes its page with the browser's viewport",
    ]);
    expect(problems("name: n\napp: api\nwindow: {width: 800, height: 600}\nsteps:\n  - assert_no_secret_leak: ${A}\n")).toEqual([
      "3:1 unsupported-feature `window:` belongs to `app: {command, window_title}`, `app: notepad`, `app: calc` or `app: vision`; the flow is `app: api`",
    ]);
  });

  test("a Windows app has no url", () => {
    expect(problems("name: n\napp: notepad\nurl: http://x/\nsteps:\n  - rules: Type x\n")).toEqual([
      "3:1 unknown-key a Windows app has no start page: `url:` belongs to web flows",
    ]);
  });

  test("the Windows grammar subset: css and hover refused naming the program, double- and right-click and F-keys allowed, calc keys checked", () => {
    expect(
      problems(
        'name: n\napp: {command: a.exe, window_title: A}\nsteps:\n  - rules: Click "css:#save"\n  - rules: Hover over "File"\n  - rules: Press F12\n  - rules: Double-click "File"\n  - rules: Right-click "File"\n',
      ),
    ).toEqual([
      "4:18 unsupported-step A `css:` selector cannot be used on a Windows program: it has no CSS selectors (grammar form `css`).",
      "5:12 unsupported-step `Hover over` cannot be done on a Windows program: a desktop window has no page to go to, reload or resize, no hover and no file input.",
    ]);
    expect(problems("name: n\napp: calc\nsteps:\n  - rules: Press bogus\n")).toEqual(["4:18 unknown-step `bogus` is not a calculator key."]);
  });
});
