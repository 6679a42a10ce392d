// Typed DevTools Protocol client over chrome-remote-interface: one browser-level WebSocket,
// flat sessions per page target. Commands and events are typed from devtools-protocol.
import CDP from "chrome-remote-interface";
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping";
import { FlowproofError, ProtocolError } from "../../../src/plugins/api.ts";

type Commands = ProtocolMapping.Commands;
type Events = ProtocolMapping.Events;
export type Params<M extends keyof Commands> = Commands[M]["paramsType"] extends [] ? undefined : Commands[M]["paramsType"][0];
export type Result<M extends keyof Commands> = Commands[M]["returnType"];
export type EventParams<E extends keyof Events> = Events[E] extends [infer P] ? P : undefined;

interface RawClient {
  send(method: string, params?: object, sessionId?: string): Promise<unknown>;
  on(event: string, listener: (params: unknown, sessionId?: string) => void): unknown;
  removeListener(event: string, listener: (params: unknown, sessionId?: string) => void): unknown;
  close(): Promise<void>;
}

/**
 * The browser at the other end is gone (its process died or it closed the socket): no command can
 * succeed any more, so no wait should go on. The message says what happened.
 */
export class BrowserGoneError extends FlowproofError {
  constructor(message: string) {
    super({ code: "browser-error", message });
  }
}

/** How long a failed command waits for the reason the browser went away (its process's exit status). */
const REASON_WAIT_MS = 1000;
/** How long closing a bounded connection waits for the far end's closing handshake. */
const CLOSE_WAIT_MS = 2000;

/**
 * Bounds for a browser at the end of a network hop (a Selenium Grid's `se:cdp`), where the far
 * end can fall silent without closing the socket: a node that died leaves commands unanswered.
 */
export interface ConnectionBounds {
  /** Most a command may wait for its answer; past it the browser is taken as gone. */
  readonly callTimeoutMs: number;
  /** How often a cheap command checks that the browser still answers (0: never). */
  readonly heartbeatMs?: number;
  /** Most a heartbeat may wait; past it the browser is taken as gone. */
  readonly heartbeatTimeoutMs?: number;
}

/** One DevTools command as the tap sees it: when it was sent and answered (performance.now()), and whether it failed. */
export interface TappedCall {
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly failed: boolean;
}

/**
 * A measuring tap on every command of every connection in this process (bench/cdp-round-trips.ts
 * counts round trips per step with it). Unset, it costs one property read per command.
 */
export const cdpTap: { onCall?: ((call: TappedCall) => void) | undefined } = {};

export class Connection {
  readonly #client: RawClient;
  #closed = false;
  /** Set when the far end went away (never for our own close()). */
  #lost = false;
  readonly #closeListeners = new Set<() => void>();
  #explain: () => Promise<string | undefined> = async () => undefined;
  readonly #bounds: ConnectionBounds | undefined;
  /** Rejections of the commands awaiting an answer (bounded connections only). */
  readonly #pending = new Set<() => void>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Why the far end is taken as gone when it fell silent (a bound ran out). */
  #silence: string | undefined;

