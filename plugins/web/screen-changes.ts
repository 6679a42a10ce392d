// Whether a web page's screen may have changed since the recorder last looked: the cheap signal
// that lets a step which changed nothing reuse the previous frame instead of paying for a new
// capture. Conservative by construction: anything that can change pixels marks the page dirty,
// anything the signal cannot see counts as dirty, and an answer that cannot be read is dirty.
// Two halves: a page script installed on every new document (same-origin frames included) that
// keeps the flag, and the host side, which adds what only the browser knows (navigation, loading,
// dialogs, crashes) and reads-and-clears the flag in one round trip.
import type { Session } from "./cdp/connection.ts";

/** The page-global name of the read-and-clear function (one per document). */
export const SCREEN_KEY = "__flowproofScreenChanged";

/**
 * Runs in the page (before any page script of each new document). Self-contained: no references
 * outside the function body. Installs `window[key]()`, which answers true when the document's
 * pixels may have changed since its previous call (and on its first), and clears the flag.
 */
function installScreenChanges(key: string): void {
  const w = window as unknown as Record<string, unknown>;
  if (typeof w[key] === "function") return;
  let dirty = true;
  const mark = (): void => {
    dirty = true;
  };
  // Anything input, layout, focus, selection, media, loading or animation can change.
  const EVENTS = [
    "input",
    "change",
    "keydown",
    "keyup",
    "compositionupdate",
    "mousedown",
    "mouseup",
    "mousemove",
    "mouseover",
    "mouseout",
    "click",
    "dblclick",
    "contextmenu",
    "wheel",
    "pointerdown",
    "pointerup",
    "pointermove",
    "touchstart",
    "touchmove",
    "touchend",
    "dragstart",
    "drag",
    "dragover",
    "drop",
    "dragend",
    "scroll",
    "scrollend",
    "focus",
    "blur",
    "focusin",
    "focusout",
    "selectionchange",
    "select",
    "selectstart",
    "resize",
    "load",
    "error",
    "abort",
    "play",
    "playing",
    "pause",
    "seeked",
    "timeupdate",
    "ended",
    "emptied",
    "loadeddata",
    "animationstart",
    "animationiteration",
    "animationend",
    "animationcancel",
    "transitionrun",
    "transitionstart",
    "transitionend",
    "transitioncancel",
    "toggle",
    "beforetoggle",
    "fullscreenchange",
    "visibilitychange",
    "hashchange",
    "popstate",
    "pageshow",
    "beforeprint",
    "afterprint",
    "close",
    "cancel",
  ];
  for (const type of EVENTS) window.addEventListener(type, mark, { capture: true, passive: true });
  document.addEventListener("selectionchange", mark, { capture: true, passive: true });
  try {
    document.fonts?.addEventListener("loadingdone", mark);
  } catch {
    // no FontFaceSet: fonts load with the document's own load events
  }
  // A script that draws on a canvas can change pixels at any time without telling the DOM: once
  // any canvas has a context, every look is dirty.
  let drawing = false;
  const patch = <T extends object>(
    proto: T | undefined,
    name: string,
    make: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown,
  ): void => {
    if (!proto) return;
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    if (!desc || typeof desc.value !== "function") return;
    Object.defineProperty(proto, name, { ...desc, value: make(desc.value as (...args: unknown[]) => unknown) });
  };
  const marking = (original: (...args: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]) {
      dirty = true;
      return original.apply(this, args);
    };
  patch(
    globalThis.HTMLCanvasElement?.prototype,
    "getContext",
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        drawing = true;
        return original.apply(this, args);
      },
  );
  patch(
    globalThis.HTMLCanvasElement?.prototype,
    "transferControlToOffscreen",
    (original) =>
      function (this: unknown, ...args: unknown[]) {
        drawing = true;
        return original.apply(this, args);
      },
  );
  // Programmatic scrolling shows before its scroll event is dispatched, and a Web Animation can
  // start and end between two looks.
  for (const name of [
    "animate",
    "scroll",
    "scrollTo",
    "scrollBy",
    "scrollIntoView",
    "scrollIntoViewIfNeeded",
    "requestFullscreen",
    "showPopover",
    "hidePopover",
    "togglePopover",
    "showModal",
    "show",
    "close",
  ]) {
    patch(globalThis.Element?.prototype, name, marking);
    patch(globalThis.HTMLElement?.prototype, name, marking);
    patch(globalThis.HTMLDialogElement?.prototype, name, marking);
  }
  for (const name of ["scroll", "scrollTo", "scrollBy"]) patch(window, name, marking);
  for (const name of ["scrollTop", "scrollLeft"]) {
    const proto = globalThis.Element?.prototype;
    const desc = proto && Object.getOwnPropertyDescriptor(proto, name);
    if (proto && desc?.set && desc.get) {
      const set = desc.set;
      Object.defineProperty(proto, name, {
        ...desc,
        set(this: Element, v: number) {
          dirty = true;
          set.call(this, v);
        },
      });
    }
  }
  // DOM changes, in the document and in every shadow root (attachShadow is wrapped, so closed
  // roots are seen too). Observing starts at the first look: until then the flag is set anyway.
  const OPTIONS: MutationObserverInit = { subtree: true, childList: true, attributes: true, characterData: true };
  const roots = new Set<Node>();
  let observer: MutationObserver | undefined;
  /** A hidden element added and removed again within one task (a computed-style probe) changes nothing. */
  const meaningful = (records: readonly MutationRecord[]): boolean => {
    const added = new Set<Node>();
    for (const r of records) {
      if (r.type !== "childList") return true;
      for (const n of Array.from(r.addedNodes)) {
        if (n.isConnected) return true;
        added.add(n);
      }
      for (const n of Array.from(r.removedNodes)) if (!added.has(n)) return true;
    }
    return false;
  };
  let grew = true;
  const observe = (root: Node): void => {
    if (roots.has(root)) return;
    roots.add(root);
    observer?.observe(root, OPTIONS);
  };
  const attach = globalThis.Element?.prototype.attachShadow;
  if (attach) {
    Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit): ShadowRoot {
      const root = attach.call(this, init);
      dirty = true;
      observe(root);
      return root;
    };
  }
  /** Open shadow roots the parser attached (declarative shadow DOM), found when elements were added. */
  const findRoots = (): void => {
    const walk = (root: Document | ShadowRoot): void => {
      for (const el of Array.from(root.querySelectorAll("*"))) {
        const inner = el.shadowRoot;
        if (inner) {
          if (!roots.has(inner)) {
            dirty = true;
            observe(inner);
          }
          walk(inner);
        }
      }
    };
    walk(document);
  };
  let animating = false;
  let fingerprint = "";
  /** The focused element's identity across looks. */
  const ids = new WeakMap<Element, number>();
  let nextId = 1;
  /** What the DOM does not report: form values, the focused element and the selection, the window's scroll. */
  const state = (): string => {
    const parts: unknown[] = [window.scrollX, window.scrollY, window.innerWidth, window.innerHeight];
    for (const el of Array.from(document.querySelectorAll("input, select, textarea, option"))) {
      if (el instanceof HTMLInputElement) parts.push(el.value, el.checked, el.indeterminate);
      else if (el instanceof HTMLSelectElement) parts.push(el.selectedIndex);
      else if (el instanceof HTMLTextAreaElement) parts.push(el.value);
      else if (el instanceof HTMLOptionElement) parts.push(el.selected);
    }
    const active = document.activeElement;
    if (active && !ids.has(active)) ids.set(active, nextId++);
    parts.push(active ? ids.get(active) : 0);
    if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) {
      try {
        parts.push(active.selectionStart, active.selectionEnd);
      } catch {
        // an input type without a selection
      }
    }
    const sel = document.getSelection();
    if (sel) parts.push(sel.rangeCount, sel.anchorOffset, sel.focusOffset, sel.toString().length);
    return JSON.stringify(parts);
  };
  /** Pixels that change on their own: running animations, playing media, drawing scripts, SMIL, GIFs, frames we cannot read. */
  const live = (): boolean => {
    if (drawing) return true;
    try {
      if (document.getAnimations().some((a) => a.playState === "running" || a.pending)) return true;
    } catch {
      return true;
    }
    for (const m of Array.from(document.querySelectorAll("video, audio"))) if (!(m as HTMLMediaElement).paused) return true;
    if (document.querySelector("marquee, animate, animateTransform, animateMotion, set, img[src*='.gif' i], img[src^='data:image/gif' i], embed, object"))
      return true;
    return false;
  };
  /** Same-origin frames answer for themselves; a frame without the script, or across origins, is dirty. */
  const frames = (): boolean => {
    let changed = false;
    for (const frame of Array.from(document.querySelectorAll("iframe, frame"))) {
      try {
        const inner = (frame as HTMLIFrameElement).contentWindow as unknown as Record<string, unknown> | null;
        const look = inner?.[key];
        changed = (typeof look === "function" ? (look as () => boolean)() : true) || changed;
      } catch {
        changed = true;
      }
    }
    return changed;
  };
  w[key] = (): boolean => {
    if (!observer) {
      observer = new MutationObserver((records) => {
        if (records.some((r) => r.type === "childList" && r.addedNodes.length > 0)) grew = true;
        if (meaningful(records)) dirty = true;
      });
      for (const root of [document, ...roots]) observer.observe(root, OPTIONS);
      roots.add(document);
      dirty = true;
    }
    const pending = observer.takeRecords();
    if (pending.some((r) => r.type === "childList" && r.addedNodes.length > 0)) grew = true;
    if (meaningful(pending)) dirty = true;
    if (grew) {
      grew = false;
      findRoots();
    }
    const now = state();
    if (now !== fingerprint) dirty = true;
    fingerprint = now;
    // An animation running at the previous look may have moved since, even if it has ended now.
    const running = live();
    const changed = dirty || running || animating || frames();
    animating = running;
    dirty = false;
    return changed;
  };
}

