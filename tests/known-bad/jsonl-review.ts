// Known-bad JSONL readers and writers from a second planted-bug review of chapter 19 (bugs planted in
// a second implementation; these passed every jsonl vector then): a lenient parser, blank CRLF lines
// and whitespace tails skipped, header and row members judged looser or stricter than JSONL-6 and
// ROW-3, and a writer that loses __proto__ members or will not pack empty deltas. The readers decode
// the artifact's lines as the bug reads them, with lines and offsets reported in the artifact's own
// numbering (raw UTF-8 input only; zstd input is untouched); the writers edit the batches they write.
import { packableTag } from '../../reference/chunk-rows.ts'
import type { JsonlValue } from '../../reference/jsonl.ts'
import { copiedByAssignment, dataOf, encodingAlone, isRecord, lineJson, rawText, ref, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

/** One line of the artifact (split at each line feed; the last is the unterminated tail) and its line number there. */
type ArtifactLine = { text: string; number: number }

/** How the bug reads the artifact's lines: edited, dropped, or as they are. */
type LineReading = (lines: ArtifactLine[]) => ArtifactLine[]

/** The input with its artifact's text replaced, given as the original was (text or base64). */
function withText(input: Input, text: string): Input {
  return typeof input['base64'] === 'string' ? { ...input, base64: Buffer.from(text, 'utf8').toString('base64') } : { ...input, text }
}

/** The byte offset at which line `number` of the artifact starts. */
function lineOffset(lines: readonly ArtifactLine[], number: number): number {
  return lines.slice(0, number - 1).reduce((offset, line) => offset + Buffer.byteLength(line.text, 'utf8') + 1, 0)
}

/** decodeJsonl over the lines as `reading` gives them; a rejection's line and the torn tail's line and offset are the artifact's. */
function decodingLinesAs(reading: LineReading): SyncOperation {
  return input => {
    const text = rawText(input)
    if (text === undefined) return ref.decodeJsonl(input)
    const lines = text.split('\n').map((line, index) => ({ text: line, number: index + 1 }))
    const read = reading(lines)
    const result = ref.decodeJsonl(withText(input, read.map(line => line.text).join('\n')))
    const numberOf = (line: number): number => read[line - 1]?.number ?? line
    if (!result.ok) return result.error.line === undefined ? result : { ...result, error: { ...result.error, line: numberOf(result.error.line) } }
    const tail = (result.value as JsonlValue).tornTail
    if (tail === null) return result
    const number = numberOf(tail.line)
    return { ...result, value: { ...(result.value as JsonlValue), tornTail: { ...tail, line: number, offset: lineOffset(lines, number) } } }
  }
}

/** Each line edited by `edit`, given its index (0: the header line). */
function eachLine(edit: (text: string, index: number) => string): LineReading {
  return lines => lines.map((line, index) => ({ ...line, text: edit(line.text, index) }))
}

// ---- JSONL-9: what a lenient reader lets pass ------------------------------------------------------

/** Whitespace, then a closing bracket: what follows a trailing comma. */
const CLOSE_NEXT = /[ \t\r]*[}\]]/y

/** Whether a closing bracket comes next in `text` from `at`, whitespace aside. */
function closesAt(text: string, at: number): boolean {
  CLOSE_NEXT.lastIndex = at
  return CLOSE_NEXT.test(text)
}

/** A line without the commas that come right before a } or ] outside strings, as a parser that allows trailing commas reads it. */
function withoutTrailingCommas(text: string): string {
  let read = ''
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!
    if (inString && char === '\\') {
      read += text.slice(at, at + 2)
      at++
      continue
    }
    if (char === '"') inString = !inString
    else if (!inString && char === ',' && closesAt(text, at + 1)) continue
    read += char
  }
  return read
}

/** Every complete record line that is a lone carriage return skipped, as a reader that trims CR before testing for a blank line does. */
const crLinesSkipped: LineReading = lines => lines.filter((line, index) => index === 0 || index === lines.length - 1 || line.text !== '\r')

/** An unterminated tail of whitespace alone ignored, as if the artifact ended at its last line feed. */
const whitespaceTailIgnored: LineReading = lines => lines.map((line, index) =>
  (index === lines.length - 1 && /^[ \t\r]+$/.test(line.text) ? { ...line, text: '' } : line))

// ---- JSONL-6: the header line ------------------------------------------------------------------

