// Getting a SAP GUI session for a flow: with `connection:` a connection of our OWN (SAP Logon's
// entry opened anew, its login screen filled), without it attach-only to a session someone has
// already logged on. Never takes over another user's session. Passwords go only into the login
// screen's password field and appear in no message.
import { FlowproofError } from "../../src/plugins/api.ts";
import { SapCallError, boolOf, isSapObject, itemsOf, objectOf, textOf, type SapCredentials, type SapObject, type ScriptingEngine } from "./engine.ts";

/** The launch config's SAP part, with every `${VAR}` already resolved by the engine. */
export interface SapConnectConfig {
  /** SAP Logon entry description; absent = attach to a logged-on session. */
  readonly connection?: string;
  readonly login?: SapCredentials;
  /** How the user was written in the flow (`${CLERK_USER}` or a literal): the only name messages use. */
  readonly userRef?: string;
  /** How the connection was written in the flow (`${SAP_CONNECTION}` or a literal): the name messages use. */
  readonly connectionRef?: string;
  readonly connectTimeoutMs: number;
}

export const SCRIPTING_CLIENT_HINT =
  'enable scripting in SAP GUI: Options → Accessibility & Scripting → Scripting → "Enable scripting" (registry HKCU\\Software\\SAP\\SAPGUI Front\\SAP Frontend Server\\Security, UserScripting = 1), and untick the notify-on-attach boxes';
export const SCRIPTING_SERVER_HINT = "ask the SAP basis team to set the profile parameter sapgui/user_scripting = TRUE (transaction RZ11) on this system";
const CREDENTIALS_HINT =
  "give the flow `login: {user: ${SAP_USER}, password: ${SAP_PASSWORD}}`, set SAP_USER and SAP_PASSWORD, or store fallback credentials with `flowproof config sap`";

const PASSWORD_HINT = "set SAP_PASSWORD beside SAP_USER, or give the flow `login: {user: ${SAP_USER}, password: ${SAP_PASSWORD}}`";

const fail = (message: string, hint: string, cause?: unknown): FlowproofError =>
  new FlowproofError({ code: "sap-error", message, hint }, cause === undefined ? undefined : { cause });

/** The scripting application, with client-side scripting problems explained. */
export function scriptingApplication(engine: ScriptingEngine, start: boolean, timeoutMs: number): SapObject {
  try {
    return engine.application({ start, timeoutMs });
  } catch (error) {
    // A sap-error already says what to change; any other failure (a refused scripting call, a COM error) means scripting is off.
    if (error instanceof FlowproofError && error.code === "sap-error") throw error;
    throw fail(
      `SAP GUI is running but its scripting engine is not available (${(error as Error).message}): scripting is disabled on this client`,
      SCRIPTING_CLIENT_HINT,
      error,
    );
  }
}

/** Opens (or attaches to) the session the flow runs in; throws a `sap-error` FlowproofError saying what to change. */
export async function connectSession(engine: ScriptingEngine, config: SapConnectConfig, sleep: (ms: number) => Promise<void>): Promise<ConnectedSession> {
  const app = scriptingApplication(engine, config.connection !== undefined, config.connectTimeoutMs);
  if (config.connection === undefined) return { session: attach(app) };
  const named = config.connectionRef ?? config.connection;
  if (!config.login && config.userRef !== undefined) {
    throw fail(`connection "${named}" has a user to log on with (${config.userRef}) but no password for it`, PASSWORD_HINT);
  }
  const login = config.login ?? engine.storedCredentials();
  if (!login) throw fail(`connection "${named}" needs a user to log on with, and none was given`, CREDENTIALS_HINT);
  const userRef = config.login ? (config.userRef ?? "the login user") : "the user stored by `flowproof config sap`";
  let connection: SapObject;
  try {
    const opened = app.call("OpenConnection", config.connection, true);
    if (!isSapObject(opened)) throw new SapCallError("OpenConnection returned no connection");
    connection = opened;
  } catch (error) {
    const entries = engine.logonEntries();
    // SAP Logon's own message quotes the entry it was given: shown as written too.
    const said = (error as Error).message.split(config.connection).join(named);
    throw fail(
      `SAP Logon has no connection "${named}" (${said})`,
      entries.length > 0
        ? `use one of SAP Logon's entries: ${entries.map((e) => JSON.stringify(e)).join(", ")}`
        : "add the system in SAP Logon, or fix `connection:` in the flow",
      error,
    );
  }
  if (boolOf(connection, "DisabledByServer")) {
    throw fail(`the SAP system behind "${named}" does not allow scripting`, SCRIPTING_SERVER_HINT);
  }
  const deadline = Date.now() + config.connectTimeoutMs;
  let session = itemsOf(objectOf(connection, "Children"))[0];
  while (!session) {
    if (Date.now() > deadline)
      throw fail(
        `connection "${named}" opened no session within ${config.connectTimeoutMs} ms`,
        "raise FLOWPROOF_SAP_CONNECT_TIMEOUT_MS, or check the system in SAP Logon",
      );
    await sleep(250);
    session = itemsOf(objectOf(connection, "Children"))[0];
  }
  try {
    logOn(session, login, userRef);
  } catch (error) {
    closeConnection(connection);
    throw error;
  }
  return { session, own: connection };
}