/** The page script installed on every new document. */
export const SCREEN_CHANGES_SCRIPT = `(${installScreenChanges.toString()})(${JSON.stringify(SCREEN_KEY)});`;

/** Reads and clears the page's flag; a page without the script (or an error) answers true. */
const LOOK = `(() => { const look = window[${JSON.stringify(SCREEN_KEY)}]; return typeof look === "function" ? look() === true : true; })()`;

/** How long a look may take before it counts as "changed" (a dialog or a busy page blocks it). */
const LOOK_TIMEOUT_MS = 1_000;

/**
 * The host side of the signal for one page: CDP events that change the screen without the
 * document seeing it, and the read-and-clear of the page flag.
 */
export class ScreenChanges {
  /** Set by the browser's events; cleared by a look. */
  #dirty = true;
  /** Frames loading now: every look while one is loading is dirty. */
  readonly #loading = new Set<string>();

  /** Subscribes to the page's events; returns the unsubscribe functions. */
  listen(session: Session): Array<() => void> {
    const mark = () => {
      this.#dirty = true;
    };
    return [
      session.on("Page.frameStartedLoading", (p) => {
        this.#loading.add(p.frameId);
        mark();
      }),
      session.on("Page.frameStoppedLoading", (p) => {
        this.#loading.delete(p.frameId);
        mark();
      }),
      session.on("Page.frameDetached", (p) => {
        this.#loading.delete(p.frameId);
        mark();
      }),
      ...(
        [
          "Page.frameNavigated",
          "Page.navigatedWithinDocument",
          "Page.frameAttached",
          "Page.javascriptDialogOpening",
          "Page.javascriptDialogClosed",
          "Page.domContentEventFired",
          "Page.loadEventFired",
          "Runtime.executionContextsCleared",
          "Runtime.executionContextDestroyed",
          "Inspector.targetCrashed",
          "Page.frameResized",
        ] as const
      ).map((event) => session.on(event, mark)),
    ];
  }

  /** True when the page may have changed since the previous call (always on the first); never throws. */
  async changed(session: Session): Promise<boolean> {
    const host = this.#dirty || this.#loading.size > 0;
    this.#dirty = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), LOOK_TIMEOUT_MS);
    });
    const look = session
      .send("Runtime.evaluate", { expression: LOOK, returnByValue: true })
      .then((res) => res.exceptionDetails !== undefined || res.result.value !== false)
      .catch(() => true);
    const page = await Promise.race([look, timeout]).finally(() => clearTimeout(timer));
    // Events that arrived while the page answered are in the flag for the next look; an event
    // set before this look began is reported now.
    return host || page || this.#loading.size > 0;
  }
}
