// Page side of `flowproof codegen`: listens to what the person does (trusted events only) and
// reports one event per action through a CDP binding; shows what was captured in a small badge.
// A secret field's value never leaves this file: its events carry the field's label instead.
// Installed by the page script as a dormant function; only a codegen session starts it.
import type { CodegenEvent } from "./codegen-protocol.ts";
import { isCheckbox, isDropdown, isField, isButton, isLink } from "./roles.ts";
import { labelsOf, nameElement, shownTextOf, type Purpose } from "./codegen-names.ts";
import { norm } from "./dom.ts";

/** Fields whose value is a secret: passwords, and what browsers treat as one. */
const SECRET_AUTOCOMPLETE = ["current-password", "new-password", "one-time-code"];
/** Fields the person marked secret (Alt+S) in this document. */
const marked = new WeakSet<Element>();
export const isSecretField = (el: Element): boolean =>
  marked.has(el) ||
  (el instanceof HTMLInputElement && (el.type === "password" || SECRET_AUTOCOMPLETE.includes((el.getAttribute("autocomplete") ?? "").toLowerCase())));

/** What a click lands on, as a person means it: the control around the pointed node. */
const ACTIONABLE =
  "button, a[href], input, select, textarea, label, summary, option, [role=button], [role=link], [role=tab], [role=menuitem], [role=checkbox], [role=switch], [role=radio], [role=option], [contenteditable=true]";
/** Longest text an `assert: … shows` takes from the page; the check is a containment, so a prefix is enough. */
const MAX_SHOWN = 80;
/** How soon after Enter a pointerless click counts as the form's implicit submission. */
const IMPLICIT_SUBMIT_MS = 100;
/** How recent a wheel turn, scrolling key or scrollbar press must be for a scroll to be the person's. */
const USER_SCROLL_MS = 1000;
/** How long after reaching the bottom the page may take to grow for the scroll to matter (it loaded more). */
const GROWTH_MS = 1500;
/** Keys that scroll the page. */
const SCROLL_KEYS = ["PageDown", "End", "ArrowDown", " "];
/** How long the badge shows a captured step. */
const BADGE_MS = 2500;

const isTextField = (el: Element | null): el is HTMLElement => !!el && isField(el) && !(el instanceof HTMLSelectElement) && !isDropdown(el);

const fieldValue = (el: HTMLElement): string => (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : norm(el.innerText));

/** A text cut at a word boundary to at most MAX_SHOWN characters. */
const cut = (s: string): string => {
  if (s.length <= MAX_SHOWN) return s;
  const head = s.slice(0, MAX_SHOWN);
  const space = head.lastIndexOf(" ");
  return space > 20 ? head.slice(0, space) : head;
};

/** The badge: a closed shadow root (the resolver never sees into it) that lets no pointer event through to itself. */
function createBadge(): (text: string) => void {
  let host: HTMLElement | undefined;
  let line: HTMLElement | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ensure = () => {
    if (host && host.isConnected) return;
    host = document.createElement("flowproof-codegen");
    host.style.cssText = "position:fixed;right:12px;bottom:12px;z-index:2147483647;pointer-events:none";
    const root = host.attachShadow({ mode: "closed" });
    const box = document.createElement("div");
    box.style.cssText =
      "font:12px/1.4 system-ui,sans-serif;background:#1f2937;color:#f9fafb;border-radius:6px;padding:6px 10px;box-shadow:0 2px 8px rgba(0,0,0,.3);max-width:420px";
    const title = document.createElement("div");
    title.textContent = "flowproof codegen · Alt+A assert text · Alt+V assert visible · Alt+U assert URL · Alt+S secret field";
    title.style.cssText = "opacity:.75";
    line = document.createElement("div");
    line.style.cssText = "font-family:ui-monospace,monospace;color:#86efac";
    box.append(title, line);
    root.append(box);
    (document.body ?? document.documentElement).append(host);
  };
  return (text: string) => {
    ensure();
    if (line) line.textContent = text;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (line) line.textContent = "";
    }, BADGE_MS);
  };
}

