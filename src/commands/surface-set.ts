// The driver registry of a multi-surface flow: one driver per named surface, launched lazily at
// its first `in:` block, kept alive, exactly one active at a time. It is itself an AppDriver
// that forwards to the active surface, so the step loop and the run recorder stay unaware of
// surfaces; activation happens between steps (the loop observer's stepStarted).
import type { AppDriver, Attempt, Capability } from "../plugins/api.ts";
import type { SurfaceSpec } from "../spec/surfaces.ts";
import type { AppInfo } from "../trace/schema.ts";
import { resolveStartUrl } from "./start-url.ts";
import { filePaths } from "../plugins/file-paths.ts";
import type { OpenedSurface } from "./surface.ts";
import { launchOf, recordedKeys, type Launch, type ResolveContext } from "./launch-config.ts";
import { FlowproofError } from "../diagnostics/diagnostic.ts";
import type { SurfaceCatalog } from "../spec/surface-kinds.ts";

/** The trace header's `apps` map. */
export type SurfacesHeader = Record<string, AppInfo>;

/** What record writes into the header's `apps` map: each surface's kind, url and recorded keys as written. */
export function surfacesHeader(apps: Readonly<Record<string, SurfaceSpec>>, catalog: SurfaceCatalog): SurfacesHeader {
  return Object.fromEntries(
    Object.entries(apps).map(([name, a]) => {
      const kind = catalog.kinds.get(a.app);
      const keys = kind ? recordedKeys(kind, a.keys, false).entry : {};
      return [name, { name, adapter: a.app, ...(a.url ? { url: a.url.raw } : {}), ...keys }];
    }),
  );
}

