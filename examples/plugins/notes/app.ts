// The in-house app under test: a notes list with one "Note" field and two buttons, driven over a
// small JSON HTTP API instead of a browser. `bun app.ts` serves it; tests call `startNotesApp()`.

/** What the app shows: the adapter reads this screen and acts on it. */
export interface Screen {
  readonly title: string;
  /** Field label → current value. */
  readonly fields: Readonly<Record<string, string>>;
  readonly buttons: readonly string[];
  /** Every line of text on the screen. */
  readonly texts: readonly string[];
}

export interface NotesApp {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  stop(): void;
}

export function startNotesApp(port = 0): NotesApp {
  const notes: string[] = [];
  let draft = "";
  const screen = (): Screen => ({
    title: "Notes",
    fields: { Note: draft },
    buttons: ["Add", "Clear all"],
    texts: ["Notes", `${notes.length} ${notes.length === 1 ? "note" : "notes"}`, ...notes],
  });
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      if (req.method === "GET" && pathname === "/api/screen") return Response.json(screen());
      if (req.method === "POST" && pathname === "/api/fill") {
        const body = (await req.json()) as { field?: unknown; text?: unknown };
        if (body.field !== "Note" || typeof body.text !== "string") return Response.json({ error: `no field ${JSON.stringify(body.field)}` }, { status: 404 });
        draft = body.text;
        return Response.json(screen());
      }
      if (req.method === "POST" && pathname === "/api/press") {
        const body = (await req.json()) as { button?: unknown };
        if (body.button === "Add") {
          if (draft.trim() !== "") notes.push(draft.trim());
          draft = "";
        } else if (body.button === "Clear all") notes.length = 0;
        else return Response.json({ error: `no button ${JSON.stringify(body.button)}` }, { status: 404 });
        return Response.json(screen());
      }
      return new Response("not found", { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${String(server.port)}`, stop: () => server.stop(true) };
}

if (import.meta.main) {
  const app = startNotesApp(Number(process.env["PORT"] ?? 4100));
  console.log(`notes app on ${app.url} — try: NOTES_URL=${app.url} flowproof record add-note.flow.yaml`);
}
