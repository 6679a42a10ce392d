import { describe, expect, test } from "bun:test";
import { FakeSap } from "./fake-engine.ts";
import { connectSession, statusBar } from "./connect.ts";
import { objectOf, textOf } from "./engine.ts";

const now = async (): Promise<void> => undefined;

describe("connectSession", () => {
  test("opens its own connection beside a session someone else has logged on", async () => {
    const sap = new FakeSap({ loggedOnUser: "OTHER", users: { CLERK: "pw" } });
    const { session, own } = await connectSession(
      sap,
      { connection: "TS3", login: { user: "clerk", password: "pw", language: "DE" }, connectTimeoutMs: 1000 },
      now,
    );
    expect(own).toBeDefined();
    expect(textOf(objectOf(session, "Info")!, "User")).toBe("CLERK");
    expect(textOf(objectOf(session, "Info")!, "Language")).toBe("DE");
    expect(textOf(objectOf(sap.sessions[0]!, "Info")!, "User")).toBe("OTHER");
  });

  test("attach-only picks the logged-on session and owns no connection", async () => {
    const sap = new FakeSap({ loggedOnUser: "OTHER" });
    const { session, own } = await connectSession(sap, { connectTimeoutMs: 1000 }, now);
    expect(own).toBeUndefined();
    expect(textOf(objectOf(session, "Info")!, "User")).toBe("OTHER");
  });

  test("a refused login closes the connection it opened", async () => {
    const sap = new FakeSap({ users: { CLERK: "pw" } });
    await expect(
      connectSession(sap, { connection: "TS3", login: { user: "clerk", password: "bad" }, userRef: "clerk", connectTimeoutMs: 1000 }, now),
    ).rejects.toThrow("SAP refused the login of clerk");
    expect(sap.app.children).toHaveLength(0);
  });
});

describe("statusBar", () => {
  test("reads the message type and text", async () => {
    const sap = new FakeSap({ loggedOnUser: "OTHER" });
    const session = sap.sessions[0]!;
    session.call("StartTransaction", "ZZ");
    expect(statusBar(session)).toEqual({ type: "E", text: "Transaction ZZ does not exist" });
  });
});
