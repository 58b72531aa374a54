// The audited log: the stored artifact decoded and loaded by the reference interpreter, with the folds
// every row reads computed once. Also the small readers of event payloads that the rows share.
import { reference } from '../../reference/index.ts'
import { repairClosers } from '../../reference/repair.ts'
import { compactionState, type CompactionStateValue } from '../../reference/compaction.ts'
import { runRelations } from '../../reference/processing.ts'
import { foldSurface, type SurfaceValue } from '../../reference/surface.ts'
import { isRecord, type JsonRecord } from '../../reference/lossless-json.ts'
import { DEFAULT_VOCABULARY } from '../../reference/unknown-types.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { countLines, type TornTail } from '../../reference/jsonl.ts'
import type { RejectionError, Result } from '../../reference/result.ts'
import type { AuditLogInfo, AuditRejection } from '../../generated/types/index.ts'
import { reportMessage, type ArtifactExtent } from '../wording.ts'
import { encodingOf, refusalFacts, vocabularyHint } from '../check/check-file.ts'
import { rawHeaderHint } from '../check/raw-reader.ts'
import { buildsMoreValues, mostLineValues } from '../check/line-values.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../check/options.ts'
import { rawBytesHint } from '../check/zstd-frames.ts'
import type { RequirementIndex } from '../check/requirements.ts'
import { attributeViolations, type RowViolation } from './verdicts.ts'
import { jsonText } from './json-text.ts'
import { bracketSpans, type BracketSpan } from './brackets.ts'

export interface AuditSource {
  file: string
  bytes: Uint8Array
  /** The reader's vocabulary (chapter 17); default v0-pinned. */
  vocabulary?: string
  /** What check noticed in the bytes: a byte order mark, CR line ends, ill-formed UTF-8 (check's notices). */
  byteNotices?: readonly string[]
  /** Read as a lone artifact, whatever its name: no place in the storage layout binds it (JSONL-3). */
  noLayout?: boolean
  /** That a writer changed the file while it was read (check-file.ts's fileChangedMessage), when one did. */
  fileChange?: string
}

/** A log that loads, with the folds of spec/00-processing.md over it. */
export interface LoadedLog {
  events: SessionEvent[]
  tornTail: TornTail | null
  surface: SurfaceValue
  /** The relation violations (PROC-7), each with its row and rule. */
  violations: RowViolation[]
  /** The closers crash repair computes for the open tail turn (chapter 12), loadable or not. */
  closers: SessionEvent[]
  /** Why `repair` rejects the log (REPAIR-13: the closers above would not load), or undefined. */
  repairRejection: RejectionError | undefined
  compaction: CompactionStateValue
  /** Where each of compaction.brackets reaches (brackets.ts). */
  bracketSpans: BracketSpan[]
}

export interface AuditedLog {
  info: AuditLogInfo
  /**
   * The decoded header: also when load rejects the log, or decoding fails after the header, since the
   * log's place in the layout is still checked (JSONL-3).
   */
  header: JsonRecord | undefined
  /** Undefined when the artifact does not decode or the log does not load (see info.rejection). */
  loaded: LoadedLog | undefined
  /** The decoder's torn tail, also known when load rejects. */
  tornTail: TornTail | null
  /** How far the artifact runs: what a torn tail takes. */
  extent: ArtifactExtent
  byteNotices: readonly string[]
  fileChange: string | undefined
  /** For a log rejected (see info.rejection): the rule its fault breaks, as check cites it. */
  rejectionRule: string | undefined
}

/** The artifact's bytes, and for the raw encoding its last line, an unterminated one counted. */
function extentOf(bytes: Uint8Array, encoding: 'raw' | 'zstd'): ArtifactExtent {
  if (encoding === 'zstd') return { bytes: bytes.length }
  const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a
  return { bytes: bytes.length, lastLine: countLines(bytes) + (unterminated ? 1 : 0) }
}

/**
 * The string `id` of a raw artifact's first line when it parses as an object, or null: a header line
 * that fails its checks (a member missing) still names its session, which the report shows. A line
 * that would build more values than check parses in one line is not parsed: with no line feed it is
 * the whole file, which no limit of readLog counted (it counts complete lines).
 */
function idOfFirstLine(bytes: Uint8Array): string | null {
  const end = bytes.indexOf(0x0a)
  const line = bytes.subarray(0, end < 0 ? bytes.length : end)
  if (buildsMoreValues(line, mostLineValues(DEFAULT_MAX_LINE_BYTES))) return null
  try {
    const first: unknown = JSON.parse(Buffer.from(line).toString('utf8'))
    return isRecord(first) && typeof first['id'] === 'string' ? first['id'] : null
  } catch {
    return null
  }
}

/**
 * How many events the complete frames before a torn final zstd frame at `tornAt` hold: the artifact
 * cut there decodes as they do (JSONL-14). The torn frame's own events, which a writer writes again,
 * are the rest (JSONL-15).
 */
