import { describe, expect, test } from "bun:test";
import { bodyText, captureRecord, hexdump, namespaceFields, printedText, requestText, shownValue } from "./format.ts";
import type { RawRequest } from "./http-parser.ts";

const raw = (over: Partial<RawRequest> = {}): RawRequest => ({
  requestLine: "POST /sap/bc/srt?field=%2FSCWM%2FDOCNO HTTP/1.1",
  method: "POST",
  target: "/sap/bc/srt?field=%2FSCWM%2FDOCNO",
  version: "HTTP/1.1",
  headers: [
    ["Host", "127.0.0.1:9"],
    ["content-TYPE", "application/json"],
    ["Authorization", "Basic dXNlcjpwYXNz"],
  ],
  body: new TextEncoder().encode('{"/SCWM/LGNUM": "0001", "/BIC/ZQTY": 2}'),
  chunked: false,
  trailers: [],
  ...over,
});

describe("requestText", () => {
  test("saves the request line and headers as sent, the body, and the namespace fields", () => {
    const req = raw();
    expect(requestText(req, captureRecord(req, 1, "/tmp/req-001.txt"))).toBe(
      [
        "POST /sap/bc/srt?field=%2FSCWM%2FDOCNO HTTP/1.1",
        "Host: 127.0.0.1:9",
        "content-TYPE: application/json",
        "Authorization: Basic [redacted: 12 bytes]",
        "",
        '{"/SCWM/LGNUM": "0001", "/BIC/ZQTY": 2}',
        "--- body: 39 bytes, text",
        "--- SAP namespace fields: /SCWM/DOCNO, /SCWM/LGNUM, /BIC/ZQTY",
        "",
      ].join("\n"),
    );
  });

  test("hexdumps a binary body and lists a chunked body's trailers", () => {
    const req = raw({ body: new Uint8Array([0x50, 0x4b, 3, 4, 0xff]), chunked: true, trailers: [["X-Checksum", "abc"]], headers: [] });
    expect(
      requestText(req, captureRecord(req, 2, "f"))
        .split("\n")
        .slice(2),
    ).toEqual([
      "00000000  50 4b 03 04 ff" + " ".repeat(36) + "|PK...|",
      "--- body: 5 bytes, binary (hexdump above), sent chunked",
      "--- trailer: X-Checksum: abc",
      "--- SAP namespace fields: /SCWM/DOCNO",
      "",
    ]);
  });
});

describe("captureRecord", () => {
  test("is the --json line: ordered headers, redacted credentials, body facts", () => {
    const req = raw();
    expect(captureRecord(req, 7, "/out/req-007.txt")).toEqual({
      seq: 7,
      method: "POST",
      path: "/sap/bc/srt?field=%2FSCWM%2FDOCNO",
      version: "HTTP/1.1",
      headers: [
        ["Host", "127.0.0.1:9"],
        ["content-TYPE", "application/json"],
        ["Authorization", "Basic [redacted: 12 bytes]"],
      ],
      body_length: 39,
      body_kind: "text",
      chunked: false,
      namespace_fields: ["/SCWM/DOCNO", "/SCWM/LGNUM", "/BIC/ZQTY"],
      file: "/out/req-007.txt",
    });
  });

  test("decodes a form-encoded body before looking for namespace fields", () => {
    const req = raw({
      target: "/",
      headers: [["Content-Type", "application/x-www-form-urlencoded"]],
      body: new TextEncoder().encode("%2FSCWM%2FHUIDENT=1&x=2"),
    });
    expect(captureRecord(req, 1, "f").namespace_fields).toEqual(["/SCWM/HUIDENT"]);
  });
});

describe("namespaceFields", () => {
  test.each([
    ["<_-SCWM_-LGNUM>0001</_-SCWM_-LGNUM> and /BIC/ZFIELD", ["/SCWM/LGNUM", "/BIC/ZFIELD"]],
    ["/sap/opu/odata/sap/API_X and /SAP/BC/REST/X", []],
    ["a/B/C and /AB/CD/ and /AB/CD", ["/AB/CD"]],
  ])("%j → %j", (text, names) => {
    expect(namespaceFields(text)).toEqual(names);
  });
});

describe("helpers", () => {
  test("shownValue redacts credentials only", () => {
    expect(shownValue("cookie", "sid=1; x=2")).toBe("[redacted: 10 bytes]");
    expect(shownValue("Authorization", "Bearer abc")).toBe("Bearer [redacted: 3 bytes]");
    expect(shownValue("Accept", "*/*")).toBe("*/*");
  });
  test("bodyText refuses invalid UTF-8 and control characters", () => {
    expect(bodyText(new Uint8Array([0xc3, 0xa9]))).toBe("é");
    expect(bodyText(new Uint8Array([0xc3]))).toBeUndefined();
    expect(bodyText(new Uint8Array([0x61, 0x00]))).toBeUndefined();
  });
  test("hexdump splits 16 bytes into two groups of eight", () => {
    expect(hexdump(new TextEncoder().encode("0123456789abcdefZ"))).toBe(
      "00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n00000010  5a                                                |Z|",
    );
  });
  test("printedText cuts a long body and points at the file", () => {
    const req = raw({ body: new TextEncoder().encode("é".repeat(5000)), headers: [] });
    const text = printedText(req, captureRecord(req, 1, "/out/req-001.txt"));
    expect(text).toContain("… the rest is in /out/req-001.txt\n--- body: 10000 bytes, text");
    expect(text.length).toBeLessThan(4300);
  });
});

describe("credential redaction by name", () => {
  test("header, query, form and JSON field names holding a credential word, and vendor headers", async () => {
    const { isCredentialName, shownForm, shownJson, shownTarget } = await import("./format.ts");
    expect(
      [
        "X-Amz-Security-Token",
        "x-goog-api-key",
        "Private-Token",
        "X-Vault-Token",
        "Ocp-Apim-Subscription-Key",
        "Set-Cookie",
        "MYSAPSSO2",
        "X-Goog-IAP-JWT-Assertion",
        "sap-password",
        "client_secret",
      ].filter((n) => !isCredentialName(n)),
    ).toEqual([]);
    expect(["Host", "Content-Type", "Accept", "X-Request-Id", "user", "sap-client"].filter(isCredentialName)).toEqual([]);
    expect(shownTarget("/a?x=1&api_key=abc&pass%77ord=p")).toBe("/a?x=1&api_key=[redacted: 3 bytes]&pass%77ord=[redacted: 1 bytes]");
    expect(shownForm("user=ada&password=Welcome1&flag")).toBe("user=ada&password=[redacted: 8 bytes]&flag");
    expect(shownJson('{"user": "ada", "token": "t\\"ok", "pin_key": 1234, "ok": true}')).toBe(
      '{"user": "ada", "token": "[redacted: 5 bytes]", "pin_key": "[redacted: 4 bytes]", "ok": true}',
    );
  });

  test("answers 10^5 characters of adversarial text in time", async () => {
    const { adversarialInputs, slowInputs } = await import("../../test/support/fuzz.ts");
    const { shownForm, shownJson, shownTarget, namespaceFields } = await import("./format.ts");
    const inputs = adversarialInputs(['{"token": ', "/a?", "password="], ['": 1', "=x"]);
    expect(await slowInputs(inputs, (t) => [shownForm(t), shownJson(t), shownTarget(t), namespaceFields(t)])).toEqual([]);
  }, 600_000);
});
