import { describe, expect, test } from "bun:test";
import { anotherApp } from "./other-app.ts";

describe("anotherApp", () => {
  test.each([
    ["Open Outlook and find the confirmation", "Outlook"],
    ["Check the email inbox for the activation link", "a mail client"],
    ["Open the confirmation email", "a mail client"],
    ["An email is sent to the customer", "a mail client"],
    ["Open the downloaded file in Excel", "Excel"],
    ["Compare the totals with the spreadsheet", "a spreadsheet"],
    ["Enter the code received by SMS", "a phone (SMS)"],
    ["Unlock the phone and approve the login", "a phone"],
    ["Run the import script in a terminal", "a terminal"],
  ])("%j happens in %s", (text, name) => {
    expect(anotherApp(text, ["web"])).toBe(name);
  });

  test.each([
    ['Click "Export to Excel"'],
    ["Click Export to Excel"],
    ['Type ada@example.com into the "Email" field'],
    ["Enter the phone number 555-0100"],
    ['Click "Open in Outlook"'],
    ["Go to /orders"],
  ])("%j is a step of the app itself", (text) => {
    expect(anotherApp(text, ["web"])).toBeUndefined();
  });

  test("the app under test is not another app: its adapter names it by kind or title, in any case", () => {
    expect(anotherApp("Open Notepad", ["web", "web flows"])).toBe("Notepad");
    expect(anotherApp("Open Notepad", ["notepad"])).toBeUndefined();
    expect(anotherApp("Log on in SAP GUI", ["web"])).toBe("SAP GUI");
    expect(anotherApp("Log on in SAP GUI", ["sap", "SAP GUI"])).toBeUndefined();
    expect(anotherApp("Open Outlook", ["mail", "outlook"])).toBeUndefined();
  });
});