function completeFramesEvents(bytes: Uint8Array, tornAt: number): number {
  const decoded = reference.decodeJsonl({ base64: Buffer.from(bytes.subarray(0, tornAt)).toString('base64'), encoding: 'zstd' })
  if (!decoded.ok) throw new Error(`the complete frames of a decoded artifact do not decode: ${decoded.error.code}`)
  return decoded.value.events.length
}

/** A rejection as the report shows it, with its code's class, its message cut short and then `hint`. */
function rejectionOf(operation: AuditRejection['operation'], error: RejectionError, hint: string, requirements: RequirementIndex): AuditRejection {
  const { code, seq, line, message } = error
  const found = requirements.classOf(code)
  // Every code the reference raises is a rejection code of errors.md (tests/spec-catalog.test.ts).
  if (found === undefined) throw new Error(`${code} has no class in spec/errors.md`)
  const kind = found as AuditRejection['class']
  return { operation, code, class: kind, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }), message: reportMessage(`${message}${hint}`) }
}

/**
 * For a log rejected at its start, what its bytes say of why, as check says it: the other encoding's
 * bytes, an empty log, UTF-16; for a zstd frame, the words check adds to the same fault (`checkWords`,
 * its message: a first frame that holds a whole log compressed with `zstd FILE`, say), or check's own
 * words where they are no continuation of the reference's.
 */
function encodingHint(encoding: 'raw' | 'zstd', error: RejectionError, bytes: Uint8Array, checkWords: string | undefined): string {
  if (encoding === 'raw') return error.code === 'JSONL_HEADER_INVALID' ? rawHeaderHint(bytes, 'whether a file or a named pipe; standard input is read as raw') : ''
  if (error.code !== 'JSONL_FRAME_INVALID') return ''
  if (checkWords !== undefined && checkWords.startsWith(error.message)) return checkWords.slice(error.message.length)
  // A raw log under a zstd name is the likeliest mistake, and says so; otherwise check's words name the
  // reason (a checksum, a size) and the line a frame's content starts on.
  const rawBytes = rawBytesHint(bytes)
  return rawBytes === '' && checkWords !== undefined ? ` (as check's reader puts it: ${checkWords})` : rawBytes
}

/** The value of an operation on a log that `load` accepted; such operations do not reject it. */
function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`a fold rejected a loaded log: ${result.error.code} ${result.error.message}`)
  return result.value
}

/** The log of `source` read and loaded; `requirements` names the rule a rejection or a violation breaks. */
export function readAuditedLog(source: AuditSource, requirements: RequirementIndex): AuditedLog {
  const vocabulary = source.vocabulary ?? DEFAULT_VOCABULARY
  const byteNotices = source.byteNotices ?? []
  const fileChange = source.fileChange
  // By the name, as check decides it, so that the two commands read a file alike.
  const encoding = encodingOf(source.file)
  const info: AuditLogInfo = { file: source.file, bytes: source.bytes.length, encoding, ...(source.noLayout === true ? { noLayout: true } : {}), vocabulary, sessionId: null, events: null, rejection: null }
  const extent = extentOf(source.bytes, encoding)
  const decoded = reference.decodeJsonl({ base64: Buffer.from(source.bytes).toString('base64'), encoding })
  if (!decoded.ok) {
    // A header that decoded before the fault still binds the file to its place (JSONL-3), as in check.
    const { rule: rejectionRule, header, decodeMessage } = refusalFacts(source.bytes, encoding, vocabulary, requirements)
    const hint = encodingHint(encoding, decoded.error, source.bytes, decodeMessage)
    const sessionId = typeof header?.['id'] === 'string' ? header['id'] : encoding === 'raw' ? idOfFirstLine(source.bytes) : null
    const rejected = { ...info, sessionId, rejection: rejectionOf('decodeJsonl', decoded.error, hint, requirements) }
    return { info: rejected, header, loaded: undefined, tornTail: null, extent, byteNotices, fileChange, rejectionRule }
  }
  const { header, events: records, tornTail } = decoded.value
  // A torn final frame's events are written again by a writer: the Persistence row counts them, as check does.
  const decodedExtent = encoding === 'zstd' && tornTail !== null ? { ...extent, tornFrameEvents: records.length - completeFramesEvents(source.bytes, tornTail.offset) } : extent
  const sessionId = typeof header['id'] === 'string' ? header['id'] : null
  const input = { header, events: records, sessionId: sessionId ?? '', vocabulary }
  const withCounts = { ...info, sessionId, events: records.length }
  const events = reference.load(input)
  if (!events.ok) {
    const hint = vocabularyHint(events.error.code, events.error.message)
    const rejectionRule = refusalFacts(source.bytes, encoding, vocabulary, requirements).rule
    return { info: { ...withCounts, rejection: rejectionOf('load', events.error, hint, requirements) }, header, loaded: undefined, tornTail, extent: decodedExtent, byteNotices, fileChange, rejectionRule }
  }
  // The folds take the loaded events: each operation of reference/index.ts would load the log again.
  const loadedEvents = events.value
  const closers = repairClosers(loadedEvents)
  // REPAIR-13: closers that would not load are no repair. `repair` rejects with what load says of the
  // loaded log followed by them; loading that here spares loading the log itself a second time.
  const repaired = closers.length === 0 ? undefined : reference.load({ ...input, events: [...loadedEvents, ...closers] })
  const compaction = valueOf(compactionState(loadedEvents))
  const loaded: LoadedLog = {
    events: loadedEvents,
    tornTail,
    surface: foldSurface(loadedEvents),
    violations: attributeViolations(runRelations(loadedEvents).violations, loadedEvents, requirements),
    closers,
    repairRejection: repaired === undefined || repaired.ok ? undefined : repaired.error,
    compaction,
    bracketSpans: bracketSpans(loadedEvents, compaction.brackets),
  }
  return { info: withCounts, header, loaded, tornTail, extent: decodedExtent, byteNotices, fileChange, rejectionRule: undefined }
}

