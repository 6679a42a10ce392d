// Typed DevTools Protocol client over chrome-remote-interface: one browser-level WebSocket,
// flat sessions per page target. Commands and events are typed from devtools-protocol.
import CDP from "chrome-remote-interface";
import type { ProtocolMapping } from "devtools-protocol/types/protocol-mapping";

type Commands = ProtocolMapping.Commands;
type Events = ProtocolMapping.Events;
export type Params<M extends keyof Commands> = Commands[M]["paramsType"] extends [] ? undefined : Commands[M]["paramsType"][0];
export type Result<M extends keyof Commands> = Commands[M]["returnType"];
export type EventParams<E extends keyof Events> = Events[E] extends [infer P] ? P : undefined;

/** A protocol error with the method that caused it. */
export class CdpError extends Error {
  readonly method: string;
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super(`${method}: ${message}`, options);
    this.name = "CdpError";
    this.method = method;
  }
}

interface RawClient {
  send(method: string, params?: object, sessionId?: string): Promise<unknown>;
  on(event: string, listener: (params: unknown, sessionId?: string) => void): unknown;
  removeListener(event: string, listener: (params: unknown, sessionId?: string) => void): unknown;
  close(): Promise<void>;
}

export class Connection {
  readonly #client: RawClient;
  #closed = false;
  readonly #closeListeners: Array<() => void> = [];

  private constructor(client: RawClient) {
    this.#client = client;
    this.#client.on("disconnect", () => {
      this.#closed = true;
      for (const l of this.#closeListeners) l();
    });
  }

  static async connect(wsUrl: string): Promise<Connection> {
    const client = (await CDP({ target: wsUrl, local: true })) as unknown as RawClient;
    return new Connection(client);
  }

  get closed(): boolean {
    return this.#closed;
  }

  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  async send<M extends keyof Commands>(method: M, params?: Params<M>, sessionId?: string): Promise<Result<M>> {
    try {
      return (await this.#client.send(method, (params ?? {}) as object, sessionId)) as Result<M>;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new CdpError(method, message, { cause: error });
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
    if (this.#closed) return;
    this.#closed = true;
    await this.#client.close();
  }
}

/** One attached target (a page); commands are pipelined on the shared socket. */
export class Session {
  constructor(readonly connection: Connection, readonly id: string) {}

  send<M extends keyof Commands>(method: M, params?: Params<M>): Promise<Result<M>> {
    return this.connection.send(method, params, this.id);
  }

  on<E extends keyof Events>(event: E, listener: (params: EventParams<E>) => void): () => void {
    return this.connection.on(event, listener, this.id);
  }

  /** Resolves with the next event of that name (optionally matching `filter`), or rejects after `timeoutMs`. */
  waitFor<E extends keyof Events>(event: E, timeoutMs: number, filter?: (p: EventParams<E>) => boolean): Promise<EventParams<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event}`));
      }, timeoutMs);
      const off = this.on(event, (p) => {
        if (filter && !filter(p)) return;
        clearTimeout(timer);
        off();
        resolve(p);
      });
    });
  }
}
