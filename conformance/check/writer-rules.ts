// The rules a writer keeps that a reader forgives, read off the lines of a stored artifact that the
// reader accepted (`check --writer`): the header line's members and their order (JSONL-5), a packed
// row's members and length (ROW-6, ROW-7; how a whole batch is packed is batch-packing.ts's), no
// member name twice in one object (JSON-12), and each line as ECMAScript JSON.stringify writes it
// (JSONL-8). A writer that breaks them writes other bytes than its peers, or text of which a reader
// keeps only the last duplicate. Each function takes a line that JSON.parse accepted, or the value it
// read.
import { headerLine } from '../../reference/jsonl.ts'
import { isRecord, type JsonRecord } from '../../reference/lossless-json.ts'
import { MIN_RUN, ROW_TAGS } from '../../reference/chunk-rows.ts'
import { characterCount, cutPoint, isPrintable } from '../wording.ts'

/** What JSONL-5 says against the header line `value` (its members as written), or undefined. */
export function headerMembersFault(value: unknown): string | undefined {
  // The reader has checked the members it needs, delegationDepth among them, so none is missing here.
  if (!isRecord(value)) return undefined
  const written = Object.keys(value)
  const canonical = Object.keys(headerLine(value as JsonRecord))
  const stranger = written.find(name => !canonical.includes(name))
  if (stranger !== undefined) return `the header line writes ${JSON.stringify(stranger)}, which is not one of the members JSONL-5 lists`
  const asNull = written.find(name => value[name] === null)
  if (asNull !== undefined) return `the header line writes ${asNull} as null; a writer leaves out a member the header does not have`
  const outOfOrder = written.findIndex((name, index) => canonical[index] !== name)
  if (outOfOrder !== -1) return `the header line writes ${written[outOfOrder]} where ${canonical[outOfOrder]} belongs; writers write ${canonical.join(', ')} in that order`
  return undefined
}

/** A packed row as written (its members and its data's), or undefined for any other line. */
function packedRow(value: unknown): { row: JsonRecord; data: JsonRecord } | undefined {
  if (!isRecord(value) || !(ROW_TAGS as readonly unknown[]).includes(value['type']) || !isRecord(value['data'])) return undefined
  return { row: value, data: value['data'] }
}

/** What ROW-7 says against a packed row the reader accepted (its members or its data's in another order), or undefined. */
export function rowOrderFault(value: unknown): string | undefined {
  const packed = packedRow(value)
  if (packed === undefined) return undefined
  const { row, data } = packed
  const tail = row['type'] === 'tool-call-chunks' ? ['id', ...('name' in data ? ['name'] : []), 'args'] : ['texts']
  const order = { row: ['type', 'seq0', 'time0', 'data'], data: ['turn', 'step', 'index', 'dt', ...tail] }
  if (Object.keys(row).join() !== order.row.join()) return `its members are ${Object.keys(row).join(', ')}, where ROW-7 writes ${order.row.join(', ')}`
  if (Object.keys(data).join() !== order.data.join()) return `its data members are ${Object.keys(data).join(', ')}, where ROW-7 writes ${order.data.join(', ')}`
  return undefined
}

/** What ROW-6 says against a packed row the reader accepted (fewer than three members), or undefined. */
export function shortRowFault(value: unknown): string | undefined {
  const packed = packedRow(value)
  if (packed === undefined) return undefined
  const members = packed.data[packed.row['type'] === 'tool-call-chunks' ? 'args' : 'texts']
  if (!Array.isArray(members) || members.length >= MIN_RUN) return undefined
  return `it packs ${members.length === 1 ? 'one event' : 'two events'}, and a writer packs only runs of three or more`
}

