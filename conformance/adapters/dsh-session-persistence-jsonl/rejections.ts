// What the JSONL backend throws, turned into the codes of spec/errors.md. The backend rejects with plain
// Errors told apart by their text; each rule below was written by reading every `throw` of its read
// path (lib/index.js of the 0.1.0-rc.8 build: parseHeaderRecord, fromHeaderLine, SessionLogScanner,
// format.ts's path helpers) and of dsh-session-persistence's sessionFormatVersionRefusal. A message no
// rule matches becomes code UNMAPPED, which no spec code is, so the runner fails it and warns of it:
// never a pass. Rules run in order, first match wins. The backend's identity check is no rule: the
// adapter stores every artifact where that check looks (operations.ts), so its refusal is the adapter's.
import type { AdapterResult } from '../../adapter.ts'
import { UNMAPPED } from '../dsh-session/error-codes.ts'

export interface BackendRule {
  pattern: RegExp
  /** A code of spec/errors.md; `LINE` for the scanner's "unparsable" line, which lineKind names. */
  code: string
  /** The backend names the line: the scanner counts event lines from 1, the artifact one more. */
  line: 'header' | 'event' | 'none'
  example: string
}

export const BACKEND_RULES: readonly BackendRule[] = [
  // Refusals: the backend adds " (raw log: PATH)" to the message, so only its start is matched.
  { pattern: /^session ".*" uses log format v.+, but this harness reads only v\d+: the log was written by a newer harness/, code: 'FORMAT_VERSION_NEWER', line: 'header', example: 'session "s" uses log format v1, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it (raw log: /r/_no-cwd/s/session.jsonl)' },
  { pattern: /^session ".*" uses log format v.+, older than the supported v\d+, and this build ships no upgrade path for it/, code: 'FORMAT_VERSION_OLDER', line: 'header', example: 'session "s" uses log format v-1, older than the supported v0, and this build ships no upgrade path for it (raw log: /r/_no-cwd/s/session.jsonl)' },
  { pattern: /^empty or header-less session log$/, code: 'JSONL_HEADER_INVALID', line: 'header', example: 'empty or header-less session log' },
  { pattern: /^corrupt session log: header line is not valid JSON$/, code: 'JSONL_HEADER_INVALID', line: 'header', example: 'corrupt session log: header line is not valid JSON' },
  { pattern: /^corrupt session log: first line is not a session header$/, code: 'JSONL_HEADER_INVALID', line: 'header', example: 'corrupt session log: first line is not a session header' },
  { pattern: /^session header uses retired policy baseline fields$/, code: 'JSONL_HEADER_RETIRED_FIELD', line: 'header', example: 'session header uses retired policy baseline fields' },
  { pattern: /^corrupt session log: unparsable committed event at line \d+$/, code: 'LINE', line: 'event', example: 'corrupt session log: unparsable committed event at line 3' },
  { pattern: /^corrupt session log: seq gap in committed region at line \d+ /, code: 'JSONL_SEQ_GAP', line: 'event', example: 'corrupt session log: seq gap in committed region at line 2 (expected 1, got 2)' },
  { pattern: /^empty or header-less Zstandard session log$/, code: 'JSONL_HEADER_INVALID', line: 'none', example: 'empty or header-less Zstandard session log' },
  { pattern: /^corrupt Zstandard session log: (frame at byte \d+ failed validation|invalid frame magic at byte \d+|reserved frame-header bit at byte \d+|reserved block type at byte \d+|first frame is not exactly one header line|complete frame contains a torn JSONL record)$/, code: 'JSONL_FRAME_INVALID', line: 'none', example: 'corrupt Zstandard session log: invalid frame magic at byte 87' },
]

/** What `locate` throws for an id or cwd that derives no path: artifactPath's HEADER_ID_MISMATCH. */
export const NO_PATH_RULE: BackendRule = { pattern: /^cannot encode an empty (path segment|project path)$/, code: 'HEADER_ID_MISMATCH', line: 'none', example: 'cannot encode an empty path segment' }

/** The backend's identity check refusing the artifact it read (assertStoredIdentity). */
export const IDENTITY_REFUSAL = /^corrupt session log ".*": (requested id ".*" does not match header id|header id cannot name a storage path|header id ".*" and cwd identify )/

export function thrownText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The byte offset at which line `line` (1-based) of `bytes` starts, or -1 when it has no such line. */
function lineStart(bytes: Buffer, line: number): number {
  let start = 0
  for (let passed = 1; passed < line; passed += 1) {
    const feed = bytes.indexOf(10, start)
    if (feed === -1) return -1
    start = feed + 1
  }
  return start
}

/**
 * What the line starting at `offset` is, by the tests the backend's scanner makes of a line in turn:
 * `unterminated` without a line feed, then JSON.parse of its UTF-8 text, then upstream's row decoder;
 * a line that passes all three was dropped for its seq.
 */
export function lineKind(bytes: Buffer, offset: number, decodeRow: (value: unknown) => unknown): string {
  const end = bytes.indexOf(10, offset)
  if (end === -1) return 'unterminated'
  let value: unknown
  try {
    value = JSON.parse(bytes.toString('utf8', offset, end))
  } catch {
    return 'JSONL_LINE_UNPARSABLE'
  }
  try {
    decodeRow(value)
  } catch {
    return 'JSONL_ROW_INVALID'
  }
  return 'JSONL_SEQ_GAP'
}

/** The artifact line a rule's message names: the header's, or the scanner's event line plus one. */
function lineOf(rule: BackendRule, message: string): number | undefined {
  if (rule.line === 'header') return 1
  const eventLine = rule.line === 'event' ? /at line (\d+)/.exec(message) : null
  return eventLine ? Number(eventLine[1]) + 1 : undefined
}

/**
 * Which of the two faults the scanner calls "unparsable" the named line is. `text` is the decoded
 * artifact as far as the adapter can read it (in the zstd encoding, the complete frames the backend
 * gives back); a line it does not hold to its line feed lies in a torn zstd frame, and a line that is
 * neither (it would be a seq gap) contradicts the message: both are UNMAPPED.
 */
function unparsableCode(text: Buffer | undefined, line: number | undefined, decodeRow: (value: unknown) => unknown): string {
  const start = text === undefined || line === undefined ? -1 : lineStart(text, line)
  const kind = start === -1 ? 'unterminated' : lineKind(text as Buffer, start, decodeRow)
  return kind === 'JSONL_LINE_UNPARSABLE' || kind === 'JSONL_ROW_INVALID' ? kind : UNMAPPED
}

/** The rejection for what the backend threw, read by `rules` (BACKEND_RULES, or NO_PATH_RULE for locate). */
export function backendRejection(error: unknown, text: Buffer | undefined, decodeRow: (value: unknown) => unknown, rules: readonly BackendRule[] = BACKEND_RULES): AdapterResult {
  const message = thrownText(error)
  const rule = rules.find(candidate => candidate.pattern.test(message))
  const line = rule === undefined ? undefined : lineOf(rule, message)
  const code = rule === undefined ? UNMAPPED : rule.code === 'LINE' ? unparsableCode(text, line, decodeRow) : rule.code
  const thrower = error instanceof Error && rule === undefined ? `${error.name}: ` : ''
  const unmapped = code === UNMAPPED ? ' (no rule of conformance/adapters/dsh-session-persistence-jsonl/rejections.ts names a spec code for it)' : ''
  return { ok: false, error: { code, ...(line === undefined ? {} : { line }), message: `upstream ${thrower}${message}${unmapped}` } }
}
