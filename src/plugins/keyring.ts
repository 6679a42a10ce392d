// The core credential store on Linux: the kernel keyring through the `keyctl` program (keyutils).
// An adapter that declares `credentials` without keeping them itself has them kept here, one key
// per value, named `flowproof:<kind>:<name>` (`user`, `password`, each field) in the user keyring
// (`@u`; FLOWPROOF_KEYRING names another, e.g. `@s` under `keyctl session`). Values travel on
// keyctl's standard input and output only, never on a command line or in its environment.
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import type { StoredCredentials } from "./adapter-api.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The keyring the values live in: `@u` unless FLOWPROOF_KEYRING names another. */
export const keyringOf = (env: Env): string => env["FLOWPROOF_KEYRING"]?.trim() || "@u";

/** The key a value of `kind`'s credentials is kept under: `flowproof:<kind>:<name>`. */
export const keyName = (kind: string, name: string): string => `flowproof:${kind}:${name}`;

/** How messages name the store of `kind`'s credentials. */
export const keyringWhere = (kind: string, env: Env = process.env): string =>
  `Linux kernel keyring (${keyringOf(env) === "@u" ? "user keyring" : `keyring ${keyringOf(env)}`}), keys "${keyName(kind, "*")}"`;

const storeError = (message: string, hint: string) => new FlowproofError({ code: "credential-store", message, hint });

/** The keyctl program on `env`'s PATH, or undefined. */
export const keyctlPath = (env: Env = process.env): string | undefined => Bun.which("keyctl", { PATH: env["PATH"] ?? "" }) ?? undefined;

function keyctl(args: readonly string[], env: Env, input?: string): { code: number; out: string; err: string } {
  const exe = keyctlPath(env);
  if (!exe)
    throw storeError(
      "the Linux credential store needs the `keyctl` program, and none is on PATH",
      "install keyutils (Debian, Ubuntu: `apt-get install keyutils`), then run the command again",
    );
  const r = Bun.spawnSync([exe, ...args], {
    stdin: input === undefined ? "ignore" : new TextEncoder().encode(input),
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: env["PATH"] ?? "" },
  });
  return { code: r.exitCode ?? 1, out: r.stdout.toString(), err: r.stderr.toString().trim() };
}

const failed = (what: string, err: string) =>
  storeError(`keyctl could not ${what}: ${err || "it gave no reason"}`, "check the keyring with `keyctl show @u`; FLOWPROOF_KEYRING names another keyring");

/** The id of the key `desc`, or undefined when there is none. */
function find(desc: string, env: Env): string | undefined {
  const r = keyctl(["search", keyringOf(env), "user", desc], env);
  if (r.code === 0) return r.out.trim();
  if (/not available|No such/i.test(r.err)) return undefined;
  throw failed(`look up "${desc}"`, r.err);
}

function value(desc: string, env: Env): string | undefined {
  const id = find(desc, env);
  if (id === undefined) return undefined;
  const r = keyctl(["pipe", id], env);
  if (r.code !== 0) throw failed(`read "${desc}"`, r.err);
  return r.out;
}

function remove(desc: string, env: Env): void {
  const id = find(desc, env);
  if (id === undefined) return;
  const r = keyctl(["unlink", id, keyringOf(env)], env);
  if (r.code !== 0) throw failed(`remove "${desc}"`, r.err);
}

/** `kind`'s stored credentials (the user, the password and the given `fields`), or undefined when no user and password are stored. */
export function readKeyring(kind: string, fields: readonly string[], env: Env = process.env): StoredCredentials | undefined {
  const user = value(keyName(kind, "user"), env);
  const password = user === undefined ? undefined : value(keyName(kind, "password"), env);
  if (user === undefined || password === undefined) return undefined;
  const given = fields.flatMap((f) => {
    const v = value(keyName(kind, f), env);
    return v === undefined ? [] : [[f, v] as const];
  });
  return { user, password, fields: Object.fromEntries(given) };
}

/** Stores `kind`'s credentials, replacing any stored before (a field not given is removed). */
export function storeKeyring(kind: string, fields: readonly string[], c: StoredCredentials, env: Env = process.env): void {
  forgetKeyring(kind, fields, env);
  const values: [string, string][] = [["user", c.user], ["password", c.password], ...Object.entries(c.fields).filter(([f]) => fields.includes(f))];
  for (const [name, v] of values) {
    const r = keyctl(["padd", "user", keyName(kind, name), keyringOf(env)], env, v);
    if (r.code !== 0) throw failed(`store "${keyName(kind, name)}"`, r.err);
  }
}

/** Removes `kind`'s credentials; nothing stored is no error. */
export function forgetKeyring(kind: string, fields: readonly string[], env: Env = process.env): void {
  for (const name of ["password", "user", ...fields]) remove(keyName(kind, name), env);
}
