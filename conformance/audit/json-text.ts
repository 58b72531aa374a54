// The JSON text of a value read from a log, at any depth. JSON.stringify recurses, so it throws a
// RangeError on a value nested deeper than the stack allows, which a log may hold (JSON-11 sets no
// limit above 1,000 levels); such a value is written by a loop instead, to the same text.
import { isStackOverflow } from '../wording.ts'

/** What is left to write: a value (a member's, with its name), or punctuation. */
type Pending = { value: unknown; key?: string } | { text: string }

/** JSON.stringify of a JSON value (no undefined, no function), by a loop with a stack of its own. */
function jsonTextByLoop(value: unknown): string {
  const parts: string[] = []
  const pending: Pending[] = [{ value }]
  while (pending.length > 0) {
    const next = pending.pop()!
    if ('text' in next) {
      parts.push(next.text)
      continue
    }
    if (next.key !== undefined) parts.push(`${JSON.stringify(next.key)}:`)
    const item = next.value
    if (typeof item !== 'object' || item === null) {
      parts.push(JSON.stringify(item))
      continue
    }
    // The members go on the stack last one first, so that they come off it in order.
    const keys = Array.isArray(item) ? undefined : Object.keys(item)
    const members: Pending[] = Array.isArray(item) ? item.map(element => ({ value: element })) : keys!.map(key => ({ value: (item as Record<string, unknown>)[key], key }))
    parts.push(Array.isArray(item) ? '[' : '{')
    pending.push({ text: Array.isArray(item) ? ']' : '}' })
    for (let index = members.length - 1; index >= 0; index -= 1) {
      pending.push(members[index]!)
      if (index > 0) pending.push({ text: ',' })
    }
  }
  return parts.join('')
}

/** The text JSON.stringify gives a JSON value, also when the value is nested too deeply for it. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch (error) {
    if (!isStackOverflow(error)) throw error
    return jsonTextByLoop(value)
  }
}