/** The header line with "type":"session" written first when it is an object without a type member (one holding null still fails). */
function typeSupplied(text: string, index: number): string {
  const header = lineJson(text)
  if (index !== 0 || !isRecord(header) || Object.hasOwn(header, 'type')) return text
  const open = text.indexOf('{') + 1
  const separator = text.slice(open).trimStart().startsWith('}') ? '' : ','
  return `${text.slice(0, open)}"type":"session"${separator}${text.slice(open)}`
}

/** The sign of a createdAt member's number (the first one written), which -0 loses under Number.isSafeInteger. */
const CREATED_AT_SIGN = /("createdAt"[ \t\r]*:[ \t\r]*)-/

/** The header line's createdAt of -0 read as 0, as Number.isSafeInteger(-0) lets it pass. */
function negativeZeroCreatedAt(text: string, index: number): string {
  const header = lineJson(text)
  return index === 0 && isRecord(header) && Object.is(header['createdAt'], -0) ? text.replace(CREATED_AT_SIGN, '$1') : text
}

// ---- ROW-3: a row's times ----------------------------------------------------------------------

const ROW_TAGS = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks'])

/** A packed row whose time0 is negative read as invalid (time0 null), as a check of time0 like seq0's, non-negative, reads it. */
function negativeTime0Invalid(text: string): string {
  const row = lineJson(text)
  const negative = isRecord(row) && ROW_TAGS.has(row['type'] as string) && typeof row['time0'] === 'number' && row['time0'] < 0
  return negative ? JSON.stringify({ ...row, time0: null }) : text
}

// ---- JSONL-8, ROW-5: the writer ----------------------------------------------------------------

/** The batches copied by property assignment before they are written: a __proto__ member becomes the prototype and is lost. */
const protoLostWhenWritten: SyncOperation = input => ref.encodeJsonl({ ...input, batches: copiedByAssignment(input['batches']) })

/** A packable chunk whose text or argumentsDelta is "", which a writer testing it for truthiness will not pack. */
function isEmptyDelta(event: unknown): boolean {
  const chunk = dataOf(event)['chunk']
  return packableTag(event) !== undefined && isRecord(chunk) && (chunk['text'] === '' || chunk['argumentsDelta'] === '')
}

/** Empty deltas written verbatim, cutting the run they are in. */
const emptyDeltasUnpacked: SyncOperation = encodingAlone(isEmptyDelta)

export const JSONL_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'json-trailing-comma-ok',
    bug: 'the line parser allows a trailing comma before } or ]',
    caughtBy: ['jsonl-rfc8259-extensions-unparsable'],
    patch: { decodeJsonl: decodingLinesAs(eachLine(withoutTrailingCommas)) },
  },
  {
    name: 'crlf-blank-line-skipped',
    bug: 'a record line that is a lone carriage return is skipped as blank',
    caughtBy: ['jsonl-crlf-blank-line-unparsable'],
    patch: { decodeJsonl: decodingLinesAs(crLinesSkipped) },
  },
  {
    name: 'tail-whitespace-ignored',
    bug: 'an unterminated tail of whitespace alone is ignored instead of reported as torn',
    caughtBy: ['jsonl-unterminated-whitespace-tail'],
    patch: { decodeJsonl: decodingLinesAs(whitespaceTailIgnored) },
  },
  {
    name: 'header-type-optional',
    bug: "the header line's type is checked only when present",
    caughtBy: ['jsonl-header-type-required'],
    patch: { decodeJsonl: decodingLinesAs(eachLine(typeSupplied)) },
  },
  {
    name: 'header-createdAt-negzero-ok',
    bug: "the header line's createdAt is tested with Number.isSafeInteger, so -0 passes",
    caughtBy: ['jsonl-header-created-at-domain'],
    patch: { decodeJsonl: decodingLinesAs(eachLine(negativeZeroCreatedAt)) },
  },
  {
    name: 'row-time0-negative-rejected',
    bug: "a packed row's time0 must be non-negative, as its seq0 must, so a row of negative times is invalid",
    caughtBy: ['jsonl-row-times-signed-and-at-the-limits'],
    patch: { decodeJsonl: decodingLinesAs(eachLine(negativeTime0Invalid)) },
  },
  {
    name: 'enc-proto-lost',
    bug: 'the writer copies records by property assignment, so a __proto__ member is lost',
    caughtBy: ['enc-proto-member-written'],
    patch: { encodeJsonl: protoLostWhenWritten },
  },
  {
    name: 'enc-empty-text-unpackable',
    bug: 'chunks whose text or argumentsDelta is the empty string are not packed',
    caughtBy: ['enc-empty-deltas-pack'],
    patch: { encodeJsonl: emptyDeltasUnpacked },
  },
]