  private constructor(client: RawClient, bounds?: ConnectionBounds) {
    this.#client = client;
    this.#bounds = bounds;
    this.#client.on("disconnect", () => this.#lose());
    if (bounds?.heartbeatMs) {
      let beating = false;
      this.#heartbeat = setInterval(() => {
        if (beating || this.#closed) return;
        beating = true;
        void this.#bounded("Browser.getVersion", {}, undefined, bounds.heartbeatTimeoutMs ?? bounds.callTimeoutMs, true)
          .catch(() => undefined)
          .finally(() => {
            beating = false;
          });
      }, bounds.heartbeatMs);
      this.#heartbeat.unref?.();
    }
  }

  /** The far end went away (or fell silent): every wait and command in flight ends now. */
  #lose(silence?: string): void {
    if (this.#lost) return;
    this.#silence ??= silence;
    this.#closed = true;
    this.#lost = true;
    clearInterval(this.#heartbeat);
    for (const reject of [...this.#pending]) reject();
    this.#pending.clear();
    for (const l of [...this.#closeListeners]) l();
    // A silent socket is closed from our side; nothing will answer on it again.
    if (silence !== undefined) void this.#client.close().catch(() => undefined);
  }

  /**
   * Sends one command, rejected once `timeoutMs` passes without an answer. With `lose`, silence
   * means the browser is gone (the heartbeat, or a connection without one); otherwise only this
   * command fails (a slow page), and the heartbeat decides whether the browser still answers.
   */
  #bounded(method: string, params: object, sessionId: string | undefined, timeoutMs: number, lose: boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.#pending.delete(gone);
      };
      const gone = () => {
        settle();
        // A plain Error on purpose: send() turns it into the connection's BrowserGoneError, which explains the loss.
        reject(new Error("the browser is gone"));
      };
      const timer = setTimeout(() => {
        if (lose) return this.#lose(`no answer to ${method} within ${timeoutMs} ms`);
        settle();
        reject(new FlowproofError({ code: "browser-error", message: `the browser did not answer ${method} within ${timeoutMs} ms` }));
      }, timeoutMs);
      this.#pending.add(gone);
      this.#client.send(method, params, sessionId).then(
        (r) => {
          settle();
          resolve(r);
        },
        (e: unknown) => {
          settle();
          reject(e);
        },
      );
    });
  }

  /**
   * How a lost connection is explained: for a browser we started, its process's exit status.
   * `explain` may wait for it (bounded); `undefined` falls back to "closed the connection".
   */
  explainLoss(explain: () => Promise<string | undefined>): void {
    this.#explain = explain;
  }

  /** The error every command gets once the browser is gone. */
  async goneError(): Promise<BrowserGoneError> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reason = await Promise.race([
      this.#explain().catch(() => undefined),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), REASON_WAIT_MS))),
    ]);
    clearTimeout(timer);
    return new BrowserGoneError(
      `the browser is gone: ${[reason, this.#silence].filter((x) => x !== undefined).join(": ") || "it closed the DevTools connection"}`,
    );
  }

  /** Connects to a browser-level DevTools URL; `bounds` for a browser across a network hop. */
  static async connect(wsUrl: string, bounds?: ConnectionBounds): Promise<Connection> {
    const client = (await CDP({ target: wsUrl, local: true })) as unknown as RawClient;
    return new Connection(client, bounds);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** True once the browser went away on its own (not by our close()). */
  get lost(): boolean {
    return this.#lost;
  }

  /** Runs `listener` when the connection closes; returns the unsubscribe function. */
  onClose(listener: () => void): () => void {
    this.#closeListeners.add(listener);
    return () => {
      this.#closeListeners.delete(listener);
    };
  }

  async send<M extends keyof Commands>(method: M, params?: Params<M>, sessionId?: string): Promise<Result<M>> {
    if (this.#lost) throw await this.goneError();
    const tap = cdpTap.onCall;
    if (tap) {
      const sentAt = performance.now();
      const answered = (failed: boolean) => tap({ method, sessionId, sentAt, answeredAt: performance.now(), failed });
      return this.#send(method, params, sessionId).then(
        (r) => {
          answered(false);
          return r;
        },
        (e: unknown) => {
          answered(true);
          throw e;
        },
      );
    }
    return this.#send(method, params, sessionId);
  }

  async #send<M extends keyof Commands>(method: M, params?: Params<M>, sessionId?: string): Promise<Result<M>> {
    try {
      const p = (params ?? {}) as object;
      return (await (this.#bounds
        ? this.#bounded(method, p, sessionId, this.#bounds.callTimeoutMs, !this.#bounds.heartbeatMs)
        : this.#client.send(method, p, sessionId))) as Result<M>;
    } catch (error) {
      if (this.#lost) throw await this.goneError();
      const message = error instanceof Error ? error.message : String(error);
      throw new ProtocolError(method, message, { cause: error });
    }
  }

  /** Subscribes to an event (of one session, when given); returns the unsubscribe function. */
  on<E extends keyof Events>(event: E, listener: (params: EventParams<E>) => void, sessionId?: string): () => void {
    const name = sessionId ? `${event}.${sessionId}` : event;
    const wrapped = (p: unknown) => listener(p as EventParams<E>);
    this.#client.on(name, wrapped);
    return () => {
      this.#client.removeListener(name, wrapped);
    };
  }

  session(sessionId: string): Session {
    return new Session(this, sessionId);
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    if (this.#closed) return;
    this.#closed = true;
    for (const reject of [...this.#pending]) reject();
    this.#pending.clear();
    if (!this.#bounds) return this.#client.close();
    // Across a hop the far end may never answer the closing handshake (a grid after DELETE).
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.#client.close().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
  }
}

/**
 * One attached target (a page); commands are pipelined on the shared socket. A session can be
 * failed (its page crashed, or it will never answer again): every command in flight and every
 * later one is then rejected with that error instead of waiting for an answer that cannot come.
 */
/**
 * The page-changing commands a step sends besides trusted input: held behind the same gate, so a
 * step's own navigation always comes after its effect observer is in place (see effects.ts).
 */
const GATED_NAVIGATIONS: ReadonlySet<string> = new Set(["Page.navigate", "Page.reload", "Page.navigateToHistoryEntry"]);

export class Session {
  #failure: Error | undefined;
  readonly #failListeners = new Set<(error: Error) => void>();
  #inputGate: Promise<unknown> | undefined;

  constructor(
    readonly connection: Connection,
    readonly id: string,
  ) {}

  /** Why this session can no longer be used, once it cannot. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Rejects every pending and later command (and wait) with `error`; the first failure wins. */
  fail(error: Error): void {
    if (this.#failure) return;
    this.#failure = error;
    for (const l of [...this.#failListeners]) l(error);
    this.#failListeners.clear();
  }

  #onFail(listener: (error: Error) => void): () => void {
    this.#failListeners.add(listener);
    return () => {
      this.#failListeners.delete(listener);
    };
  }

  /**
   * Holds `Input.*` commands (and the navigations a step starts itself) until `ready` settles. Commands to the page itself (Runtime, DOM) are
   * answered in the order they were sent, but trusted input reaches the page another way: a
   * page-side script that must see the input (an effect observer) is installed behind this gate.
   */
  holdInputUntil(ready: Promise<unknown>): void {
    const gate: Promise<unknown> = ready.then(
      () => undefined,
      () => undefined,
    );
    this.#inputGate = gate;
    void gate.then(() => {
      if (this.#inputGate === gate) this.#inputGate = undefined;
    });
  }

  send<M extends keyof Commands>(method: M, params?: Params<M>): Promise<Result<M>> {
    if (this.#failure) return Promise.reject(this.#failure);
    const gate = this.#inputGate;
    if (gate && (method.startsWith("Input.") || GATED_NAVIGATIONS.has(method))) return gate.then(() => this.send(method, params));
    return new Promise((resolve, reject) => {
      const off = this.#onFail(reject);
      this.connection.send(method, params, this.id).then(
        (r) => {
          off();
          resolve(r);
        },
        (e: unknown) => {
          off();
          reject(e);
        },
      );
    });
  }

  on<E extends keyof Events>(event: E, listener: (params: EventParams<E>) => void): () => void {
    return this.connection.on(event, listener, this.id);
  }

  /**
   * Resolves with the next event of that name (optionally matching `filter`); rejects after
   * `timeoutMs`, or with a BrowserGoneError as soon as the browser goes away.
   */
  waitFor<E extends keyof Events>(event: E, timeoutMs: number, filter?: (p: EventParams<E>) => boolean): Promise<EventParams<E>> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.connection.lost) return this.connection.goneError().then((e) => Promise.reject(e));
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        off();
        offClose();
        offFail();
      };
      const timer = setTimeout(() => {
        done();
        reject(new FlowproofError({ code: "browser-error", message: `timed out after ${timeoutMs} ms waiting for ${event}` }));
      }, timeoutMs);
      const off = this.on(event, (p) => {
        if (filter && !filter(p)) return;
        done();
        resolve(p);
      });
      const offClose = this.connection.onClose(() => {
        done();
        void this.connection.goneError().then(reject);
      });
      const offFail = this.#onFail((error) => {
        done();
        reject(error);
      });
    });
  }
}
