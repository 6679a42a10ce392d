// The in-house service the example checks: `GET /stock/<sku>` answers the units in stock as text.
// `bun stock-api.ts` serves it; tests call `startStockApi()`.

export interface StockApi {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Sets the units in stock for a SKU. */
  set(sku: string, units: number): void;
  stop(): void;
}

export function startStockApi(port = 0): StockApi {
  const stock = new Map<string, number>([["B2", 5]]);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    fetch(req) {
      const m = /^\/stock\/([^/]+)$/.exec(new URL(req.url).pathname);
      if (!m) return new Response("not found", { status: 404 });
      return new Response(String(stock.get(decodeURIComponent(m[1]!)) ?? 0));
    },
  });
  return { url: server.url.href.replace(/\/$/, ""), set: (sku, units) => stock.set(sku, units), stop: () => server.stop(true) };
}

if (import.meta.main) console.log(`stock service on ${startStockApi(Number(process.env["PORT"] ?? 0)).url}`);