/** A session to run in; `own` is the connection flowproof opened (closed with the flow), absent when attached. */
export interface ConnectedSession {
  readonly session: SapObject;
  readonly own?: SapObject;
}

/** Closes a connection flowproof opened; an already closed one is fine. */
export function closeConnection(connection: SapObject): void {
  try {
    connection.call("CloseConnection");
  } catch {
    // SAP Logon closed it already (or the user did): nothing is left to close.
  }
}

/** Fills the login screen (client, user, password, language) and presses Enter; a refusal names the user reference only. */
export function logOn(session: SapObject, login: SapCredentials, userRef: string): void {
  const field = (name: string): SapObject | undefined => {
    const v = session.call("FindById", `wnd[0]/usr/${name}`, false);
    return isSapObject(v) ? v : undefined;
  };
  const user = field("txtRSYST-BNAME");
  const password = field("pwdRSYST-BCODE");
  if (!user || !password) {
    throw fail(
      `the new SAP session shows no login screen (no RSYST-BNAME/RSYST-BCODE fields) for ${userRef}`,
      "check that the SAP Logon entry leads to the standard login screen (no single sign-on)",
    );
  }
  const client = field("txtRSYST-MANDT");
  if (client && login.client !== undefined && login.client !== "") client.set("Text", login.client);
  user.set("Text", login.user);
  password.set("Text", login.password);
  const language = field("txtRSYST-LANGU");
  if (language && login.language !== undefined && login.language !== "") language.set("Text", login.language);
  const wnd = session.call("FindById", "wnd[0]");
  if (isSapObject(wnd)) wnd.call("SendVKey", 0);
  const info = objectOf(session, "Info");
  if (!info || textOf(info, "User") === "") {
    const status = statusBar(session);
    throw fail(
      `SAP refused the login of ${userRef}${status.text ? `: ${status.text}` : ""}`,
      "check the user, password and client given for it (the password itself is never shown)",
    );
  }
}

/** Attach-only: the first session whose user is logged on. */
function attach(app: SapObject): SapObject {
  for (const connection of itemsOf(objectOf(app, "Children"))) {
    for (const session of itemsOf(objectOf(connection, "Children"))) {
      const info = objectOf(session, "Info");
      if (info && textOf(info, "User") !== "") return session;
    }
  }
  throw fail(
    "no logged-on SAP GUI session to attach to",
    "log on in SAP GUI first, or give the flow `connection:` (and `login:`) so flowproof opens its own session",
  );
}

/** What the status bar says: `type` is SAP's message type (S, W, E, A, I or empty). */
export function statusBar(session: SapObject): { type: string; text: string } {
  const v = session.call("FindById", "wnd[0]/sbar", false);
  if (!isSapObject(v)) return { type: "", text: "" };
  return { type: textOf(v, "MessageType").toUpperCase(), text: textOf(v, "Text") };
}