/** Starts listening in this document (the top one only), reporting through the binding named `binding`. */
function start(binding: string): void {
  if (window.top !== window.self) return;
  const send = (globalThis as unknown as Record<string, unknown>)[binding];
  if (typeof send !== "function") return;
  const emit = (event: CodegenEvent) => (send as (payload: string) => void)(JSON.stringify(event));
  const badge = createBadge();
  Object.defineProperty(globalThis, "__flowproofCodegenShow", { value: badge, configurable: true });
  const name = (el: Element, purpose: Purpose) => nameElement(el, purpose);

  /** The text field being typed into and its value when the person entered it. */
  let editing: { el: HTMLElement; start: string } | undefined;
  const flush = () => {
    if (!editing) return;
    const { el } = editing;
    const value = fieldValue(el);
    if (value === editing.start) return;
    editing.start = value;
    if (isSecretField(el)) emit({ kind: "type", naming: name(el, "type"), secret: { label: labelsOf(el)[0] ?? el.getAttribute("name") ?? el.id } });
    else emit({ kind: "type", naming: name(el, "type"), value });
  };
  // The session ending (Ctrl-C) or the page going away must not lose what is typed in the focused field.
  Object.defineProperty(globalThis, "__flowproofCodegenFlush", { value: flush, configurable: true });
  window.addEventListener("pagehide", flush, true);
  let pointer = { x: 0, y: 0 };
  /** When Enter was last reported: the click a form's implicit submission fires right after is that Enter's doing. */
  let enteredAt = -Infinity;

  window.addEventListener(
    "pointermove",
    (e) => {
      pointer = { x: e.clientX, y: e.clientY };
    },
    true,
  );
  window.addEventListener(
    "focusin",
    (e) => {
      const el = e.composedPath()[0];
      if (el instanceof Element && isTextField(el) && editing?.el !== el) editing = { el, start: fieldValue(el) };
    },
    true,
  );
  window.addEventListener(
    "focusout",
    (e) => {
      if (e.composedPath()[0] === editing?.el) flush();
    },
    true,
  );
  // A click on something that takes no focus leaves the field focused: its value is written first.
  window.addEventListener(
    "pointerdown",
    (e) => {
      if (e.isTrusted && editing && e.composedPath()[0] !== editing.el) flush();
    },
    true,
  );

  // Replay scrolls every target into view itself, so a scroll is written only when it made the page
  // load more: the person reached the bottom and the page grew.
  let scrolledAt = -Infinity;
  let watching = false;
  window.addEventListener(
    "wheel",
    (e) => {
      if (e.isTrusted) scrolledAt = performance.now();
    },
    { capture: true, passive: true },
  );
  window.addEventListener(
    "pointerdown",
    (e) => {
      if (e.isTrusted && e.target === document.documentElement) scrolledAt = performance.now();
    },
    true,
  );
  window.addEventListener(
    "scroll",
    (e) => {
      const se = document.scrollingElement;
      if (e.target !== document || !se || watching || performance.now() - scrolledAt > USER_SCROLL_MS) return;
      if (se.scrollTop + se.clientHeight < se.scrollHeight - 2) return;
      watching = true;
      const height = se.scrollHeight;
      setTimeout(() => {
        watching = false;
        if (se.scrollHeight > height) emit({ kind: "scroll", to: "bottom" });
      }, GROWTH_MS);
    },
    true,
  );

  window.addEventListener(
    "keydown",
    (e) => {
      if (!e.isTrusted) return;
      if (SCROLL_KEYS.includes(e.key)) scrolledAt = performance.now();
      if (e.altKey && !e.ctrlKey && !e.metaKey && ["KeyA", "KeyV", "KeyU", "KeyS"].includes(e.code)) {
        e.preventDefault();
        e.stopImmediatePropagation();
        if (e.code === "KeyS") markSecret();
        else pointed(e.code);
        return;
      }
      if (e.key !== "Enter" && e.key !== "Escape") return;
      const el = e.composedPath()[0];
      // Enter on a button or link is the click that follows; in a text area it is a new line.
      if (
        el instanceof Element &&
        e.key === "Enter" &&
        (el instanceof HTMLTextAreaElement || isButton(el) || isLink(el) || isCheckbox(el) || el instanceof HTMLSelectElement)
      )
        return;
      flush();
      emit({ kind: "key", key: e.key });
      if (e.key === "Enter") enteredAt = performance.now();
    },
    true,
  );

  window.addEventListener(
    "click",
    (e) => {
      if (!e.isTrusted) return;
      // No pointer (detail 0) and right after a reported Enter: the form's implicit submission, not a click of the person's.
      if (e.detail === 0 && performance.now() - enteredAt < IMPLICIT_SUBMIT_MS) return;
      const hit = e.composedPath()[0];
      if (!(hit instanceof Element)) return;
      const el = hit.closest(ACTIONABLE) ?? hit;
      // Checkboxes and dropdowns are reported by their change; fields take focus, and typing is reported on leaving.
      const control = el instanceof HTMLLabelElement ? el.control : el;
      if (control && (isCheckbox(control) || isField(control) || isDropdown(control))) return;
      if (el instanceof HTMLOptionElement || el === document.body || el === document.documentElement) return;
      emit({ kind: "click", naming: name(el, "click") });
    },
    true,
  );

  window.addEventListener(
    "change",
    (e) => {
      if (!e.isTrusted) return;
      const el = e.composedPath()[0];
      if (!(el instanceof Element)) return;
      if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio"))
        emit({ kind: "check", naming: name(el, "check"), checked: el.checked });
      else if (el instanceof HTMLSelectElement)
        emit({ kind: "select", naming: name(el, "select"), options: Array.from(el.selectedOptions).map((o) => norm(o.text)) });
    },
    true,
  );

  /** Alt+S in a text field: what is typed into it is a secret, written as a variable (from then on, the value never leaves the page). */
  const markSecret = () => {
    const el = editing?.el;
    if (!el || document.activeElement !== el) {
      badge("click into the field to keep secret first, then press Alt+S");
      return;
    }
    marked.add(el);
    badge(`the "${labelsOf(el)[0] ?? "focused"}" field is secret: it is written as a variable`);
  };

  /** Alt+A: the selected text (page shows) or the pointed element's text; Alt+V: the pointed element is visible; Alt+U: the URL. */
  const pointed = (code: string) => {
    if (code === "KeyU") {
      emit({ kind: "assert_url", url: location.href });
      return;
    }
    const selected = norm(getSelection()?.toString());
    if (code === "KeyA" && selected !== "") {
      emit({ kind: "assert_page_shows", text: cut(selected) });
      return;
    }
    const at = document.elementFromPoint(pointer.x, pointer.y);
    if (!at || at === document.body || at === document.documentElement) {
      badge("point at an element first (or select text for Alt+A)");
      return;
    }
    if (code === "KeyV") {
      emit({ kind: "assert_visible", naming: name(at, "visible") });
      return;
    }
    const text = cut(isTextField(at) ? fieldValue(at) : shownTextOf(at));
    if (text === "" || isSecretField(at)) {
      badge("nothing to assert here: it shows no text");
      return;
    }
    // Named only by a css path, the element says less than its text on the page does.
    const naming = name(at, "read");
    const readable = naming.targets.some((t) => !(t.target.kind === "element" && t.target.anchor.kind === "css"));
    emit(readable ? { kind: "assert_shows", naming, text } : { kind: "assert_page_shows", text });
  };
}

/** Makes `__flowproofCodegenStart(binding)` available to the codegen session's init script; nothing listens until it is called. */
export function installCodegen(): void {
  Object.defineProperty(globalThis, "__flowproofCodegenStart", { value: start, configurable: true, enumerable: false });
}
