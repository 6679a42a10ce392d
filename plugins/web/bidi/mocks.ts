// `mock:` rules in Firefox: the page's requests pause at `network.beforeRequestSent`
// (`network.addIntercept`), a matching rule answers them (`network.provideResponse`, the same
// answer as on Chromium: mocks.ts), everything else continues untouched.
import type { WebMockRule } from "../config.ts";
import { mockResponse } from "../mocks.ts";
import type { BidiConnection } from "./connection.ts";

interface BlockedRequest {
  readonly context?: string;
  readonly isBlocked?: boolean;
  readonly request: {
    readonly request: string;
    readonly url: string;
    readonly method: string;
    readonly headers?: ReadonlyArray<{ name: string; value: { value?: string } }>;
  };
}

/** Answers the page's requests from `rules` from now on; returns the stop function. */
export async function interceptFirefoxRequests(connection: BidiConnection, context: string, rules: readonly WebMockRule[]): Promise<() => void> {
  if (rules.length === 0) return () => undefined;
  const { intercept } = await connection.send<{ intercept: string }>("network.addIntercept", { phases: ["beforeRequestSent"], contexts: [context] });
  const off = connection.on("network.beforeRequestSent", (raw) => {
    const p = raw as unknown as BlockedRequest;
    if (p.context !== context || !p.isBlocked) return;
    const { request, url, method } = p.request;
    const headers = Object.fromEntries((p.request.headers ?? []).map((h) => [h.name, h.value.value ?? ""]));
    const answer = mockResponse(rules, url, method, headers);
    const sent = answer
      ? connection.send("network.provideResponse", {
          request,
          statusCode: answer.status,
          reasonPhrase: answer.status === 204 ? "No Content" : "OK",
          headers: answer.headers.map((h) => ({ name: h.name, value: { type: "string", value: h.value } })),
          body: { type: "string", value: answer.body },
        })
      : connection.send("network.continueRequest", { request });
    // A request whose page went away meanwhile cannot be answered: nothing waits for it.
    sent.catch(() => undefined);
  });
  return () => {
    off();
    void connection.send("network.removeIntercept", { intercept }).catch(() => undefined);
  };
}
