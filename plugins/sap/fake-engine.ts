// An in-memory SAP GUI behind the ScriptingEngine interface, for unit tests on every platform:
// SAP Logon entries, a login screen, VA01 (create order: order type, then customer and items,
// Save writes an order number to the status bar), VA03 (display an order), ZFORM (the driver
// conformance suite's form, test/conformance/form.ts) and an error path.
// It models the scripting API's shape (ids, types, collections, status bar), not SAP itself.
import { FlowproofError } from "../../src/plugins/api.ts";
import { SapCallError, type SapArg, type SapCredentials, type SapObject, type SapValue, type ScriptingEngine } from "./engine.ts";

type Props = Record<string, SapArg | null>;
type Method = (...args: SapArg[]) => SapValue;

/** One scripting object: properties, methods and children (its `Children` collection). */
export class FakeComponent implements SapObject {
  readonly props: Props;
  readonly methods: Record<string, Method> = {};
  readonly children: FakeComponent[] = [];
  readonly objects: Record<string, () => SapValue> = {};
  parent: FakeComponent | undefined;
  readonly #writes: FakeWrite[];

  constructor(props: Props, writes: FakeWrite[], children: FakeComponent[] = []) {
    this.props = { Changeable: false, Tooltip: "", Text: "", Name: "", ...props };
    this.#writes = writes;
    for (const c of children) this.add(c);
  }

  add(child: FakeComponent): FakeComponent {
    child.parent = this;
    this.children.push(child);
    return child;
  }

  get id(): string {
    return String(this.props["Id"] ?? "");
  }

  get(name: string, ...args: SapArg[]): SapValue {
    if (name === "Children") return collection(this.children);
    const object = this.objects[name];
    if (object) return object();
    if (name in this.props) return this.props[name]!;
    const method = this.methods[name];
    if (method) return method(...args);
    throw new SapCallError(`unknown member ${name} of ${this.props["Type"]}`);
  }

  set(name: string, value: SapArg): void {
    if (!(name in this.props)) throw new SapCallError(`unknown property ${name} of ${this.props["Type"]}`);
    if (name === "Text" && this.props["Changeable"] !== true) throw new SapCallError(`The field ${this.id} is not changeable`);
    this.#writes.push({ id: this.id, property: name, value: String(value) });
    this.props[name] = value;
  }

  call(name: string, ...args: SapArg[]): SapValue {
    const method = this.methods[name];
    if (!method) throw new SapCallError(`unknown method ${name} of ${this.props["Type"]}`);
    return method(...args);
  }
}

/** A property write the fake saw (the test checks where the password went). */
export interface FakeWrite {
  readonly id: string;
  readonly property: string;
  readonly value: string;
}

function collection(items: readonly SapObject[]): SapObject {
  return {
    get: (name, ...args) => {
      if (name === "Count" || name === "Length") return items.length;
      if (name === "ElementAt" || name === "Item") return items[Number(args[0])] ?? null;
      throw new SapCallError(`unknown member ${name} of GuiComponentCollection`);
    },
    set: () => {
      throw new SapCallError("a collection has no writable property");
    },
    call: (name, ...args) => {
      if (name === "ElementAt" || name === "Item") {
        const v = items[Number(args[0])];
        if (!v) throw new SapCallError(`The enumerator of the collection cannot find an element with the specified index ${args[0]}`);
        return v;
      }
      throw new SapCallError(`unknown method ${name} of GuiComponentCollection`);
    },
  };
}

export interface FakeSapOptions {
  /** SAP Logon's entries (connection descriptions). */
  readonly entries?: readonly string[];
  /** user → password. */
  readonly users?: Readonly<Record<string, string>>;
  /** Client-side scripting off: the scripting engine cannot be had. */
  readonly scriptingDisabled?: boolean;
  /** Server-side scripting off (`sapgui/user_scripting = FALSE`). */
  readonly disabledByServer?: boolean;
  /** SAP Logon is not running. */
  readonly notRunning?: boolean;
  /** A session someone already logged on with (attach-only flows find it). */
  readonly loggedOnUser?: string;
  /** `flowproof config sap` credentials. */
  readonly stored?: SapCredentials;
  /** Windows can be captured (a tiny PNG): the surface then has the `screenshot` capability. */
  readonly frames?: boolean;
}

