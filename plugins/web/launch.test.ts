import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { CHROME_ARGS, INSTALL_HINT, PROFILE_PREFIX, endpointWebSocketUrl, findBrowser, launchBrowser, sweepStaleProfiles } from "./launch.ts";
import { requireChromium } from "../../test/support/chromium.ts";
import { firstLine } from "../../test/support/cli.ts";

let dir = "";
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = "";
});

/** A fresh temp dir holding empty executable files with the given names. */
function binDir(...names: string[]): string {
  const d = mkdtempSync(join(dir || (dir = mkdtempSync(join(tmpdir(), "flowproof-launch-"))), "bin-"));
  for (const name of names) {
    writeFileSync(join(d, name), "#!/bin/sh\nexit 0\n");
    chmodSync(join(d, name), 0o755);
  }
  return d;
}

describe("findBrowser", () => {
  test("takes FLOWPROOF_CHROME when it points at an existing file", () => {
    const path = join(binDir("my-chrome"), "my-chrome");
    expect(findBrowser({ FLOWPROOF_CHROME: path, PATH: binDir("chromium") })).toEqual({ path, tried: [] });
  });

  test("never falls back to another browser when FLOWPROOF_CHROME points at a missing file", () => {
    const missing = join(binDir(), "no-such-chrome");
    const r = findBrowser({ FLOWPROOF_CHROME: missing, PATH: binDir("chromium") });
    expect(r.path).toBeUndefined();
    expect(r.tried).toEqual([`FLOWPROOF_CHROME=${missing} (does not exist)`]);
  });

  test("prefers FLOWPROOF_CHROME over CHROME", () => {
    const a = join(binDir("a"), "a");
    const b = join(binDir("b"), "b");
    expect(findBrowser({ FLOWPROOF_CHROME: a, CHROME: b }).path).toBe(a);
  });

  test("takes CHROME when FLOWPROOF_CHROME is unset or empty", () => {
    const b = join(binDir("b"), "b");
    expect(findBrowser({ FLOWPROOF_CHROME: "", CHROME: b }).path).toBe(b);
    expect(findBrowser({ CHROME: b }).path).toBe(b);
  });

  test("finds an executable named chromium in a PATH directory", () => {
    const d = binDir("chromium");
    expect(findBrowser({ PATH: d })).toEqual({ path: join(d, "chromium"), tried: [] });
  });

  test("searches PATH directories in order for each name", () => {
    const first = binDir("google-chrome");
    const second = binDir("google-chrome");
    expect(findBrowser({ PATH: [first, second].join(delimiter) }).path).toBe(join(first, "google-chrome"));
  });

  test("prefers chromium over google-chrome whatever the directory order", () => {
    const chrome = binDir("google-chrome");
    const chromium = binDir("chromium");
    expect(findBrowser({ PATH: [chrome, chromium].join(delimiter) }).path).toBe(join(chromium, "chromium"));
  });

  test("says it looked on PATH when no name is found there", () => {
    const r = findBrowser({ PATH: binDir("firefox") });
    expect(r.tried[0]).toBe("chromium, chromium-browser, google-chrome, google-chrome-stable, chrome, msedge, microsoft-edge on PATH");
  });

  test("ignores empty PATH entries", () => {
    const d = binDir("chromium");
    expect(findBrowser({ PATH: `${delimiter}${d}${delimiter}` }).path).toBe(join(d, "chromium"));
  });
});

describe("findBrowser for a headless run", () => {
  test("prefers the headless shell's install path over chromium on PATH", () => {
    const shell = join(binDir("chromium-headless-shell"), "chromium-headless-shell");
    expect(findBrowser({ PATH: binDir("chromium") }, { headless: true, shellPaths: [shell] })).toEqual({ path: shell, tried: [] });
  });

  test("takes a headless shell on PATH when none is at its install path", () => {
    const d = binDir("chromium", "chrome-headless-shell");
    expect(findBrowser({ PATH: d }, { headless: true, shellPaths: [join(binDir(), "missing")] }).path).toBe(join(d, "chrome-headless-shell"));
  });

  test("falls back to the usual browsers when no shell is installed", () => {
    const d = binDir("chromium");
    expect(findBrowser({ PATH: d }, { headless: true, shellPaths: [] }).path).toBe(join(d, "chromium"));
  });

  test("a headed run (the default) never takes the shell, which cannot show a window", () => {
    const shell = join(binDir("chromium-headless-shell"), "chromium-headless-shell");
    const d = binDir("chromium", "chromium-headless-shell");
    expect(findBrowser({ PATH: d }, { shellPaths: [shell] }).path).toBe(join(d, "chromium"));
    expect(findBrowser({ PATH: d }, { headless: false, shellPaths: [shell] }).path).toBe(join(d, "chromium"));
  });

  test("FLOWPROOF_CHROME and CHROME still win over an installed shell", () => {
    const shell = join(binDir("chromium-headless-shell"), "chromium-headless-shell");
    const mine = join(binDir("my-chrome"), "my-chrome");
    expect(findBrowser({ FLOWPROOF_CHROME: mine }, { headless: true, shellPaths: [shell] }).path).toBe(mine);
    expect(findBrowser({ CHROME: mine }, { headless: true, shellPaths: [shell] }).path).toBe(mine);
  });
});

