// A WebDriver BiDi client: one WebSocket to the browser (Firefox's `ws://127.0.0.1:<port>/session`),
// commands answered by id, events delivered to listeners by method. The protocol's own session
// (`session.new`) is opened by `connect`; a lost socket fails every command in flight.
import { FlowproofError } from "../../../src/plugins/api.ts";

/** How long one command may wait for its answer before the browser is taken as stuck. */
const CALL_TIMEOUT_MS = 60_000;

type Listener = (params: Record<string, unknown>) => void;

/** A BiDi command the browser answered with an error (`no such frame`, `unknown command`, …). */
export class BidiError extends FlowproofError {
  readonly error: string;
  constructor(method: string, error: string, message: string) {
    super({ code: "browser-error", message: `${method}: ${error}${message ? `: ${message}` : ""}` });
    this.error = error;
  }
}

/** One command as a measurement sees it (bench/step-timeline.ts): what was sent, and when it was answered. */
export interface BidiTappedCall {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly failed: boolean;
}

/** Set only by a measurement: called with every command once it is answered or failed. */
export const bidiTap: { onCall?: ((call: BidiTappedCall) => void) | undefined } = {};

export class BidiConnection {
  readonly #ws: WebSocket;
  #nextId = 1;
  readonly #pending = new Map<number, { method: string; resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #closeListeners = new Set<() => void>();
  #closed = false;
  #explain: () => Promise<string | undefined> = async () => undefined;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener("message", (event) => this.#receive(String(event.data)));
    ws.addEventListener("close", () => this.#lose());
    ws.addEventListener("error", () => this.#lose());
  }

  /** Opens the socket and the BiDi session on it. */
  static async connect(url: string, timeoutMs = 30_000): Promise<BidiConnection> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new FlowproofError({ code: "browser-error", message: `no WebDriver BiDi answer at ${url} within ${timeoutMs} ms` })),
        timeoutMs,
      );
      ws.addEventListener("open", () => (clearTimeout(timer), resolve()), { once: true });
      ws.addEventListener("error", () => (clearTimeout(timer), reject(new FlowproofError({ code: "browser-error", message: `could not open ${url}` }))), {
        once: true,
      });
    });
    const connection = new BidiConnection(ws);
    await connection.send("session.new", { capabilities: { alwaysMatch: { acceptInsecureCerts: true, unhandledPromptBehavior: { default: "ignore" } } } });
    return connection;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** How a lost socket is explained (the browser process's exit). */
  explainLoss(explain: () => Promise<string | undefined>): void {
    this.#explain = explain;
  }

  onClose(listener: () => void): () => void {
    if (this.#closed) listener();
    else this.#closeListeners.add(listener);
    return () => void this.#closeListeners.delete(listener);
  }

  #receive(text: string): void {
    let message: { id?: number; type?: string; method?: string; params?: Record<string, unknown>; result?: unknown; error?: string; message?: string };
    try {
      message = JSON.parse(text);
    } catch {
      return; // not a protocol message
    }
    if (message.id !== undefined) {
      const call = this.#pending.get(message.id);
      if (!call) return;
      this.#pending.delete(message.id);
      clearTimeout(call.timer);
      if (message.type === "error") call.reject(new BidiError(call.method, message.error ?? "error", message.message ?? ""));
      else call.resolve(message.result);
      return;
    }
    if (message.type === "event" && message.method) for (const l of [...(this.#listeners.get(message.method) ?? [])]) l(message.params ?? {});
  }

  #lose(): void {
    if (this.#closed) return;
    this.#closed = true;
    const calls = [...this.#pending.values()];
    this.#pending.clear();
    void this.#explain()
      .catch(() => undefined)
      .then((why) => {
        for (const call of calls) {
          clearTimeout(call.timer);
          call.reject(new FlowproofError({ code: "browser-error", message: `the browser went away during ${call.method}${why ? `: ${why}` : ""}` }));
        }
      });
    for (const l of [...this.#closeListeners]) l();
  }

  /** Sends one command; resolves with its result, rejects with a BidiError or once the browser is gone. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, timeoutMs = CALL_TIMEOUT_MS): Promise<T> {
    if (this.#closed) return Promise.reject(new FlowproofError({ code: "browser-error", message: `the browser is gone (${method})` }));
    const tap = bidiTap.onCall;
    if (tap) {
      const sentAt = performance.now();
      const answered = (failed: boolean) => tap({ method, params, sentAt, answeredAt: performance.now(), failed });
      return this.#send<T>(method, params, timeoutMs).then(
        (r) => {
          answered(false);
          return r;
        },
        (error: unknown) => {
          answered(true);
          throw error;
        },
      );
    }
    return this.#send<T>(method, params, timeoutMs);
  }

  #send<T>(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new FlowproofError({ code: "browser-error", message: `the browser did not answer ${method} within ${timeoutMs} ms` }));
      }, timeoutMs);
      this.#pending.set(id, { method, resolve: resolve as (v: unknown) => void, reject, timer });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Listens to one event (the caller subscribes to it with `session.subscribe`); answers the undo. */
  on(event: string, listener: Listener): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  /** Closes the socket without ending the session: for a browser about to be stopped, whose session ends with it. */
  drop(): void {
    if (this.#closed) return;
    this.#ws.close();
    this.#lose();
  }

  /** Ends the BiDi session and closes the socket. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.send("session.end", {}, 2000).catch(() => undefined);
    this.#ws.close();
    this.#lose();
  }
}