// ---- payload readers ----------------------------------------------------------------------------

export function dataOf(event: SessionEvent | undefined): JsonRecord {
  return event !== undefined && isRecord(event.data) ? event.data : {}
}

export function recordAt(record: JsonRecord, key: string): JsonRecord | undefined {
  const value = record[key]
  return isRecord(value) ? value : undefined
}

export function stringAt(record: JsonRecord | undefined, key: string): string | undefined {
  const value = record?.[key]
  return typeof value === 'string' ? value : undefined
}

export function numberAt(record: JsonRecord | undefined, key: string): number | undefined {
  const value = record?.[key]
  return typeof value === 'number' ? value : undefined
}

/** The message a surface-eligible event carries (chapter 04), or undefined. */
export function messageOfEvent(event: SessionEvent | undefined): JsonRecord | undefined {
  if (event === undefined) return undefined
  if (event.type === 'user/message') return dataOf(event)
  if (event.type === 'assistant/message' || event.type === 'tool/result') return recordAt(dataOf(event), 'message')
  return undefined
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value
  return value === undefined ? '' : jsonText(value)
}

/** The text of a block that holds no blocks: everything but a tool result whose content is a list. */
function leafText(block: unknown): string {
  if (!isRecord(block)) return asText(block)
  switch (block['type']) {
    case 'text':
    case 'reasoning':
      return asText(block['text'])
    case 'tool-call':
      return `${asText(block['name'])} ${asText(block['arguments'])}`
    case 'tool-result':
      return asText(block['content'])
    default:
      return jsonText(block)
  }
}

/**
 * A block's text: a tool result's blocks one per line, at any depth. A log may nest them deeper than the
 * stack allows (JSON-11 sets no limit above 1,000 levels), so the walk keeps a stack of its own.
 */
function blockText(root: unknown): string {
  const parts: string[] = []
  const pending: ({ block: unknown } | { text: string })[] = [{ block: root }]
  while (pending.length > 0) {
    const next = pending.pop()!
    if ('text' in next) {
      parts.push(next.text)
      continue
    }
    const { block } = next
    if (!isRecord(block) || block['type'] !== 'tool-result' || !Array.isArray(block['content'])) {
      parts.push(leafText(block))
      continue
    }
    // The blocks go on the stack last one first, so that they come off it in order.
    const content: unknown[] = block['content']
    for (let index = content.length - 1; index >= 0; index -= 1) {
      pending.push({ block: content[index] })
      if (index > 0) pending.push({ text: '\n' })
    }
  }
  return parts.join('')
}

/** The text a model reads from a message: its text, reasoning, tool calls and tool results. */
export function messageText(message: JsonRecord | undefined): string {
  const content = message?.['content']
  return Array.isArray(content) ? content.map(blockText).join('\n') : ''
}

export function isReplace(event: SessionEvent): boolean {
  return isRecord(event.surfaceOp)
}

export function citedSeqs(event: SessionEvent): number[] {
  return Array.isArray(event.sourceEventSeqs) ? event.sourceEventSeqs.filter((seq): seq is number => typeof seq === 'number') : []
}

/**
 * A tool call id as the evidence names it and as calls and results are matched: as JSON, so that a
 * string is quoted and an id of another type (REPAIR-13's case) is not shown as one.
 */
export function callIdText(id: unknown): string {
  return id === undefined ? '(no id)' : jsonText(id)
}

/** The ids of the tool calls a message asks for, as callIdText gives them. */
export function toolCallIds(message: JsonRecord | undefined): string[] {
  const content = message?.['content']
  if (!Array.isArray(content)) return []
  return content.filter(block => isRecord(block) && block['type'] === 'tool-call').map(block => callIdText((block as JsonRecord)['id']))
}

/** The id of the call a tool result answers (its source's callId), as callIdText gives it. */
export function answeredCallId(result: SessionEvent): string {
  return callIdText(recordAt(messageOfEvent(result) ?? {}, 'source')?.['callId'])
}

/** A `seq N` or `seqs N, M` phrase, with long lists shortened. */
export function seqList(seqs: readonly number[], shown = 12): string {
  const listed = seqs.slice(0, shown).join(', ')
  return seqs.length > shown ? `${listed} … (${seqs.length} in all)` : listed
}