describe("CHROME_ARGS", () => {
  test("runs headless on a free DevTools port without first-run prompts", () => {
    expect(CHROME_ARGS).toContain("--headless=new");
    expect(CHROME_ARGS).toContain("--remote-debugging-port=0");
    expect(CHROME_ARGS).toContain("--no-first-run");
  });
});

describe("INSTALL_HINT", () => {
  test("names both ways to get a browser", () => {
    expect(INSTALL_HINT).toContain("FLOWPROOF_CHROME");
    expect(INSTALL_HINT).toContain("apt-get install chromium");
  });
});

describe("findBrowser skips what cannot run", () => {
  test("ignores a non-executable file and a directory named chromium on PATH", () => {
    const dir = mkdtempSync(join(tmpdir(), "fp-path-"));
    const sub = mkdtempSync(join(tmpdir(), "fp-path2-"));
    try {
      writeFileSync(join(dir, "chromium"), "not a browser");
      chmodSync(join(dir, "chromium"), 0o644);
      const found = findBrowser({ PATH: [dir, sub].join(delimiter) });
      expect(found.path === join(dir, "chromium")).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(sub, { recursive: true, force: true });
    }
  });
});

describe("endpointWebSocketUrl", () => {
  test("takes a ws:// URL as given and asks an http:// endpoint's /json/version for its WebSocket", async () => {
    expect(await endpointWebSocketUrl("ws://127.0.0.1:1/devtools/browser/x")).toBe("ws://127.0.0.1:1/devtools/browser/x");
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === "/json/version"
          ? Response.json({ Browser: "Chrome/1", webSocketDebuggerUrl: "ws://127.0.0.1:9/devtools/browser/abc" })
          : new Response("no", { status: 404 }),
    });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect(await endpointWebSocketUrl(base)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      expect(await endpointWebSocketUrl(`${base}/`)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      expect(await endpointWebSocketUrl(`${base}/json/version`)).toBe("ws://127.0.0.1:9/devtools/browser/abc");
      await expect(endpointWebSocketUrl(`${base}/nope`)).rejects.toMatchObject({
        code: "browser-error",
        message: expect.stringContaining("answered HTTP 404"),
      });
    } finally {
      server.stop(true);
    }
  });

  test("names the URL when nothing answers", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${server.port}`;
    server.stop(true);
    await expect(endpointWebSocketUrl(url)).rejects.toMatchObject({
      code: "browser-error",
      message: expect.stringContaining(`no browser answered at ${url}/json/version`),
    });
  });

  test("refuses an endpoint that is no DevTools URL as a bad value, saying what to write", async () => {
    await expect(endpointWebSocketUrl("ftp://127.0.0.1:9222")).rejects.toMatchObject({
      code: "bad-value",
      message: 'browser endpoint "ftp://127.0.0.1:9222" is not a ws://, wss://, http:// or https:// URL',
    });
  });
});

/** A pid that no process has any more: a child that already exited. */
function deadPid(): number {
  const child = Bun.spawnSync(["sh", "-c", "echo $$"]);
  return Number(child.stdout.toString().trim());
}

/** Every process below (and including) `root`, read from /proc, with start times to tell a reused pid apart. */
function processTree(root: number): Array<{ pid: number; start: string }> {
  const procs: Array<{ pid: number; ppid: number; start: string }> = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const text = readFileSync(`/proc/${e}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(e), ppid: Number(f[1]), start: f[19]! });
    } catch {
      // gone meanwhile
    }
  }
  const out = procs.filter((p) => p.pid === root);
  for (let i = 0; i < out.length; i++) for (const p of procs) if (p.ppid === out[i]!.pid) out.push(p);
  return out;
}