/** JSON.stringify's text of a value JSON.parse read, built without recursion: a line may nest 10,000 deep. */
export function stringifiedText(value: unknown): string {
  const parts: string[] = []
  // Each entry is a value still to write, or the text that closes a container.
  const pending: ({ value: unknown } | { text: string })[] = [{ value }]
  while (pending.length > 0) {
    const next = pending.pop() as { value: unknown } | { text: string }
    if ('text' in next) {
      parts.push(next.text)
      continue
    }
    const current = next.value
    if (Array.isArray(current)) {
      parts.push('[')
      pending.push({ text: ']' })
      for (let index = current.length - 1; index >= 0; index--) {
        pending.push({ value: current[index] })
        if (index > 0) pending.push({ text: ',' })
      }
    } else if (isRecord(current)) {
      parts.push('{')
      pending.push({ text: '}' })
      const names = Object.keys(current)
      for (let index = names.length - 1; index >= 0; index--) {
        const name = names[index] as string
        pending.push({ value: current[name] }, { text: `${index > 0 ? ',' : ''}${JSON.stringify(name)}:` })
      }
    } else parts.push(JSON.stringify(current))
  }
  return parts.join('')
}

/**
 * JSON.stringify's text of a value JSON.parse read: the built-in, which is fast but recurses, and on a
 * value too deep for its stack (its only failure on such a value) `stringifiedText`.
 */
export function canonicalText(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch {
    return stringifiedText(value)
  }
}

/**
 * Two pieces of lines as the files hold them, between backticks (JSON-quoting them would double each
 * backslash and quote they hold), undefined for a line that has ended. Both are JSON-quoted when either
 * holds a backtick or a character a report escapes (wording.ts, printable): an escape in one would
 * look like the character in the other.
 */
function asWritten(pieces: readonly (string | undefined)[]): string[] {
  const plain = pieces.every(piece => piece === undefined || (isPrintable(piece) && !piece.includes('`')))
  return pieces.map(piece => (piece === undefined ? 'the end of the line' : plain ? `\`${piece}\`` : JSON.stringify(piece)))
}

/** Where `text` first differs from `canonical`, counted in characters, and what each has there, for people. */
export function firstDifference(text: string, canonical: string): string {
  let at = 0
  while (at < text.length && text[at] === canonical[at]) at++
  // Start at a whole character: two characters may share their first UTF-16 code unit.
  at = cutPoint(text, at)
  const pieceOf = (from: string): string | undefined => (at >= from.length ? undefined : Array.from(from.slice(at, at + 24)).slice(0, 12).join(''))
  const [has, writes] = asWritten([pieceOf(text), pieceOf(canonical)])
  return `from character ${characterCount(text.slice(0, at)) + 1} it has ${has} where JSON.stringify writes ${writes}`
}

/** A container being read: an object with the names seen so far and the member being read, or an array and its index. */
type Open = { names: Set<string>; member: string } | { index: number }

/** A member name in a path: plain when it reads as one, else quoted in brackets. */
function pathStep(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`
}

/** The path to the value the innermost of `open` is reading, as `data.content[2]`. */
function pathOf(open: readonly Open[]): string {
  return open.map(container => ('names' in container ? pathStep(container.member) : `[${container.index}]`)).join('').replace(/^\./, '')
}

/** The end of the string that starts at `text[start]` (a quotation mark): the index after its closing quote. */
function stringEnd(text: string, start: number): number {
  let at = start + 1
  while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1
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

/** A writer's fault in the text of one line, or undefined when it is JSON.stringify's text of its value. */
export type LineFormFault = { kind: 'duplicate-member'; name: string; path: string } | { kind: 'form'; difference: string }

/**
 * JSON-12, then JSONL-8, for one line's text. A final CR is left to the CRLF notice. `value` is what
 * JSON.parse read from `text`.
 */
export function lineFormFault(text: string, value: unknown): LineFormFault | undefined {
  const written = text.endsWith('\r') ? text.slice(0, -1) : text
  const canonical = canonicalText(value)
  if (written === canonical) return undefined
  const duplicate = duplicateMember(written)
  if (duplicate !== undefined) return { kind: 'duplicate-member', ...duplicate }
  return { kind: 'form', difference: firstDifference(written, canonical) }
}
