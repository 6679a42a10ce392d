import { describe, expect, test } from "bun:test";
import { RequestParser, byteString, type ParseEvent, type RawRequest } from "./http-parser.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const requests = (events: readonly ParseEvent[]): RawRequest[] => events.flatMap((e) => (e.kind === "request" ? [e.request] : []));
const text = (r: RawRequest) => new TextDecoder().decode(r.body);

describe("RequestParser", () => {
  test("keeps the request line and headers as sent: order, case, spacing inside values", () => {
    const [r] = requests(
      new RequestParser().push(bytes("POST /orders?x=1 HTTP/1.1\r\nhost: a\r\nX-Mixed-CASE:  two  words \r\nContent-Length: 5\r\n\r\nhello")),
    );
    expect(r).toEqual({
      requestLine: "POST /orders?x=1 HTTP/1.1",
      method: "POST",
      target: "/orders?x=1",
      version: "HTTP/1.1",
      headers: [
        ["host", "a"],
        ["X-Mixed-CASE", "two  words"],
        ["Content-Length", "5"],
      ],
      body: bytes("hello"),
      chunked: false,
      trailers: [],
    });
  });

  test("reads a body that arrives a byte at a time", () => {
    const parser = new RequestParser();
    const all = [...bytes("PUT /x HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")].flatMap((b) => parser.push(new Uint8Array([b])));
    expect(requests(all).map(text)).toEqual(["abc"]);
    expect(parser.idle).toBe(true);
  });

  test("removes chunk framing, extensions and trailers included, split anywhere", () => {
    const wire = "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n";
    for (const cut of [1, 7, 30, 45, 60]) {
      const parser = new RequestParser();
      const [r] = requests([...parser.push(bytes(wire.slice(0, cut))), ...parser.push(bytes(wire.slice(cut)))]);
      expect([text(r!), r!.chunked, r!.trailers]).toEqual(["Wikipedia", true, [["X-Trailer", "t"]]]);
    }
  });

  test("reads several requests from one connection (keep-alive, pipelining)", () => {
    const r = requests(
      new RequestParser().push(bytes("GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi\r\nGET /c HTTP/1.0\r\n\r\n")),
    );
    expect(r.map((x) => [x.method, x.target, text(x)])).toEqual([
      ["GET", "/a", ""],
      ["POST", "/b", "hi"],
      ["GET", "/c", ""],
    ]);
  });

  test("keeps binary bodies and non-ASCII header bytes unchanged", () => {
    const head = bytes("POST /bin HTTP/1.1\r\nX-Name: caf");
    const wire = new Uint8Array([...head, 0xe9, ...bytes("\r\nContent-Length: 4\r\n\r\n"), 0, 255, 13, 10]);
    const [r] = requests(new RequestParser().push(wire));
    expect(r!.headers[0]).toEqual(["X-Name", "caf\u00e9"]);
    expect([...r!.body]).toEqual([0, 255, 13, 10]);
  });

  test("asks for 100 Continue when the client waits for it", () => {
    const parser = new RequestParser();
    expect(parser.push(bytes("POST /big HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"))).toEqual([{ kind: "continue" }]);
    expect(requests(parser.push(bytes("ok"))).map(text)).toEqual(["ok"]);
  });

  test.each([
    ["a request line that is not HTTP", "HELLO\r\n\r\n", 'not an HTTP/1.x request line: "HELLO"'],
    ["conflicting lengths", "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 'Content-Length is not one whole number: "1, 2"'],
    ["a bad chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 'a chunk size is not hexadecimal: "zz"'],
  ])("refuses %s", (_, wire, message) => {
    expect(new RequestParser().push(bytes(wire))).toEqual([{ kind: "error", message }]);
  });

  test("a half-read request is not idle", () => {
    const parser = new RequestParser();
    parser.push(bytes("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc"));
    expect(parser.idle).toBe(false);
  });

  test("byteString maps each byte to one character", () => {
    expect(byteString(new Uint8Array([0x41, 0xe9, 0x80]))).toBe("A\u00e9\u0080");
  });
});

describe("RequestParser refusals and bounds", () => {
  const errorOf = (wire: string) => new RequestParser().push(bytes(wire)).find((e) => e.kind === "error");
  test("an HTTP version other than 1.0 and 1.1 is refused", () => {
    expect(errorOf("GET / HTTP/9.9\r\n\r\n")).toEqual({ kind: "error", message: "HTTP/9.9 is not HTTP/1.0 or HTTP/1.1, the versions capture reads" });
    expect(errorOf("GET / HTTP/1.0\r\n\r\n")).toBeUndefined();
  });

  test("Content-Length together with Transfer-Encoding is refused", () => {
    expect(errorOf("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")?.kind).toBe("error");
  });

  test("keeps only the first keepBodyBytes of a body and counts the rest, however it arrives", () => {
    const wire = `POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789`;
    const parser = new RequestParser({ keepBodyBytes: 4 });
    const [r] = requests([...bytes(wire)].flatMap((b) => parser.push(new Uint8Array([b]))));
    expect([text(r!), r!.bodyLength]).toEqual(["0123", 10]);
    const chunked = new RequestParser({ keepBodyBytes: 6 });
    const [c] = requests(chunked.push(bytes("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n")));
    expect([text(c!), c!.bodyLength]).toEqual(["Wikipe", 9]);
  });

  test("answers 10^5 characters of adversarial head text in time", async () => {
    const { adversarialInputs, slowInputs } = await import("../../test/support/fuzz.ts");
    const inputs = adversarialInputs(
      ["GET /", "GET / HTTP/1.1\r\nX: ", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"],
      ["\r\n\r\n", " HTTP/1.1\r\n\r\n"],
      [],
      60_000,
    );
    expect(await slowInputs(inputs, (t) => new RequestParser().push(bytes(t)))).toEqual([]);
  }, 600_000);
});