/** What the fake hands out as a captured window: a PNG's signature, enough for the driver. */
export const FAKE_FRAME = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

const SESSION_TYPES = {
  field: "GuiTextField",
  ctext: "GuiCTextField",
  pwd: "GuiPasswordField",
  btn: "GuiButton",
  lbl: "GuiLabel",
  chk: "GuiCheckBox",
  cmb: "GuiComboBox",
} as const;
/** The id prefix SAP GUI gives each control type. */
const ID_PREFIX: Record<keyof typeof SESSION_TYPES, string> = { field: "txt", ctext: "ctxt", pwd: "pwd", btn: "btn", lbl: "lbl", chk: "chk", cmb: "cmb" };

/** The fake SAP GUI: one system, any number of connections, each with one session. */
export class FakeSap implements ScriptingEngine {
  readonly writes: FakeWrite[] = [];
  readonly options: FakeSapOptions;
  readonly app: FakeComponent;
  #orders = 4710;
  /** Order numbers that exist, with their customer. */
  readonly orders = new Map<string, string>();

  constructor(options: FakeSapOptions = {}) {
    this.options = options;
    this.app = new FakeComponent({ Type: "GuiApplication", Id: "/app" }, this.writes);
    this.app.methods["OpenConnection"] = (description) => this.openConnection(String(description));
    this.app.objects["Connections"] = () => this.app.get("Children");
    if (options.loggedOnUser) this.openConnection(this.entries[0] ?? "TS3", options.loggedOnUser);
  }

  get entries(): readonly string[] {
    return this.options.entries ?? ["TS3 - Test System"];
  }

  application(): SapObject {
    if (this.options.notRunning)
      throw new FlowproofError({ code: "sap-error", message: "SAP GUI is not running (no SAPGUI entry in the Running Object Table)", hint: "start SAP Logon" });
    if (this.options.scriptingDisabled) throw new SapCallError("GetScriptingEngine: scripting is disabled");
    return this.app;
  }

  logonEntries(): readonly string[] {
    return this.entries;
  }

  storedCredentials(): SapCredentials | undefined {
    return this.options.stored;
  }

  close(): void {}

  get capture(): ((hwnd: number) => Uint8Array | undefined) | undefined {
    return this.options.frames ? () => FAKE_FRAME : undefined;
  }

  /** The sessions of every connection, in order. */
  get sessions(): FakeComponent[] {
    return this.app.children.flatMap((c) => c.children);
  }

  openConnection(description: string, loggedOn?: string): FakeComponent {
    const entry = this.entries.find((e) => e === description || e.split(" ")[0] === description);
    if (!entry) throw new SapCallError(`Connection entry "${description}" was not found in SAP Logon`);
    const n = this.app.children.length;
    const conn = this.app.add(
      new FakeComponent(
        { Type: "GuiConnection", Id: `/app/con[${n}]`, Description: entry, DisabledByServer: this.options.disabledByServer === true },
        this.writes,
      ),
    );
    conn.methods["CloseConnection"] = () => {
      this.app.children.splice(this.app.children.indexOf(conn), 1);
      return null;
    };
    if (this.options.disabledByServer) return conn;
    const session = conn.add(new FakeComponent({ Type: "GuiSession", Id: `/app/con[${n}]/ses[0]` }, this.writes));
    new FakeScreenSession(this, session, loggedOn);
    return conn;
  }

  nextOrder(customer: string): string {
    this.#orders += 1;
    const number = String(this.#orders);
    this.orders.set(number, customer);
    return number;
  }
}

/** The screens of one fake session and what Enter/F-keys/buttons do on them. */
class FakeScreenSession {
  readonly #sap: FakeSap;
  readonly #session: FakeComponent;
  readonly #info: FakeComponent;
  readonly #wnd: FakeComponent;
  readonly #usr: FakeComponent;
  readonly #sbar: FakeComponent;
  readonly #okcd: FakeComponent;
  #screen = "login";
  /** The last order saved in this session: VA03 offers it, as SAP does with parameter AUN. */
  #lastOrder = "";