function stillRunning(procs: ReadonlyArray<{ pid: number; start: string }>): number[] {
  return procs
    .filter((p) => {
      try {
        const text = readFileSync(`/proc/${p.pid}/stat`, "utf8");
        const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
        return f[19] === p.start && f[0] !== "Z";
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

async function settled(procs: ReadonlyArray<{ pid: number; start: string }>): Promise<number[]> {
  for (let i = 0; i < 100 && stillRunning(procs).length > 0; i++) await Bun.sleep(50);
  return stillRunning(procs);
}

/** Test cleanup: a browser a failed assertion left behind goes, with its process group. */
function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** A child Bun process that launches a browser, prints its pid and then idles: the child and the browser's pid. */
async function browserInChild(prefix: string): Promise<{ proc: ReturnType<typeof Bun.spawn>; pid: number }> {
  dir = mkdtempSync(join(tmpdir(), prefix));
  const script = join(dir, "hold.ts");
  writeFileSync(
    script,
    `import { launchBrowser } from ${JSON.stringify(join(import.meta.dir, "launch.ts"))};\nconst b = await launchBrowser(${JSON.stringify(requireChromium())});\nconsole.log(b.pid);\nsetInterval(() => undefined, 1000);\n`,
  );
  const proc = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" });
  const pid = Number(await firstLine(proc.stdout));
  expect(pid).toBeGreaterThan(0);
  return { proc, pid };
}

function profileOf(pid: number): string {
  const arg = readFileSync(`/proc/${pid}/cmdline`, "utf8")
    .split("\0")
    .find((a) => a.startsWith("--user-data-dir="));
  return arg!.slice("--user-data-dir=".length);
}

describe("sweepStaleProfiles", () => {
  test("removes the profiles of flowproof processes that are gone and keeps those of running ones", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-sweep-"));
    const dead = `${PROFILE_PREFIX}${deadPid()}-AbC123`;
    const mine = `${PROFILE_PREFIX}${process.pid}-XyZ789`;
    const parent = `${PROFILE_PREFIX}${process.ppid}-QrS456`;
    const unrelated = "flowproof-chrome-notes.txt";
    for (const d of [dead, mine, parent]) mkdirSync(join(dir, d, "Default"), { recursive: true });
    writeFileSync(join(dir, unrelated), "x");
    const removed = sweepStaleProfiles(dir);
    expect(removed).toEqual([join(dir, dead)]);
    expect(readdirSync(dir).sort()).toEqual([mine, parent, unrelated].sort());
  });

  test("an old profile without an owner in its name goes once Chromium's lock names no live process", () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-sweep-"));
    const locked = join(dir, `${PROFILE_PREFIX}Lock01`);
    const orphan = join(dir, `${PROFILE_PREFIX}Orph02`);
    const young = join(dir, `${PROFILE_PREFIX}Yng003`);
    for (const d of [locked, orphan, young]) mkdirSync(d);
    symlinkSync(`host-${process.pid}`, join(locked, "SingletonLock"));
    symlinkSync(`host-${deadPid()}`, join(orphan, "SingletonLock"));
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(locked, hourAgo, hourAgo);
    utimesSync(orphan, hourAgo, hourAgo);
    expect(sweepStaleProfiles(dir)).toEqual([orphan]);
    expect(existsSync(locked) && existsSync(young)).toBe(true);
  });
});

describe("launchBrowser", () => {
  test("names its profile after this process, and close() stops every browser process and removes the profile and its singleton socket directory", async () => {
    // The full browser (what a headed run takes): it keeps a process-singleton socket; the headless shell does not.
    const full = findBrowser(process.env).path;
    if (!full) throw new Error(`this test needs the full Chromium browser, not only its headless shell: ${INSTALL_HINT}`);
    const browser = await launchBrowser(full);
    cleanups.push(() => killGroup(browser.pid));
    const profile = profileOf(browser.pid);
    expect(profile).toStartWith(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
    // Let the helper processes (zygotes, network service) start.
    await Bun.sleep(500);
    const procs = processTree(browser.pid);
    expect(procs.length).toBeGreaterThan(1);
    // Chromium's process-singleton socket lives in a directory of its own in the temp directory.
    const socketDir = dirname(readlinkSync(join(profile, "SingletonSocket")));
    expect(dirname(socketDir)).toBe(tmpdir());
    expect(existsSync(socketDir)).toBe(true);
    await browser.close();
    expect(await settled(procs)).toEqual([]);
    expect(existsSync(profile)).toBe(false);
    expect(existsSync(socketDir)).toBe(false);
    expect(browser.exitReason).toBeDefined();
    await browser.close(); // twice is fine
  }, 60_000);

  test("a start called off (its signal aborted) before the browser announced stops it, removes its profile, and rejects once it is gone", async () => {
    // A browser that starts but never announces DevTools: it writes its pid and profile, then waits.
    const bin = binDir();
    const pidFile = join(bin, "pid");
    writeFileSync(
      join(bin, "slow-chrome"),
      `#!/bin/sh\nfor a in "$@"; do case "$a" in --user-data-dir=*) p="\${a#--user-data-dir=}";; esac; done\necho "$$ $p" > "${pidFile}.tmp" && mv "${pidFile}.tmp" "${pidFile}"\nexec sleep 60\n`,
    );
    chmodSync(join(bin, "slow-chrome"), 0o755);
    const controller = new AbortController();
    const launching = launchBrowser(join(bin, "slow-chrome"), { signal: controller.signal });
    const until = Date.now() + 30_000;
    while (!existsSync(pidFile)) {
      if (Date.now() > until) throw new Error("the fake browser never started");
      await Bun.sleep(10);
    }
    const [pid, profile] = readFileSync(pidFile, "utf8").trim().split(" ");
    cleanups.push(() => killGroup(Number(pid)));
    expect(existsSync(profile!)).toBe(true);
    const procs = processTree(Number(pid));
    expect(procs.map((p) => p.pid)).toContain(Number(pid));
    controller.abort();
    await expect(launching).rejects.toThrow("the browser's start was called off");
    expect(await settled(procs)).toEqual([]);
    expect(existsSync(profile!)).toBe(false);
  }, 60_000);

  test("close() stops a browser on its own throwaway profile outright, and one on a profile the flow named gracefully", async () => {
    const own = await launchBrowser(requireChromium());
    cleanups.push(() => killGroup(own.pid));
    await own.close();
    expect(own.exitReason).toBe("the browser process was killed (SIGKILL)");
    const named = mkdtempSync(join(tmpdir(), "flowproof-named-profile-"));
    cleanups.push(() => rmSync(named, { recursive: true, force: true }));
    const kept = await launchBrowser(requireChromium(), { extraArgs: [`--user-data-dir=${named}`] });
    cleanups.push(() => killGroup(kept.pid));
    await kept.close();
    expect(kept.exitReason).not.toBe("the browser process was killed (SIGKILL)");
    expect(existsSync(named)).toBe(true);
  }, 60_000);

  test("a browser killed by a signal is noticed at once: exit reason, helpers stopped, profile removed", async () => {
    const browser = await launchBrowser(requireChromium());
    cleanups.push(() => killGroup(browser.pid));
    const profile = profileOf(browser.pid);
    await Bun.sleep(500);
    const procs = processTree(browser.pid);
    const reason = new Promise<string>((resolve) => browser.onExit(resolve));
    process.kill(browser.pid, "SIGKILL");
    expect(await reason).toBe("the browser process was killed (SIGKILL)");
    expect(await settled(procs)).toEqual([]);
    expect(existsSync(profile)).toBe(false);
    // close() after the death returns at once.
    await browser.close();
    // A listener added after the exit is told at once.
    expect(await new Promise<string>((resolve) => browser.onExit(resolve))).toBe("the browser process was killed (SIGKILL)");
  }, 60_000);

  test("a process that exits without closing its browser takes the browser and its profile with it", async () => {
    dir = mkdtempSync(join(tmpdir(), "flowproof-exit-"));
    const script = join(dir, "leave.ts");
    // Launches, prints the browser's pid, and exits (without close()) once told to on stdin.
    writeFileSync(
      script,
      `import { launchBrowser } from ${JSON.stringify(join(import.meta.dir, "launch.ts"))};\nconst b = await launchBrowser(${JSON.stringify(requireChromium())});\nconsole.log(b.pid);\nfor await (const _ of console) process.exit(0);\n`,
    );
    const proc = Bun.spawn([process.execPath, script], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    const pid = Number(await firstLine(proc.stdout));
    expect(pid).toBeGreaterThan(0);
    try {
      await Bun.sleep(500);
      const profile = profileOf(pid);
      const procs = processTree(pid);
      expect(procs.length).toBeGreaterThan(1);
      proc.stdin.write("exit\n");
      await proc.stdin.end();
      expect(await proc.exited).toBe(0);
      expect(await settled(procs)).toEqual([]);
      expect(existsSync(profile)).toBe(false);
    } finally {
      killGroup(pid);
    }
  }, 60_000);

  test.if(process.platform === "linux")(
    "a process killed outright (SIGKILL, no hook can run) still takes its browser with it",
    async () => {
      const { proc, pid } = await browserInChild("flowproof-kill-");
      try {
        await Bun.sleep(500);
        const procs = processTree(pid);
        expect(procs.length).toBeGreaterThan(1);
        proc.kill("SIGKILL");
        await proc.exited;
        expect(await settled(procs)).toEqual([]);
      } finally {
        killGroup(pid);
      }
    },
    60_000,
  );

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`a process ended by ${signal} that has no handler of its own takes its browser with it, and still dies of the signal`, async () => {
      const { proc, pid } = await browserInChild("flowproof-signal-");
      try {
        await Bun.sleep(500);
        const profile = profileOf(pid);
        const procs = processTree(pid);
        expect(procs.length).toBeGreaterThan(1);
        proc.kill(signal);
        await proc.exited;
        expect(proc.signalCode).toBe(signal);
        expect(await settled(procs)).toEqual([]);
        expect(existsSync(profile)).toBe(false);
      } finally {
        killGroup(pid);
      }
    }, 60_000);
  }
});
