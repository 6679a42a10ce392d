import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { tmpProject } from "../../test/support/tmp-project.ts";
import {
  checkMinVersion,
  compareVersions,
  findSuiteFile,
  prepareSuite,
  runEnvFrom,
  runHook,
  startAppServer,
  suiteOfFlow,
  withSuiteHooks,
  withSuiteServer,
} from "./suite-context.ts";
import { SpecError } from "../diagnostics/diagnostic.ts";
import { Lifecycle } from "../plugins/lifecycle.ts";
import { confinedTo } from "../plugins/file-paths.ts";
import { existsSync, readFileSync, readdirSync } from "node:fs";

/** A port nothing listens on (taken from the OS, then released). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Pids of the live processes in process group `pgid` (zombies excluded). */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") out.push(Number(e));
    } catch {
      // gone while listing
    }
  }
  return out;
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

const p = tmpProject();
afterAll(() => p.remove());

describe("suite context", () => {
  test("finds the nearest suite.yaml walking up", () => {
    p.write("suite.yaml", "env: { A: '1' }\n");
    p.write("deep/er/x.txt", "");
    expect(findSuiteFile(join(p.dir, "deep", "er"))).toBe(join(p.dir, "suite.yaml"));
  });
  test("env precedence is process < env_from < env, and env entries compose", () => {
    p.write("suite.yaml", "env:\n  B: from-env\n  C: ${B}-${A}\n  D: ${UNSET_THING}\nenv_from: echo A=minted; echo B=minted\n");
    const lines: string[] = [];
    const ctx = prepareSuite(join(p.dir, "suite.yaml"), { A: "process", Z: "z" }, (l) => lines.push(l));
    expect([ctx.env["A"], ctx.env["B"], ctx.env["C"], ctx.env["Z"], ctx.env["D"]]).toEqual(["minted", "from-env", "from-env-minted", "z", undefined]);
    expect(lines.join("\n")).toContain("WARNING: suite env D is not set");
  });
  test("env_from fails closed on a non-zero exit", () => {
    expect(() => runEnvFrom("exit 4", p.dir, {}, () => undefined)).toThrow(/exit code 4/);
    expect(runEnvFrom("printf 'X=a=b\\n\\n# c\\n'", p.dir, {}, () => undefined)).toEqual({ X: "a=b" });
  });
  test("hooks see FLOWPROOF_SPEC and report a failure", async () => {
    expect(await runHook("before_each", 'test "$FLOWPROOF_SPEC" = f.flow.yaml', p.dir, {}, "f.flow.yaml", () => undefined, new Lifecycle())).toBeUndefined();
    expect(await runHook("after_each", "exit 2", p.dir, {}, "f.flow.yaml", () => undefined, new Lifecycle())).toContain(
      "after_each hook `exit 2` failed (exit code 2)",
    );
  });
  test("compares versions", () => {
    expect(compareVersions("0.1.0", "0.2.0")).toBe(-1);
    expect(compareVersions("1.10.0", "1.9.9")).toBe(1);
    expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
  });
  test("a server command that exits before its url answers is an error with its output", async () => {
    const start = startAppServer(
      { command: "echo listening failed >&2; exit 1", url: "http://127.0.0.1:9/", timeout_seconds: 5, reuse_existing: false },
      p.dir,
      process.env,
      () => undefined,
      new Lifecycle(),
    );
    await expect(start).rejects.toBeInstanceOf(SpecError);
    await expect(start).rejects.toThrow(/exited \(exit code 1\) before .* answered: listening failed/);
  });
  test("a url that already answers is reused only when allowed", async () => {
    const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("up") });
    try {
      const url = `http://127.0.0.1:${s.port}/`;
      const reused = await startAppServer(
        { command: "exit 1", url, timeout_seconds: 5, reuse_existing: true },
        p.dir,
        process.env,
        () => undefined,
        new Lifecycle(),
      );
      expect(reused.started).toBe(false);
      await expect(
        startAppServer({ command: "exit 1", url, timeout_seconds: 5, reuse_existing: false }, p.dir, process.env, () => undefined, new Lifecycle()),
      ).rejects.toThrow(/already answers/);
    } finally {
      s.stop(true);
    }
  });
  test("the server's whole process group is owned: a stopping run ends it, grandchildren included, and frees its port", async () => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}/`;
    const lifecycle = new Lifecycle();
    // The shell stays and the server is its grandchild, as with `npm start`.
    const server = await startAppServer(
      { command: `python3 -m http.server ${port} --bind 127.0.0.1 & wait`, url, timeout_seconds: 20, reuse_existing: false },
      p.dir,
      process.env,
      () => undefined,
      lifecycle,
    );
    expect(server.started).toBe(true);
    expect(lifecycle.ownedCount).toBe(1);
    const pgid = findGroupOf(port);
    expect(groupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    await lifecycle.stopAll(10_000);
    expect(lifecycle.ownedCount).toBe(0);
    // SIGKILLed members may take a moment to be reaped.
    for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await Bun.sleep(100);
    expect(groupMembers(pgid)).toEqual([]);
    expect(await answers(url)).toBe(false);
  });

  test("killAll at process exit kills the server's group at once", async () => {
    const port = freePort();
    const lifecycle = new Lifecycle();
    await startAppServer(
      { command: `python3 -m http.server ${port} --bind 127.0.0.1 & wait`, url: `http://127.0.0.1:${port}/`, timeout_seconds: 20, reuse_existing: false },
      p.dir,
      process.env,
      () => undefined,
      lifecycle,
    );
    const pgid = findGroupOf(port);
    lifecycle.killAll();
    for (let i = 0; i < 50 && groupMembers(pgid).length > 0; i++) await Bun.sleep(100);
    expect(groupMembers(pgid)).toEqual([]);
  });

  test("a url whose server accepts and never answers is not ready: the wait ends at timeout_seconds, naming the url", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => undefined } });
    try {
      const url = `http://127.0.0.1:${silent.port}/`;
      const lifecycle = new Lifecycle();
      const started = performance.now();
      await expect(
        startAppServer({ command: "sleep 30", url, timeout_seconds: 3, reuse_existing: false }, p.dir, process.env, () => undefined, lifecycle),
      ).rejects.toThrow(`${url} did not answer within 3 s of starting \`sleep 30\``);
      // Each probe is bounded (2 s), so the wait ends near its bound, not at some socket timeout.
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(lifecycle.ownedCount).toBe(0);
    } finally {
      silent.stop(true);
    }
  }, 30_000);

  test("a confined run refuses a hook, env_from or server command whose program lies outside the root", async () => {
    await confinedTo(p.dir, async () => {
      expect(await runHook("before_each", "../reset.sh --all", p.dir, process.env, "a.flow.yaml", () => undefined, new Lifecycle())).toContain(
        `before_each's program "../reset.sh" is outside the root (${p.dir})`,
      );
      expect(await runHook("after_each", "true", p.dir, process.env, "a.flow.yaml", () => undefined, new Lifecycle())).toBeUndefined();
      await expect(
        startAppServer(
          { command: "/opt/elsewhere/serve", url: "http://127.0.0.1:9/", timeout_seconds: 1, reuse_existing: false },
          p.dir,
          process.env,
          () => undefined,
          new Lifecycle(),
        ),
      ).rejects.toThrow("server.command's program");
    });
  });

  test("a stop request while waiting for the url stops the server and says so", async () => {
    const port = freePort();
    const lifecycle = new Lifecycle();
    const start = startAppServer(
      { command: "sleep 30", url: `http://127.0.0.1:${port}/`, timeout_seconds: 30, reuse_existing: false },
      p.dir,
      process.env,
      () => undefined,
      lifecycle,
    );
    lifecycle.requestStop({ reason: "SIGINT", signal: "SIGINT" });
    await expect(start).rejects.toMatchObject({ code: "interrupted", message: expect.stringContaining("the run was interrupted (SIGINT)") });
    expect(lifecycle.ownedCount).toBe(0);
  });
  test("a stop request ends a running hook's whole group at once", async () => {
    const lifecycle = new Lifecycle();
    const began = Date.now();
    const hook = runHook("before_each", "sleep 30 & sleep 31; wait", p.dir, process.env, "x.flow.yaml", () => undefined, lifecycle);
    expect(lifecycle.ownedCount).toBe(1);
    lifecycle.requestStop({ reason: "SIGTERM", signal: "SIGTERM" });
    expect(await hook).toMatch(/^before_each hook `sleep 30 & sleep 31; wait` failed \(signal SIGTERM\)/);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(lifecycle.ownedCount).toBe(0);
  });
});

