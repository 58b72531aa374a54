// The rules a writer keeps that a reader forgives, read off a stored artifact's lines (`check --writer`):
// the header line's members and their order (JSONL-5), each line as ECMAScript JSON.stringify writes
// it (JSONL-8), and no member name twice in one object (JSON-12). A reader reads such lines alike; a
// writer that breaks these rules writes other bytes than its peers, or text a reader takes only its
// last duplicate from. Each function takes one line's text that JSON.parse accepted.
import { headerLine } from '../../reference/jsonl.ts'
import { isRecord, type JsonRecord } from '../../reference/lossless-json.ts'

/** What JSONL-5 says against the header line `value` (its members as written), or undefined. */
export function headerMembersFault(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined
  const written = Object.keys(value)
  const canonical = Object.keys(headerLine(value as JsonRecord))
  const stranger = written.find(name => !canonical.includes(name))
  if (stranger !== undefined) return `the header line writes ${JSON.stringify(stranger)}, a member no writer writes (this header's line holds ${canonical.join(', ')})`
  const asNull = written.find(name => value[name] === null)
  if (asNull !== undefined) return `the header line writes ${asNull} as null; a writer leaves out a member the header does not have`
  const missing = canonical.find(name => !written.includes(name))
  if (missing !== undefined) return `the header line leaves out ${missing}, which writers always write`
  const outOfOrder = written.findIndex((name, index) => canonical[index] !== name)
  if (outOfOrder !== -1) return `the header line writes ${written[outOfOrder]} where ${canonical[outOfOrder]} belongs; writers write ${canonical.join(', ')} in that order`
  return undefined
}

/** Where `text` first differs from `canonical`, and what each has there, for people. */
export function firstDifference(text: string, canonical: string): string {
  let at = 0
  while (at < text.length && text[at] === canonical[at]) at++
  const shown = (from: string): string => (at >= from.length ? 'the end of the line' : JSON.stringify(from.slice(at, at + 12)))
  return `from character ${at + 1} it has ${shown(text)} where JSON.stringify writes ${shown(canonical)}`
}

/** A container being read: an object with the names seen so far and the member being read, or an array and its index. */
type Open = { names: Set<string>; member: string } | { index: number }

/** The path to the value the innermost of `open` is reading, as `data.content[2]`. */
function pathOf(open: readonly Open[]): string {
  return open.map(container => ('names' in container ? `.${container.member}` : `[${container.index}]`)).join('').replace(/^\./, '')
}

/** The end of the string that starts at `text[start]` (a quotation mark): the index after its closing quote. */
function stringEnd(text: string, start: number): number {
  let at = start + 1
  while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1
  return at + 1
}

/**
 * The first member name that an object of `text` (one JSON text) writes twice, with the path of that
 * object ('' for the top level), or undefined. Names compare decoded: "a" and "\u0061" are one name.
 */
export function duplicateMember(text: string): { name: string; path: string } | undefined {
  const open: Open[] = []
  for (let at = 0; at < text.length;) {
    const char = text[at] as string
    if (char === '"') {
      const end = stringEnd(text, at)
      let next = end
      while (/\s/.test(text[next] ?? '')) next++
      const container = open.at(-1)
      if (text[next] === ':' && container !== undefined && 'names' in container) {
        const name = JSON.parse(text.slice(at, end)) as string
        if (container.names.has(name)) return { name, path: pathOf(open.slice(0, -1)) }
        container.names.add(name)
        container.member = name
      }
      at = end
      continue
    }
    if (char === '{') open.push({ names: new Set(), member: '' })
    else if (char === '[') open.push({ index: 0 })
    else if (char === '}' || char === ']') open.pop()
    else if (char === ',') {
      const container = open.at(-1)
      if (container !== undefined && 'index' in container) container.index += 1
    }
    at += 1
  }
  return undefined
}

/** A writer's fault in one record or header line, or undefined when JSON.stringify would write it so. */
export type LineFormFault = { kind: 'duplicate-member'; name: string; path: string } | { kind: 'form'; difference: string }

/**
 * JSON-12, then JSONL-8, for one line's text. A final CR is left to the CRLF notice. `value` is what
 * JSON.parse read from `text`.
 */
export function lineFormFault(text: string, value: unknown): LineFormFault | undefined {
  const written = text.endsWith('\r') ? text.slice(0, -1) : text
  const canonical = JSON.stringify(value)
  if (written === canonical) return undefined
  const duplicate = duplicateMember(written)
  if (duplicate !== undefined) return { kind: 'duplicate-member', ...duplicate }
  return { kind: 'form', difference: firstDifference(written, canonical) }
}
