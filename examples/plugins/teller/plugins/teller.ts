// The teller app (app.ts) as an element backend of flowproof's one desktop driver, through the
// desktop kit (`flowproof/desktop`): the backend reads the app's controls over its line protocol,
// the surface says how input reaches them, and the kit's driver does the rest (resolving "the
// Amount field" by its label, checks, counts, masks of the PIN, the scene, the debug snapshot,
// the recorded `id:` rungs that replay uses). A Java Swing app through the Java Access Bridge, or
// a terminal's screen buffer, is added the same way. It imports only the package's public faces.
import { defineAdapter, type Attempt, type Capability, type RawFrame } from "flowproof";
import { createDesktopDriver, type DesktopElement, type DesktopSurface, type ElementBackend, type Found, type SurfaceWindow } from "flowproof/desktop";
import { join } from "node:path";

const CAPABILITIES: readonly Capability[] = ["pointer", "keyboard"];
const ROW = 30;

interface Control {
  readonly id: string;
  readonly type: "text" | "edit" | "button";
  readonly name: string;
  readonly value?: string;
  readonly enabled: boolean;
  readonly password?: boolean;
}

/**
 * The app as a process: one request a line, one JSON answer a line. It runs on the runtime running
 * flowproof: Bun, or flowproof's single-file executable acting as Bun (`BUN_BE_BUN`).
 */
class TellerApp {
  readonly #proc = Bun.spawn([process.execPath, join(import.meta.dir, "..", "app.ts")], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, BUN_BE_BUN: "1" },
  });
  readonly #lines = this.#proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  #buffer = "";
  #queue: Promise<unknown> = Promise.resolve();

  /** Sends one request and reads its answer (requests are serialized). */
  ask<T>(line: string): Promise<T> {
    const next = this.#queue.then(async () => {
      this.#proc.stdin.write(`${line}\n`);
      await this.#proc.stdin.flush();
      while (!this.#buffer.includes("\n")) {
        const { value, done } = await this.#lines.read();
        if (done) throw new Error("the teller app exited");
        this.#buffer += value;
      }
      const at = this.#buffer.indexOf("\n");
      const answer = this.#buffer.slice(0, at);
      this.#buffer = this.#buffer.slice(at + 1);
      return JSON.parse(answer) as T;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async quit(): Promise<void> {
    this.#proc.stdin.write("quit\n");
    await this.#proc.stdin.end();
    await this.#proc.exited;
  }
}

const WINDOW: SurfaceWindow = { handle: "teller", title: "Teller - Branch 12", className: "Teller", pid: 0, visible: true };
const done = (tier?: string): Attempt => (tier ? { ok: true, value: undefined, tier } : { ok: true, value: undefined });
const refused = (detail: string): Attempt => ({ ok: false, failed: "unsupported", detail, retryable: false });

/** The element backend: the app's controls as desktop elements, in screen order, one row each. */
function tellerBackend(app: TellerApp): ElementBackend {
  return {
    name: "teller-line-protocol",
    canSearch: async () => true,
    elements: async () => {
      const screen = await app.ask<{ controls: Control[] }>("screen");
      return screen.controls.map(
        (c, i): DesktopElement => ({
          ref: c.id,
          automationId: c.id,
          name: c.name,
          controlType: c.type,
          rect: { x: c.type === "edit" ? 120 : 10, y: i * ROW, width: 200, height: ROW - 4 },
          enabled: c.enabled,
          visible: true,
          focused: false,
          password: c.password === true,
          ...(c.value !== undefined ? { value: c.value } : {}),
        }),
      );
    },
    focus: async () => undefined,
    selectAll: async () => undefined,
    invoke: async (el) => {
      await app.ask(`press ${el.ref}`);
    },
    select: async () => "the teller app has no lists",
  };
}

/** The surface: one window; a click presses, typing sets a field's text. */
function tellerSurface(app: TellerApp): DesktopSurface {
  const act = async (request: string, tier: string): Promise<Attempt> => {
    const r = await app.ask<{ ok: boolean; error?: string }>(request);
    return r.ok ? done(tier) : { ok: false, failed: "not-found", detail: r.error ?? request, retryable: true };
  };
  return {
    capabilities: new Set(CAPABILITIES),
    what: "the teller app",
    nativeIdHint: "`id:<control id>`",
    recordedIdKey: "id",
    goneTitle: WINDOW.title,
    windows: async () => ({ main: WINDOW, shown: [WINDOW] }),
    click: async (f: Found) =>
      f.el.enabled ? act(`press ${f.el.ref}`, f.tier) : { ok: false, failed: "enabled", detail: `"${f.el.name}" is disabled`, retryable: true },
    fill: async (f, text, secret, view) => {
      view.typedInto(f.el.ref, secret);
      return act(`set ${f.el.ref} ${JSON.stringify(text)}`, f.tier);
    },
    typeFocused: async () => refused("the teller app types only into a named field"),
    pressKey: async () => refused("the teller app takes no keys"),
    select: async () => refused("the teller app has no lists"),
    setChecked: async () => refused("the teller app has no check boxes"),
    navigate: async () => done(),
    reload: async () => refused("the teller app has no page to reload"),
    hover: async () => refused("the teller app has no hover"),
    captureFrame: async (): Promise<RawFrame> => {
      throw new Error("the teller app shows no pixels (the surface declares no `screenshot` capability)");
    },
    frameOrigin: async () => ({ x: 0, y: 0 }),
    environment: async () => ({ os: `${process.platform} (teller line protocol)`, resolution: [0, 0] }),
    close: () => app.quit(),
  };
}

export const plugin = defineAdapter({
  kind: "teller",
  title: "the teller app",
  capabilities: CAPABILITIES,
  open: async () => ({
    launch: async () => {
      const app = new TellerApp();
      return createDesktopDriver({ surface: tellerSurface(app), backend: tellerBackend(app) });
    },
    close: async () => {},
  }),
});
