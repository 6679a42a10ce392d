import { describe, expect, test } from "bun:test";
import { agentHealHtml } from "./agent-heal-html.ts";

describe("agentHealHtml", () => {
  test("turn by turn, recorded beside new: kept turns, the first re-recorded turn, calls with results and the reply, escaped", () => {
    const html = agentHealHtml({
      name: "Book <it>",
      tracePath: "book.trace.jsonl",
      proposedPath: "book.proposed.jsonl",
      runs: [
        {
          id: "s0001",
          intent: "prompt: Book KQ311",
          kept: 1,
          recorded: { turns: 2, calls: [{ turn: 1, name: "book_flight", arguments: { id: "KQ311" }, result: '{"id":"KQ311"}' }], reply: "Booked KQ311." },
          now: {
            turns: 3,
            calls: [
              { turn: 1, name: "book_flight", arguments: { id: "KQ311" }, result: '{"id":"BA065"}' },
              { turn: 2, name: "cancel", arguments: {} },
            ],
            reply: "Booked BA065.",
          },
        },
      ],
    });
    expect(html).toContain("<title>heal: Book &lt;it&gt;</title>");
    expect(html).toContain("1 of 2 recorded turns kept; from turn 2 on re-recorded against the live model (3 turns now).");
    expect(html).toContain('<tr class="kept"><th>turn 1<div class="state">kept (served from the recording)</div></th>');
    expect(html).toContain(
      '<tr class="diverged"><th>turn 2<div class="state">first re-recorded turn</div></th><td class="old"><p class="reply">reply: Booked KQ311.</p></td><td class="new"><ul><li><b>cancel</b>',
    );
    expect(html).toContain('<tr class="new"><th>turn 3');
    expect(html).toContain('<p class="none">no such turn</p>');
    expect(html).toContain("returned <code>{&quot;id&quot;:&quot;BA065&quot;}</code>");
    expect(html).toContain("reply: Booked BA065.");
  });
});
