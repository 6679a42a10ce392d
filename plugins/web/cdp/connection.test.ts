// The session's input gate: trusted input waits for a page-side install; page commands do not.
import { expect, test } from "bun:test";
import { Session, type Connection } from "./connection.ts";

/** A connection whose answers the test releases one by one, recording the order commands left in. */
function scriptedConnection() {
  const sent: string[] = [];
  const answers = new Map<string, () => void>();
  const connection = {
    send(method: string) {
      sent.push(method);
      return new Promise((resolve) => answers.set(method, () => resolve({})));
    },
  } as unknown as Connection;
  return { connection, sent, answer: (method: string) => answers.get(method)!() };
}

test("Input.* commands wait for the gate; page commands go out at once; the gate clears once settled", async () => {
  const { connection, sent, answer } = scriptedConnection();
  const session = new Session(connection, "s1");
  const install = session.send("Runtime.evaluate", { expression: "1" });
  session.holdInputUntil(install);
  const key = session.send("Input.dispatchKeyEvent", { type: "keyDown", key: "a" });
  const query = session.send("Runtime.callFunctionOn", { functionDeclaration: "function () {}" });
  await Bun.sleep(5);
  expect(sent).toEqual(["Runtime.evaluate", "Runtime.callFunctionOn"]);
  answer("Runtime.evaluate");
  await install;
  await Bun.sleep(0);
  expect(sent).toEqual(["Runtime.evaluate", "Runtime.callFunctionOn", "Input.dispatchKeyEvent"]);
  answer("Input.dispatchKeyEvent");
  answer("Runtime.callFunctionOn");
  await Promise.all([key, query]);
  // A gate whose install failed still opens; once open, input goes straight out.
  const failed = Promise.reject(new Error("page gone"));
  session.holdInputUntil(failed);
  const later = session.send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 1, y: 1 });
  await Bun.sleep(5);
  expect(sent.at(-1)).toBe("Input.dispatchMouseEvent");
  answer("Input.dispatchMouseEvent");
  await later;
});
