// Text that an adapter, a vector file or a file name may carry against a terminal: a title sequence
// (ESC ] 0 ; … BEL), a screen clear (ESC [ 2 J), CR LF and a forged line after them, and a
// right-to-left override; as printable (conformance/wording.ts) shows it; and the fake adapter named so.

export const HOSTILE = 'evil\u001b]0;TITLE\u0007\u001b[2J\r\nforged: ok\u202e'

/** HOSTILE as printable shows it: each of its controls as its \u escape. */
export const HOSTILE_ESCAPED = 'evil\\u001b]0;TITLE\\u0007\\u001b[2J\\u000d\\u000aforged: ok\\u202e'

/** A control or format character a terminal acts on or hides, the line feed and the tab aside. */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u

/** The command of the fake subprocess adapter that names itself `name` and fails every operation with it. */
export function hostileAdapterCommand(name: string): string {
  // JSON-escaped, the name holds no raw control for the shell; it must hold no single quote.
  return `node tests/fakes/fake-adapter.mjs hostile '${JSON.stringify(name)}'`
}