  constructor(sap: FakeSap, session: FakeComponent, loggedOn: string | undefined) {
    this.#sap = sap;
    this.#session = session;
    const w = sap.writes;
    const base = session.id;
    this.#info = new FakeComponent({ Type: "GuiSessionInfo", User: "", Client: "", Language: "", Transaction: "S000", SystemName: "TS3" }, w);
    this.#wnd = session.add(
      new FakeComponent(
        { Type: "GuiMainWindow", Id: `${base}/wnd[0]`, Name: "wnd[0]", Text: "SAP", Handle: 0, Width: 1024, Height: 768, ScreenLeft: 0, ScreenTop: 0 },
        w,
      ),
    );
    const tbar = this.#wnd.add(new FakeComponent({ Type: "GuiToolbar", Id: `${base}/wnd[0]/tbar[0]`, Name: "tbar[0]" }, w));
    this.#okcd = tbar.add(
      new FakeComponent({ Type: "GuiOkCodeField", Id: `${base}/wnd[0]/tbar[0]/okcd`, Name: "okcd", Changeable: true, Tooltip: "Command field" }, w),
    );
    const save = tbar.add(
      new FakeComponent({ Type: "GuiButton", Id: `${base}/wnd[0]/tbar[0]/btn[11]`, Name: "btn[11]", Tooltip: "Save (Ctrl+S)", Changeable: true }, w),
    );
    save.methods["Press"] = () => this.#vkey(11);
    this.#usr = this.#wnd.add(new FakeComponent({ Type: "GuiUserArea", Id: `${base}/wnd[0]/usr`, Name: "usr" }, w));
    this.#sbar = this.#wnd.add(new FakeComponent({ Type: "GuiStatusbar", Id: `${base}/wnd[0]/sbar`, Name: "sbar", MessageType: "" }, w));
    session.objects["Info"] = () => this.#info;
    session.objects["ActiveWindow"] = () => this.#wnd;
    session.methods["FindById"] = (id, raise) => this.#find(String(id), raise !== false);
    session.methods["StartTransaction"] = (tcode) => this.#go(String(tcode));
    this.#wnd.methods["SendVKey"] = (key) => this.#vkey(Number(key));
    this.#wnd.methods["SetFocus"] = () => null;
    if (loggedOn) this.#loggedOn(loggedOn, "100", "EN");
    else this.#showLogin();
  }

  #find(id: string, raise: boolean): SapValue {
    const full = `${this.#session.id}/${id.replace(/^\//, "")}`;
    const walk = (c: FakeComponent): FakeComponent | undefined => (c.id === full ? c : c.children.map(walk).find((x) => x !== undefined));
    const found = walk(this.#session);
    if (!found && raise) throw new SapCallError(`The control could not be found by id.`);
    return found ?? null;
  }

  #status(type: "" | "S" | "W" | "E" | "A", text: string): void {
    this.#sbar.props["MessageType"] = type;
    this.#sbar.props["Text"] = text;
  }

  #control(kind: keyof typeof SESSION_TYPES, name: string, props: Props = {}): FakeComponent {
    // As in SAP GUI, a control that can be used is changeable: an enabled button too, a label never.
    const c = this.#usr.add(
      new FakeComponent(
        { Type: SESSION_TYPES[kind], Id: `${this.#usr.id}/${ID_PREFIX[kind]}${name}`, Name: name, Changeable: kind !== "lbl", ...props },
        this.#sap.writes,
      ),
    );
    if (kind === "btn") c.methods["Press"] = () => this.#press(name);
    if (kind === "chk") c.props["Selected"] = false;
    c.methods["SetFocus"] = () => {
      this.#wnd.objects["GuiFocus"] = () => c;
      return null;
    };
    return c;
  }

  /** A dropdown of `entries` ([key, value]): setting `Key` chooses one; `Value` is the chosen entry's text. */
  #combo(name: string, entries: readonly (readonly [string, string])[], props: Props = {}): FakeComponent {
    const c = this.#control("cmb", name, props);
    c.objects["Entries"] = () => collection(entries.map(([Key, Value]) => new FakeComponent({ Key, Value }, this.#sap.writes)));
    c.objects["Value"] = () => entries.find(([key]) => key === c.props["Key"])?.[1] ?? "";
    return c;
  }

  /** A labelled input: the label component, and the field whose LeftLabel it is. */
  #field(kind: "field" | "ctext" | "pwd", name: string, label: string, props: Props = {}): FakeComponent {
    const lbl = this.#control("lbl", `${name}-LBL`, { Text: label });
    const field = this.#control(kind, name, { Tooltip: label, ...props });
    field.objects["LeftLabel"] = () => lbl;
    return field;
  }

  #clear(): void {
    this.#usr.children.length = 0;
  }

  #showLogin(): void {
    this.#screen = "login";
    this.#wnd.props["Text"] = "SAP";
    this.#clear();
    this.#field("field", "RSYST-MANDT", "Client", { Text: "" });
    this.#field("field", "RSYST-BNAME", "User", { Text: "" });
    this.#field("pwd", "RSYST-BCODE", "Password", { Text: "" });
    this.#field("field", "RSYST-LANGU", "Logon Language", { Text: "" });
  }

  #loggedOn(user: string, client: string, language: string): void {
    this.#info.props["User"] = user.toUpperCase();
    this.#info.props["Client"] = client;
    this.#info.props["Language"] = language;
    this.#menu();
  }

  #menu(): void {
    this.#screen = "menu";
    this.#info.props["Transaction"] = "SMEN";
    this.#wnd.props["Text"] = "SAP Easy Access";
    this.#clear();
    this.#control("lbl", "WELCOME", { Text: `Welcome ${this.#info.props["User"]}` });
  }

  #value(name: string): string {
    const c = this.#usr.children.find((x) => x.props["Name"] === name);
    return String(c?.props["Text"] ?? "").trim();
  }

  #go(tcode: string): SapValue {
    this.#status("", "");
    const code = tcode.toUpperCase();
    if (code === "VA01") {
      this.#screen = "va01";
      this.#info.props["Transaction"] = "VA01";
      this.#wnd.props["Text"] = "Create Sales Documents";
      this.#clear();
      this.#field("ctext", "VBAK-AUART", "Order Type", { Tooltip: "Sales Document Type" });
      this.#field("ctext", "VBAK-VKORG", "Sales Organization");
      this.#combo(
        "VBAK-VTWEG",
        [
          ["10", "Final customer sales"],
          ["20", "Wholesale"],
        ],
        { Key: "10", Tooltip: "Distribution Channel" },
      );
    } else if (code === "VA03") {
      this.#screen = "va03";
      this.#info.props["Transaction"] = "VA03";
      this.#wnd.props["Text"] = "Display Sales Documents";
      this.#clear();
      this.#field("ctext", "VBAK-VBELN", "Order", { Text: this.#lastOrder });
    } else if (code === "ZFORM") {
      this.#screen = "zform";
      this.#info.props["Transaction"] = "ZFORM";
      this.#wnd.props["Text"] = "Flowproof Fixture";
      this.#clear();
      this.#field("field", "ZFORM-NAME", "Name");
      this.#field("field", "ZFORM-EMAIL", "Email");
      this.#field("pwd", "ZFORM-PASSWORD", "Password");
      this.#control("chk", "ZFORM-SUBSCRIBE", { Text: "Subscribe" });
      this.#control("lbl", "ZFORM-COUNTRY-LBL", { Text: "Country" });
      this.#combo(
        "ZFORM-COUNTRY",
        [
          ["BE", "Belgium"],
          ["FR", "France"],
          ["DE", "Germany"],
        ],
        { Key: "", Tooltip: "Country" },
      );
      this.#control("btn", "GREET", { Text: "Greet" });
      this.#control("lbl", "ZFORM-GREETING", { Text: "Waiting" });
      this.#control("btn", "DISABLED", { Text: "Disabled", Changeable: false });
      this.#control("lbl", "ZFORM-STATUS", { Text: "Ready" });
    } else if (code === "SMEN" || code === "") {
      this.#menu();
    } else {
      this.#status("E", `Transaction ${code} does not exist`);
    }
    return null;
  }

  #vkey(key: number): SapValue {
    if (this.#screen === "login") {
      if (key !== 0) return null;
      const user = this.#value("RSYST-BNAME");
      const pw = this.#value("RSYST-BCODE");
      const known = this.#sap.options.users ?? { CLERK: "clerk-pass" };
      const expected = Object.entries(known).find(([u]) => u.toUpperCase() === user.toUpperCase())?.[1];
      if (user === "" || expected === undefined || expected !== pw) {
        this.#status("E", "Name or password is incorrect (repeat logon)");
        return null;
      }
      this.#loggedOn(user, this.#value("RSYST-MANDT") || "100", this.#value("RSYST-LANGU") || "EN");
      return null;
    }
    // Every round trip to the server replaces the status bar's message.
    this.#status("", "");
    const ok = String(this.#okcd.props["Text"] ?? "").trim();
    if (key === 0 && ok !== "") {
      this.#okcd.props["Text"] = "";
      const m = /^\/[no](\w+)$/i.exec(ok);
      if (m) return this.#go(m[1]!);
      this.#status("E", `Function code ${ok} is not possible`);
      return null;
    }
    if (key === 0 && this.#screen === "va01") {
      const type = this.#value("VBAK-AUART").toUpperCase();
      if (type !== "OR" && type !== "ZOR") {
        this.#status("E", "Enter a valid sales document type");
        return null;
      }
      this.#status("", "");
      this.#screen = "va01-items";
      this.#wnd.props["Text"] = `Create Standard Order: Overview`;
      this.#clear();
      this.#field("field", "KUAGV-KUNNR", "Sold-To Party");
      this.#field("field", "RV45A-MABNR", "Material");
      this.#control("chk", "RV45A-EXPRESS", { Text: "Express delivery" });
      this.#control("btn", "SAVE", { Text: "Save", Tooltip: "Save the order" });
      return null;
    }
    if (key === 11 && this.#screen === "va01-items") return this.#press("SAVE");
    if (key === 0 && this.#screen === "va01-items") {
      if (this.#value("RV45A-MABNR") === "") this.#status("W", "No items were entered");
      return null;
    }
    if (key === 0 && this.#screen === "va03") {
      const number = this.#value("VBAK-VBELN");
      const customer = this.#sap.orders.get(number);
      if (!customer) {
        this.#status("E", `SD document ${number} is not in the database or has been archived`);
        return null;
      }
      this.#status("", "");
      this.#screen = "va03-detail";
      this.#wnd.props["Text"] = `Display Standard Order ${number}: Overview`;
      this.#clear();
      this.#field("ctext", "VBAK-VBELN", "Order", { Text: number, Changeable: false });
      this.#field("field", "KUAGV-KUNNR", "Sold-To Party", { Text: customer, Changeable: false });
      return null;
    }
    if (key === 3 || key === 12) this.#menu();
    return null;
  }

  #press(name: string): SapValue {
    if (name === "GREET" && this.#screen === "zform") {
      this.#usr.children.find((c) => c.props["Name"] === "ZFORM-GREETING")!.props["Text"] = `Hello, ${this.#value("ZFORM-NAME")}!`;
      this.#usr.children.find((c) => c.props["Name"] === "ZFORM-STATUS")!.props["Text"] = "Greeted";
      return null;
    }
    if (name !== "SAVE" || this.#screen !== "va01-items") return null;
    const customer = this.#value("KUAGV-KUNNR");
    if (customer === "") {
      this.#status("E", "Enter the sold-to party");
      return null;
    }
    const number = this.#sap.nextOrder(customer);
    this.#lastOrder = number;
    this.#menu();
    this.#info.props["Transaction"] = "VA01";
    this.#status("S", `Standard Order ${number} has been saved`);
    return null;
  }
}
