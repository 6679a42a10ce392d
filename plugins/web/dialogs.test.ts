import { describe, expect, test } from "bun:test";
import { DialogStorm, PageDialogs, dialogAnswer, shortMessage } from "./dialogs.ts";

describe("dialogAnswer", () => {
  test("an undeclared dialog is dismissed", () => {
    expect(dialogAnswer(undefined, "confirm", "Delete?")).toEqual({ accept: false });
  });

  test("the declared dialog is accepted when its message matches, a prompt with its reply", () => {
    expect(dialogAnswer({ disposition: "accept", message: "Name" }, "prompt", "Your Name?")).toEqual({ accept: true });
    expect(dialogAnswer({ disposition: "accept", reply: "Ada" }, "prompt", "Your name?")).toEqual({ accept: true, promptText: "Ada" });
    expect(dialogAnswer({ disposition: "accept", reply: "Ada" }, "confirm", "Sure?")).toEqual({ accept: true });
  });

  test("a message that does not match is dismissed, never accepted on the author's behalf", () => {
    expect(dialogAnswer({ disposition: "accept", message: "Delete" }, "confirm", "Leave the page?")).toEqual({ accept: false });
    expect(dialogAnswer({ disposition: "dismiss", reply: "Ada" }, "prompt", "Your name?")).toEqual({ accept: false });
  });
});

describe("shortMessage", () => {
  test("one line, control characters out, bounded to 60 characters", () => {
    expect(shortMessage("  two\nlines\u2028here\u0007 ")).toBe("two lines here");
    const long = shortMessage("x".repeat(100));
    expect(long).toHaveLength(60);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("DialogStorm", () => {
  test("twenty dialogs within five seconds are a storm, named by their most frequent kinds", () => {
    let now = 0;
    const storm = new DialogStorm(() => now);
    const kinds = [...Array<string>(11).fill("alert"), ...Array<string>(5).fill("confirm"), ...Array<string>(3).fill("prompt"), "beforeunload"];
    const faults = kinds.map((kind) => {
      now += 200;
      return storm.count(kind, "Again!");
    });
    expect(faults.slice(0, 19)).toEqual(Array(19).fill(undefined));
    expect(faults[19]).toStartWith(
      'the page opens dialogs without end: 20 within 5 s (alert "Again!" ×11, confirm "Again!" ×5, prompt "Again!" ×3 and 1 other kinds)',
    );
  });

  test("dialogs spread over time are never a storm", () => {
    let now = 0;
    const storm = new DialogStorm(() => now);
    for (let i = 0; i < 100; i++) {
      now += 300;
      expect(storm.count("alert", "hi")).toBeUndefined();
    }
  });
});

describe("PageDialogs", () => {
  test("the first dialog after arm is the declared one, answered as declared; a second is dismissed and named once", () => {
    const dialogs = new PageDialogs();
    dialogs.arm({ disposition: "accept", reply: "Ada" });
    expect(dialogs.opened("prompt", "Your name?")).toEqual({ answer: { accept: true, promptText: "Ada" } });
    expect(dialogs.outcome()).toEqual({ opened: true, type: "prompt", message: "Your name?" });
    expect(dialogs.opened("alert", "Saved")).toEqual({ answer: { accept: false } });
    expect(dialogs.takeUnexpected()).toBe("alert: Saved");
    expect(dialogs.takeUnexpected()).toBeUndefined();
    dialogs.arm(undefined);
    expect(dialogs.outcome()).toEqual({ opened: false });
  });

  test("a leave prompt says nothing of the page's: the browser's own words are left out, declared or not", () => {
    const dialogs = new PageDialogs();
    dialogs.arm({ disposition: "accept" });
    expect(dialogs.opened("beforeunload", "This page is asking you to confirm that you want to leave")).toEqual({ answer: { accept: true } });
    expect(dialogs.outcome()).toEqual({ opened: true, type: "beforeunload", message: "" });
    dialogs.arm(undefined);
    dialogs.opened("beforeunload", "Leave site? Changes you made may not be saved.");
    expect(dialogs.takeUnexpected()).toBe("beforeunload");
  });

  test("an undeclared dialog is dismissed; the twentieth in a burst is a storm, with no answer", () => {
    const dialogs = new PageDialogs();
    expect(dialogs.opened("confirm", "Delete?")).toEqual({ answer: { accept: false } });
    expect(dialogs.takeUnexpected()).toBe("confirm: Delete?");
    for (let i = 0; i < 18; i++) expect("answer" in dialogs.opened("alert", "again")).toBe(true);
    const storm = dialogs.opened("alert", "again");
    expect("storm" in storm && storm.storm).toStartWith("the page opens dialogs without end: 20 within 5 s");
  });
});