describe("the suite of one flow", () => {
  const q = tmpProject();
  afterAll(() => q.remove());

  test("suiteOfFlow names the nearest suite.yaml, runs env_from and applies env; without one, the env is the caller's", () => {
    q.write("s/suite.yaml", "env:\n  B: ${A}-env\nenv_from: echo A=minted\nidentities: { admin: { cookies: [{ name: sid, value: x }] } }\n");
    const lines: string[] = [];
    const suite = suiteOfFlow(q.write("s/deep/f.flow.yaml", ""), { Z: "z" }, (l) => lines.push(l));
    expect(suite.file).toBe(join(q.dir, "s", "suite.yaml"));
    expect([suite.env["A"], suite.env["B"], suite.env["Z"]]).toEqual(["minted", "minted-env", "z"]);
    expect(Object.keys(suite.defaults?.maps?.["identities"] ?? {})).toEqual(["admin"]);
    expect(lines[0]).toMatch(/^suite: .*s\/suite\.yaml$/);
    const alone = suiteOfFlow(q.write("t/f.flow.yaml", ""), { Z: "z" }, () => undefined);
    expect(alone).toEqual({ env: { Z: "z" } });
  });

  test("suiteOfFlow refuses a suite that needs a newer flowproof, before running env_from", () => {
    const marker = join(q.dir, "v", "env_from-ran");
    q.write("v/suite.yaml", `min_version: "99.0.0"\nenv_from: touch ${marker}\n`);
    expect(() => suiteOfFlow(q.write("v/f.flow.yaml", ""), {}, () => undefined)).toThrow(/needs flowproof 99\.0\.0 or newer; this is flowproof /);
    expect(existsSync(marker)).toBe(false);
  });

  test("checkMinVersion names both versions and passes an equal or older minimum", () => {
    const e = (() => {
      try {
        checkMinVersion("suite.yaml", { file: "suite.yaml", env: [], order: [], min_version: "1.2.0" }, "1.1.9");
      } catch (error) {
        return error as SpecError;
      }
      throw new Error("not refused");
    })();
    expect([e.code, e.message, e.diagnostics[0]!.hint]).toEqual([
      "bad-value",
      "suite.yaml needs flowproof 1.2.0 or newer; this is flowproof 1.1.9",
      "upgrade flowproof to 1.2.0 or newer",
    ]);
    expect(() => checkMinVersion("suite.yaml", { file: "suite.yaml", env: [], order: [], min_version: "1.2.0" }, "1.2.0")).not.toThrow();
  });

  test("withSuiteHooks runs the body between before_each and after_each; a failing before_each skips it, after_each always runs", async () => {
    const log = join(q.dir, "h", "hooks.log");
    q.write("h/suite.yaml", `before_each: echo "before $FLOWPROOF_SPEC" >> ${log}\nafter_each: echo after >> ${log}\n`);
    const suite = suiteOfFlow(q.write("h/f.flow.yaml", ""), {}, () => undefined);
    expect(
      await withSuiteHooks(
        suite,
        "f.flow.yaml",
        () => undefined,
        async () => 42,
        new Lifecycle(),
      ),
    ).toEqual({ ran: true, value: 42 });
    await expect(
      withSuiteHooks(
        suite,
        "f.flow.yaml",
        () => undefined,
        async () => {
          throw new Error("boom");
        },
        new Lifecycle(),
      ),
    ).rejects.toThrow("boom");
    expect(readFileSync(log, "utf8")).toBe("before f.flow.yaml\nafter\nbefore f.flow.yaml\nafter\n");

    q.write("h/suite.yaml", `before_each: exit 3\nafter_each: echo after >> ${log}\n`);
    let ran = false;
    const failed = await withSuiteHooks(
      suiteOfFlow(join(q.dir, "h", "f.flow.yaml"), {}, () => undefined),
      "f.flow.yaml",
      () => undefined,
      async () => (ran = true),
      new Lifecycle(),
    );
    expect(failed).toEqual({ ran: false, hookError: "before_each hook `exit 3` failed (exit code 3)" });
    expect(ran).toBe(false);
    expect(readFileSync(log, "utf8").endsWith("after\nafter\n")).toBe(true);

    q.write("h/suite.yaml", "after_each: exit 4\n");
    expect(
      await withSuiteHooks(
        suiteOfFlow(join(q.dir, "h", "f.flow.yaml"), {}, () => undefined),
        "f.flow.yaml",
        () => undefined,
        async () => "kept",
        new Lifecycle(),
      ),
    ).toEqual({ ran: true, value: "kept", hookError: "after_each hook `exit 4` failed (exit code 4)" });
  });

  test("withSuiteServer starts the suite's server for the body and stops it after, also when the body throws", async () => {
    const port = freePort();
    const url = `http://127.0.0.1:${port}/`;
    q.write("w/suite.yaml", `server:\n  command: exec python3 -m http.server ${port} --bind 127.0.0.1\n  url: ${url}\n  timeout_seconds: 20\n`);
    const suite = suiteOfFlow(q.write("w/f.flow.yaml", ""), process.env, () => undefined);
    expect(
      await withSuiteServer(
        suite,
        () => undefined,
        () => answers(url),
        new Lifecycle(),
      ),
    ).toBe(true);
    expect(await answers(url)).toBe(false);
    await expect(
      withSuiteServer(
        suite,
        () => undefined,
        async () => {
          throw new Error("body failed");
        },
        new Lifecycle(),
      ),
    ).rejects.toThrow("body failed");
    expect(await answers(url)).toBe(false);
  });
});

/** The process group of the python server listening on `port` (found by its command line). */
function findGroupOf(port: number): number {
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, "utf8").split("\0");
      if (cmd.includes("http.server") && cmd.includes(String(port))) {
        const stat = readFileSync(`/proc/${e}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      }
    } catch {
      // gone while listing
    }
  }
  throw new Error(`no http.server on port ${port}`);
}