/** Where a surface's launch comes from besides its header entry. */
export interface SurfaceSources {
  /** The header's fields beside `app`: keys every surface shares (web's `mock:`, `session:`, `browser:`). */
  readonly top: Readonly<Record<string, unknown>>;
  /** Each surface as the spec writes it now: the source of its unrecorded keys (a login's password). */
  readonly spec: Readonly<Record<string, SurfaceSpec>>;
  /** The spec's top-level keys, for shared keys a surface does not write. */
  readonly sharedSpec?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The surface registry's entries from the header's `apps` map (record builds the same map first,
 * so both open alike): start URLs resolved now; each launch config resolved at the surface's
 * first activation, with the captures made so far, every resolved value joining `secrets`.
 */
export function surfaceEntries(
  apps: SurfacesHeader,
  sources: SurfaceSources,
  catalog: SurfaceCatalog,
  ctx: ResolveContext & { readonly flowPath: string },
): Record<string, SurfaceEntry> {
  return Object.fromEntries(
    Object.entries(apps).map(([name, recorded]) => {
      const kind = catalog.kinds.get(recorded.adapter);
      const entry: SurfaceEntry = {
        kind: recorded.adapter,
        ui: kind?.steps !== "structured",
        ...(recorded.url !== undefined ? { url: filePaths().url("the surface's url", resolveStartUrl(recorded.url, ctx.flowPath, ctx.env, ctx.secrets)) } : {}),
        launchAt: (captures) => {
          if (!kind) return { config: {}, context: {} };
          try {
            return launchOf(
              kind,
              {
                entry: recorded,
                top: sources.top,
                spec: sources.spec[name]?.keys,
                sharedSpec: sources.sharedSpec,
                where: `surface \`${name}\``,
                surface: true,
              },
              { ...ctx, captures },
            );
          } catch (error) {
            // Never a launch against the literal reference: the run stops, naming what is missing.
            if (error instanceof FlowproofError && error.code !== "unresolved-reference") throw error;
            throw new SurfaceActivationError(
              "unresolved-reference",
              `surface \`${name}\` cannot start: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        },
      };
      return [name, entry];
    }),
  );
}

/** A surface whose window must hold the foreground for its input (a Windows app): brought to the front when a block starts on it. */
interface DesktopSurface {
  bringToFront?(): Promise<Attempt>;
}

export interface SurfaceEntry {
  readonly kind: string;
  /** Whether the surface has a UI (its adapter's steps are not `structured`): its driver describes the screen in the header. */
  readonly ui: boolean;
  /** The surface's start URL, resolved; absent for a surface with no start page. */
  readonly url?: string;
  /** The adapter's launch, resolved at the surface's first activation with the captures made so far. */
  readonly launchAt: (captures: ReadonlyMap<string, string>) => Launch;
}

export class SurfaceActivationError extends FlowproofError {
  constructor(code: "bad-trace" | "browser-error" | "unsupported-step" | "unresolved-reference" | "step-failed", message: string) {
    super({ code, message });
  }
}

export class SurfaceSet implements AppDriver {
  readonly #entries: ReadonlyMap<string, SurfaceEntry>;
  readonly #open: (entry: SurfaceEntry, launch: Launch) => Promise<OpenedSurface>;
  readonly #opened = new Map<string, OpenedSurface>();
  /** How long a surface's start page may take to load at its first activation (the run's navigation bound). */
  readonly #navigationMs: number;
  #active: { name: string; driver: AppDriver; url: string } | undefined;

  constructor(entries: Readonly<Record<string, SurfaceEntry>>, open: (entry: SurfaceEntry, launch: Launch) => Promise<OpenedSurface>, navigationMs = 30_000) {
    this.#entries = new Map(Object.entries(entries));
    this.#open = open;
    this.#navigationMs = navigationMs;
  }

  /** A declared surface's start URL (resolved), if it has one. */
  urlOf(name: string): string | undefined {
    return this.#entries.get(name)?.url;
  }

  /** The active surface's name. */
  get active(): string | undefined {
    return this.#active?.name;
  }

  /** The active surface's start URL: what `Go to /path` is relative to. */
  get baseUrl(): string {
    return this.#active?.url ?? "about:blank";
  }

  /**
   * Foregrounds `name`, launching it and opening its URL the first time; `captures` (the values
   * remembered so far) resolve a Windows app surface's launch command then.
   */
  async activate(name: string, captures: ReadonlyMap<string, string> = new Map()): Promise<void> {
    if (this.#active?.name === name) return;
    const entry = this.#entries.get(name);
    if (!entry)
      throw new SurfaceActivationError(
        "bad-trace",
        `the trace names surface \`${name}\`, which is not declared (declared: ${[...this.#entries.keys()].join(", ")})`,
      );
    let opened = this.#opened.get(name);
    if (!opened) {
      opened = await this.#open(entry, entry.launchAt(captures));
      this.#opened.set(name, opened);
      if (entry.url !== undefined) {
        const nav = await opened.driver.navigate(entry.url, this.#navigationMs);
        if (!nav.ok) throw new SurfaceActivationError("browser-error", `surface \`${name}\` could not open ${entry.url}: ${nav.detail}`);
      }
    }
    // A desktop surface's window comes to the front at each block boundary.
    const front = await (opened.driver as DesktopSurface).bringToFront?.();
    if (front && !front.ok) throw new SurfaceActivationError("step-failed", `surface \`${name}\` could not be brought to the front: ${front.detail}`);
    this.#active = { name, driver: opened.driver, url: entry.url ?? "about:blank" };
  }

  get #d(): AppDriver {
    if (!this.#active) throw new SurfaceActivationError("bad-trace", "no surface is active yet");
    return this.#active.driver;
  }

  get capabilities(): ReadonlySet<Capability> {
    return this.#active?.driver.capabilities ?? new Set<Capability>();
  }

  navigate: AppDriver["navigate"] = (url, timeoutMs) => this.#d.navigate(url, timeoutMs);
  reload: AppDriver["reload"] = (timeoutMs) => this.#d.reload(timeoutMs);
  click: AppDriver["click"] = (ladder, options) => this.#d.click(ladder, options);
  hover: AppDriver["hover"] = (ladder) => this.#d.hover(ladder);
  fill: AppDriver["fill"] = (ladder, text, options) => this.#d.fill(ladder, text, options);
  typeFocused: AppDriver["typeFocused"] = (text, options) => this.#d.typeFocused(text, options);
  pressKey: AppDriver["pressKey"] = (key, modifiers) => this.#d.pressKey(key, modifiers);
  select: AppDriver["select"] = (ladder, values, exact) => this.#d.select(ladder, values, exact);
  setChecked: AppDriver["setChecked"] = (ladder, checked) => this.#d.setChecked(ladder, checked);
  readText: AppDriver["readText"] = (ladder) => this.#d.readText(ladder);
  count: AppDriver["count"] = (ladder) => this.#d.count(ladder);
  check: AppDriver["check"] = (ladder, expect) => this.#d.check(ladder, expect);
  // The trace header's `env` describes a UI surface when one was opened (an api surface has no screen).
  environment: AppDriver["environment"] = () => {
    const ui = [...this.#opened].find(([name]) => this.#entries.get(name)?.ui === true);
    return (ui?.[1].driver ?? this.#d).environment();
  };

  /** Facts each opened surface records into its `apps` header entry (a Windows app's element backend and geometry as applied). */
  surfaceFacts(): Record<string, Readonly<Record<string, unknown>>> {
    return Object.fromEntries(
      [...this.#opened].flatMap(([name, s]) => {
        const facts = s.driver.appInfo?.();
        return facts && Object.keys(facts).length > 0 ? [[name, facts] as const] : [];
      }),
    );
  }

  #screenOf: string | undefined;
  /**
   * Whether the screen may have changed since the last call: the active surface's own signal, and
   * always after a switch to another surface (the previous frame shows another one). A surface
   * without a signal always answers yes.
   */
  screenChanged: NonNullable<AppDriver["screenChanged"]> = async () => {
    const active = this.#active;
    if (!active) return true;
    const signal = active.driver.screenChanged;
    const changed = signal ? await signal.call(active.driver).catch(() => true) : true;
    const switched = this.#screenOf !== active.name;
    this.#screenOf = active.name;
    return changed || switched;
  };

  // Optional members forward when the active driver has them; a missing one is a clear fault.
  captureFrame: NonNullable<AppDriver["captureFrame"]> = () => this.#need("captureFrame").call(this.#d);
  rectsFor: NonNullable<AppDriver["rectsFor"]> = (targets) => this.#need("rectsFor").call(this.#d, targets);
  pointFor: NonNullable<AppDriver["pointFor"]> = (ladder, at) => this.#need("pointFor").call(this.#d, ladder, at);
  debugSnapshot: NonNullable<AppDriver["debugSnapshot"]> = (redact) => this.#need("debugSnapshot").call(this.#d, redact);
  // A surface that cannot tell when it changed never ends a retry's interval early.
  untilChange: NonNullable<AppDriver["untilChange"]> = () => this.#active?.driver.untilChange?.() ?? new Promise<void>(() => undefined);
  untilClosed: NonNullable<AppDriver["untilClosed"]> = () => this.#active?.driver.untilClosed?.() ?? Promise.resolve();
  // Never holds: a capture must not outlive its surface being the active one, or its later calls
  // (the pixels, the redaction rects) could reach another surface. The recorder then waits for it.
  holdInput: NonNullable<AppDriver["holdInput"]> = () => false;
  drag: NonNullable<AppDriver["drag"]> = (source, onto) => this.#need("drag").call(this.#d, source, onto);
  upload: NonNullable<AppDriver["upload"]> = (ladder, path) => this.#need("upload").call(this.#d, ladder, path);
  armDialog: NonNullable<AppDriver["armDialog"]> = (plan) => this.#need("armDialog").call(this.#d, plan);
  dialogOutcome: NonNullable<AppDriver["dialogOutcome"]> = () => this.#need("dialogOutcome").call(this.#d);
  downloads: NonNullable<AppDriver["downloads"]> = (take) => this.#need("downloads").call(this.#d, take);
  scroll: NonNullable<AppDriver["scroll"]> = (ladder, to) => this.#need("scroll").call(this.#d, ladder, to);
  history: NonNullable<AppDriver["history"]> = (direction, timeoutMs) => this.#need("history").call(this.#d, direction, timeoutMs);
  clearStorage: NonNullable<AppDriver["clearStorage"]> = (what) => this.#need("clearStorage").call(this.#d, what);
  setCookie: NonNullable<AppDriver["setCookie"]> = (name, value) => this.#need("setCookie").call(this.#d, name, value);
  setViewport: NonNullable<AppDriver["setViewport"]> = (width, height) => this.#need("setViewport").call(this.#d, width, height);
  // An agent surface runs its block as one execution of the agent.
  runAgent: NonNullable<AppDriver["runAgent"]> = (request) => {
    const run = this.#d.runAgent;
    if (!run) throw new SurfaceActivationError("unsupported-step", `surface \`${this.#active?.name}\` is not an agent surface`);
    return run.call(this.#d, request);
  };
  // The active surface observes the step's effects when it can; otherwise nothing is observed.
  observeEffect: NonNullable<AppDriver["observeEffect"]> = (ladder) => this.#active?.driver.observeEffect?.(ladder) ?? Promise.resolve(undefined);
  recordedLadder: NonNullable<AppDriver["recordedLadder"]> = (ladder) => this.#active?.driver.recordedLadder?.(ladder) ?? Promise.resolve(undefined);

  #need<
    K extends
      | "debugSnapshot"
      | "captureFrame"
      | "rectsFor"
      | "pointFor"
      | "drag"
      | "upload"
      | "armDialog"
      | "dialogOutcome"
      | "downloads"
      | "scroll"
      | "history"
      | "clearStorage"
      | "setCookie"
      | "setViewport",
  >(member: K): NonNullable<AppDriver[K]> {
    const fn = this.#d[member];
    if (!fn) throw new SurfaceActivationError("unsupported-step", `surface \`${this.#active?.name}\` cannot ${member}`);
    return fn as NonNullable<AppDriver[K]>;
  }

  /** Closes every launched surface (their drivers and sessions). */
  async close(): Promise<void> {
    for (const o of this.#opened.values()) {
      await o.driver.close().catch(() => undefined);
      await o.session.close().catch(() => undefined);
    }
    this.#opened.clear();
    this.#active = undefined;
  }
}

/** A multi-surface flow's surfaces opened from one shared session pool (one browser for all of them). */
export interface MultiSurface {
  readonly set: SurfaceSet;
  /** The set as a surface the commands close like any other. */
  readonly surface: OpenedSurface;
  /** Activates the first surface; a failure reads like a failed navigation. */
  start(first: string | undefined): Promise<{ ok: true } | { ok: false; detail: string }>;
  /** A surface's start URL (resolved), if it has one. */
  urlOf(name: string): string | undefined;
}

/** `navigationMs`: the bound of each surface's start page (the run's FLOWPROOF_NAVIGATION_TIMEOUT_MS). */
export function openMultiSurface(
  entries: Readonly<Record<string, SurfaceEntry>>,
  open: (entry: SurfaceEntry, launch: Launch) => Promise<OpenedSurface>,
  closePool: () => Promise<void>,
  navigationMs?: number,
): MultiSurface {
  const set = new SurfaceSet(entries, open, navigationMs);
  return {
    set,
    urlOf: (name) => set.urlOf(name),
    // A plain Error on purpose: nothing launches through this session (each surface opens its own), so a call is a flowproof bug.
    surface: { driver: set, session: { launch: () => Promise.reject(new Error("a multi-surface flow launches its surfaces itself")), close: closePool } },
    async start(first) {
      if (first === undefined) return { ok: false, detail: "the flow has no step" };
      try {
        await set.activate(first);
        return { ok: true };
      } catch (error) {
        return { ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
