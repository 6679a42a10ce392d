// Which of a page's own scheduled work began before a step: the page half of effect attribution.
// Installed in every new document before the page's scripts, it tags each callback the page
// schedules (timers, intervals, animation frames, idle callbacks, microtasks, MessageChannel
// messages) with the epoch it was scheduled in; work scheduled from tagged work inherits its tag.
// An effect watch opens a new epoch before its step's input, so a router setting the URL on a
// start-up timer, a clock or a carousel runs with an older tag and is not the step's effect.
// Work that starts from a network response or an input event carries no tag and counts as the
// step's. Never changes what a callback does, when it runs, or what scheduling returns.

/** The page-global name of the tag state (one per document). */
export const TASKS_KEY = "__flowproofTasks";

/** The tag state a document keeps under TASKS_KEY; the effect observer reads and hooks it. */
export interface TaskOrigins {
  /** Raised by one each time an effect watch begins; a callback tagged below a watch's epoch was scheduled before its step. */
  epoch: number;
  /** The tag of the tagged callback running now; undefined outside one. */
  current: number | undefined;
  /** Called just before and just after each tagged callback, with its tag (the effect observer hooks here). */
  around: ((phase: "start" | "end", origin: number) => void) | undefined;
}

/**
 * Runs in the page (before any page script of each new document). Self-contained: no references
 * outside the function body.
 */
function installTaskOrigins(key: string): void {
  const w = window as unknown as Record<string, unknown>;
  if (w[key]) return;
  const state: TaskOrigins = { epoch: 0, current: undefined, around: undefined };
  Object.defineProperty(w, key, { value: state, enumerable: false, configurable: false, writable: false });
  const originNow = (): number => state.current ?? state.epoch;
  type Callback = (...args: unknown[]) => unknown;
  const tagged = (fn: Callback, origin: number): Callback =>
    function (this: unknown, ...args: unknown[]) {
      const previous = state.current;
      state.current = origin;
      state.around?.("start", origin);
      try {
        return fn.apply(this, args);
      } finally {
        state.around?.("end", origin);
        state.current = previous;
      }
    };
  /** Replaces `holder[name]`, a scheduling function whose first argument is the callback, keeping its descriptor. */
  const wrapScheduler = (holder: object, name: string): void => {
    const desc = Object.getOwnPropertyDescriptor(holder, name);
    if (!desc || typeof desc.value !== "function") return;
    const original = desc.value as Callback;
    const wrapped = function (this: unknown, callback: unknown, ...rest: unknown[]) {
      // A string body (setTimeout("code")) cannot be wrapped; it runs untagged.
      const cb = typeof callback === "function" ? tagged(callback as Callback, originNow()) : callback;
      return original.apply(this === undefined || this === null ? globalThis : this, [cb, ...rest]);
    };
    Object.defineProperty(wrapped, "name", { value: original.name });
    Object.defineProperty(holder, name, { ...desc, value: wrapped });
  };
  for (const name of ["setTimeout", "setInterval", "requestAnimationFrame", "requestIdleCallback", "queueMicrotask"]) wrapScheduler(window, name);

  // MessageChannel: a message carries the tag of the code that posted it to the port that receives it
  // (schedulers such as React's post to themselves to run their work).
  const Channel = globalThis.MessageChannel;
  const Port = globalThis.MessagePort;
  if (!Channel || !Port) return;
  const partner = new WeakMap<MessagePort, MessagePort>();
  const queued = new WeakMap<MessagePort, number[]>();
  const delivered = new WeakMap<Event, number>();
  const TaggedChannel = function (this: unknown) {
    const channel = new Channel();
    partner.set(channel.port1, channel.port2);
    partner.set(channel.port2, channel.port1);
    return channel;
  } as unknown as typeof MessageChannel;
  TaggedChannel.prototype = Channel.prototype;
  Object.defineProperty(TaggedChannel, "name", { value: "MessageChannel" });
  Object.defineProperty(window, "MessageChannel", { value: TaggedChannel, writable: true, configurable: true, enumerable: false });
  const post = Port.prototype.postMessage;
  Port.prototype.postMessage = function (this: MessagePort, ...args: unknown[]) {
    const to = partner.get(this);
    if (to) {
      const q = queued.get(to) ?? [];
      q.push(originNow());
      queued.set(to, q);
    }
    return (post as Callback).apply(this, args) as void;
  };
  /** The tag of message event `ev` on `port`: the first listener to see it takes it off the port's queue. */
  const originOf = (port: MessagePort, ev: Event): number | undefined => {
    if (delivered.has(ev)) return delivered.get(ev);
    const origin = queued.get(port)?.shift();
    if (origin !== undefined) delivered.set(ev, origin);
    return origin;
  };
  const receiving = (port: MessagePort, listener: Callback): Callback =>
    function (this: unknown, ev: unknown) {
      const origin = ev instanceof Event ? originOf(port, ev) : undefined;
      return origin === undefined ? listener.call(this, ev) : tagged(listener, origin).call(this, ev);
    };
  const onmessage = Object.getOwnPropertyDescriptor(Port.prototype, "onmessage");
  if (onmessage?.set && onmessage.get) {
    const set = onmessage.set;
    const own = new WeakMap<MessagePort, unknown>();
    Object.defineProperty(Port.prototype, "onmessage", {
      ...onmessage,
      get(this: MessagePort) {
        return own.has(this) ? own.get(this) : onmessage.get!.call(this);
      },
      set(this: MessagePort, value: unknown) {
        own.set(this, value);
        set.call(this, typeof value === "function" ? receiving(this, value as Callback) : value);
      },
    });
  }
  const add = Port.prototype.addEventListener;
  const remove = Port.prototype.removeEventListener;
  /** Each port's wrapped message listeners, so that removing a listener removes its wrapper. */
  const listeners = new WeakMap<MessagePort, WeakMap<object, Callback>>();
  Port.prototype.addEventListener = function (this: MessagePort, type: string, listener: unknown, options?: unknown) {
    if (type === "message" && typeof listener === "function") {
      const mine = listeners.get(this) ?? new WeakMap<object, Callback>();
      listeners.set(this, mine);
      const wrapped = mine.get(listener) ?? receiving(this, listener as Callback);
      mine.set(listener, wrapped);
      return (add as Callback).call(this, type, wrapped, options) as void;
    }
    return (add as Callback).call(this, type, listener, options) as void;
  } as typeof Port.prototype.addEventListener;
  Port.prototype.removeEventListener = function (this: MessagePort, type: string, listener: unknown, options?: unknown) {
    const wrapped = typeof listener === "function" ? listeners.get(this)?.get(listener) : undefined;
    return (remove as Callback).call(this, type, wrapped ?? listener, options) as void;
  } as typeof Port.prototype.removeEventListener;
}

/** The script that installs the tags in every new document (Page.addScriptToEvaluateOnNewDocument). */
export const TASK_ORIGINS_SCRIPT = `(${installTaskOrigins.toString()})(${JSON.stringify(TASKS_KEY)});`;
