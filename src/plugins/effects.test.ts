import { describe, expect, test } from "bun:test";
import { effectPath, effectRequest, isWriteMethod, observingNothing } from "./effects.ts";

describe("effectPath / effectRequest", () => {
  test("drop origin, query and fragment; ids and tokens become :id", () => {
    expect(effectPath("http://127.0.0.1:4000/orders/confirm?token=s3cret#top")).toBe("/orders/confirm");
    expect(effectRequest("post", "http://x/api/orders/1234/items/9f1c2d3e4b5a6978")).toBe("POST /api/orders/:id/items/:id");
    expect(effectPath("https://x/u/123e4567-e89b-12d3-a456-426614174000/")).toBe("/u/:id/");
    expect(effectPath("/plain/path?q=1")).toBe("/plain/path");
  });
  test("a segment of six or more characters holding two digits is an id; a version segment is kept", () => {
    expect(effectPath("http://x/api/subscribe-v2")).toBe("/api/subscribe-v2");
    expect(effectPath("http://x/api/v2/orders/ORD-AB12/items")).toBe("/api/v2/orders/:id/items");
    expect(effectPath("http://x/api/tokens/zq-canary-7731")).toBe("/api/tokens/:id");
  });
});

describe("isWriteMethod / observingNothing", () => {
  test("POST, PUT, PATCH and DELETE are writes in any case; reads are not", () => {
    for (const m of ["POST", "put", "Patch", "DELETE"]) expect(isWriteMethod(m)).toBe(true);
    for (const m of ["GET", "HEAD", "OPTIONS"]) expect(isWriteMethod(m)).toBe(false);
  });
  test("a surface observing nothing answers an empty, final effect and observes no kind", async () => {
    const w = observingNothing();
    expect(w.kinds).toEqual([]);
    expect(await w.read()).toMatchObject({ effect: {}, final: true });
    expect(w.sent).toBeUndefined();
    await w.stop();
  });
});
