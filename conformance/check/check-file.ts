// One artifact from path to report: the reader for its encoding, then the outcome in the terms of the
// reference pipeline (decodeJsonl -> load -> relations) and one diagnostic per finding, each with the
// line, seq, requirement and code it concerns.
import { closeSync, openSync, statSync } from 'node:fs'
import type { TornTail } from '../../reference/jsonl.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'
import { unknownTypeMessage } from '../../reference/unknown-types.ts'
import { V0_PINNED_TYPES, V0_RC8_TYPES } from '../../reference/vocabulary.ts'
import { ArtifactCheck, isReadFailure, type ArtifactOutcome, type ByteFacts, type CheckSettings, type FrameFact, type LimitFault, type WriterFacts } from './artifact.ts'
import { RecallFailed, type RecallIds } from './message-ids.ts'
import { FileByteSource, memoryByteSource } from './byte-source.ts'
import { changeOf, fileChangedMessage, regularFileState, type FileChange, type FileState } from './file-change.ts'
import { checkRawArtifact, fileChunks, memoryChunks, positionedChunks } from './raw-reader.ts'
import { checkZstdArtifact, MOST_WINDOW_BYTES } from './zstd-reader.ts'
import type { RequirementIndex, Stage } from './requirements.ts'
import { pathBindingFault } from './path-binding.ts'
import { realPathOf } from './walk.ts'
import { DEFAULT_MAX_LINE_BYTES, STDIN } from './options.ts'
import { fileErrorMessage, plural, reportMessage, tornTailAdvice, type ArtifactExtent } from '../wording.ts'
import { MOST_VIOLATIONS_LISTED, type RelationViolation, type ViolationList } from './violation-list.ts'

export type Encoding = 'raw' | 'zstd'

/** The pipeline's outcome, shaped like the corpus verdicts (tests/corpus.test.ts). */
export type Outcome =
  | { verdict: 'rejected'; operation: 'open' | 'decodeJsonl' | 'load'; code: string; seq?: number; line?: number }
  | { verdict: 'accepted'; events: number; tornTail: TornTail | null; relations: { code: string; seq: number }[]; relationsNotListed?: number }
  | { verdict: 'unchecked'; code: string }

export interface Diagnostic {
  /** refusal: a rejection of class refusal, which FMT-5 forbids reporting as damage. */
  severity: 'error' | 'refusal' | 'notice'
  code: string
  requirement?: string
  line?: number
  seq?: number
  message: string
  /** The reason of the --known entry that accepts the finding. */
  known?: string
}

export interface FileReport {
  file: string
  encoding: Encoding
  /**
   * valid: accepted with no violation; invalid: rejected, with violations, (with --writer) written
   * against a writer's MUST, or (with --strict) holding a notice; refused: rejected with a code of
   * class refusal (FMT-5: another format version, an event type this vocabulary lacks), which says
   * nothing of damage; known: invalid or refused, but each finding that makes it so accepted by
   * --known; unchecked: no verdict reached.
   */
  status: 'valid' | 'invalid' | 'refused' | 'known' | 'unchecked'
  outcome: Outcome
  diagnostics: Diagnostic[]
}

const CORRUPTION_CODES: ReadonlySet<string> = new Set(['JSONL_LINE_UNPARSABLE', 'JSONL_ROW_INVALID', 'JSONL_SEQ_GAP', 'JSONL_FRAME_INVALID'])

/** The encoding a file's name says (its real name, links followed): `.zstd` (or `.zst`) is zstd, anything else raw. */
export function encodingOf(file: string): Encoding {
  return /\.zstd?$/.test(realPathOf(file)) ? 'zstd' : 'raw'
}

// A pipe has no size and cannot be read twice; zstd's structure scan comes before any decoding (JSONL-14 step 1).
const NOT_POSITIONED = 'a zstd log is read at positions, so it must be a regular file, not a pipe or a device: write it to a file first'

/** An error that leaves the file unchecked with CHECK_IO_ERROR. */
class UnreadableFile extends Error {}

interface ArtifactRead {
  outcome: ArtifactOutcome
  /** Undefined for a file that did not change while it was read, and for a pipe, whose state says nothing. */
  change: FileChange | undefined
}

/**
 * Reads the opened artifact into `artifact`: a raw one from where its descriptor stands (a pipe
 * included) or, `fromStart`, at positions from byte 0, which leaves the descriptor where it stands; a
 * zstd one at positions, up to its size when opened.
 */
function readOpened(fd: number, encoding: Encoding, opened: FileState | undefined, artifact: ArtifactCheck, fromStart: boolean): ArtifactOutcome {
  if (encoding === 'raw') return checkRawArtifact(fromStart ? positionedChunks(fd) : fileChunks(fd), artifact, opened !== undefined)
  if (opened === undefined) throw new UnreadableFile(NOT_POSITIONED)
  return checkZstdArtifact(new FileByteSource(fd, Number(opened.size)), artifact)
}

/**
 * The second read of a regular file (message-ids.ts): the message ids its lines before `line` record,
 * read at positions through the descriptor of the first read, so from the same file even when its
 * name has since been given to another (a rotation, a rename over it) or taken away.
 */
export function recallIds(fd: number, encoding: Encoding, opened: FileState, settings: CheckSettings): RecallIds {
  return (line, sessionId) => {
    const artifact = new ArtifactCheck({ ...settings, writer: false }, { idsBefore: line, sessionId })
    readOpened(fd, encoding, opened, artifact, true)
    const ids = artifact.recalledIds
    if (ids === undefined) throw new RecallFailed(`reading the file again for the message ids before line ${line} (LEGACY-11) did not reach that line: the file changed while it was checked`)
    return ids
  }
}

/** The check's read: a regular file can be read again for LEGACY-11's message ids, a pipe cannot. */
function checkArtifact(file: string, encoding: Encoding, settings: CheckSettings): ArtifactRead {
  const ownDescriptor = file !== STDIN
  // Asked before opening: opening a named pipe that no one writes waits for a writer.
  if (encoding === 'zstd' && ownDescriptor && !statSync(file).isFile()) throw new UnreadableFile(NOT_POSITIONED)
  const fd = ownDescriptor ? openSync(file, 'r') : 0
  try {
    const opened = regularFileState(fd)
    // Standard input may stand anywhere in its file, and a second read must start where the first
    // did: as for a pipe, its ids are kept from the start instead.
    const rereadable = ownDescriptor && opened !== undefined
    const artifact = new ArtifactCheck(settings, { recall: rereadable ? recallIds(fd, encoding, opened, settings) : undefined })
    const outcome = readOpened(fd, encoding, opened, artifact, false)
    // A descriptor keeps naming the file it opened, so its state once read is that file's.
    return { outcome, change: opened === undefined ? undefined : changeOf(opened, regularFileState(fd) as FileState) }
  } finally {
    if (ownDescriptor) closeSync(fd)
  }
}

function limitOutcome(limit: LimitFault): Outcome {
  return { verdict: 'unchecked', code: limit.code }
}

function outcomeOf(artifact: ArtifactOutcome): Outcome {
  if (artifact.limit !== undefined) return limitOutcome(artifact.limit)
  const decoded = artifact.decodeError
  if (decoded !== undefined) return { verdict: 'rejected', operation: 'decodeJsonl', code: decoded.code, ...(decoded.line === undefined ? {} : { line: decoded.line }) }
  const load = artifact.load
  if (load === undefined) return { verdict: 'unchecked', code: 'CHECK_INTERNAL_ERROR' }
  if (load.fault !== undefined) return { verdict: 'rejected', operation: 'load', code: load.fault.code, ...(load.fault.seq === undefined ? {} : { seq: load.fault.seq }) }
  const relations = load.violations.listed.map(({ code, seq }) => ({ code, seq }))
  const notListed = load.violations.total() - relations.length
  return { verdict: 'accepted', events: load.events, tornTail: artifact.tornTail, relations, ...(notListed === 0 ? {} : { relationsNotListed: notListed }) }
}

/** The subject and its verb: "this line starts", "3 lines (line 2 the first of them) start". */
function lines(count: number, first: number, verb: string): string {
  return count === 1 ? `this line ${verb}s` : `${count} lines (line ${first} the first of them) ${verb}`
}

function factNotices(facts: ByteFacts): Diagnostic[] {
  const notices: Diagnostic[] = []
  if (facts.byteOrderMark !== undefined) {
    notices.push({ severity: 'notice', code: 'BYTE_ORDER_MARK', requirement: 'JSONL-9', line: facts.byteOrderMark.first, message: `${lines(facts.byteOrderMark.count, facts.byteOrderMark.first, 'start')} with a byte order mark (U+FEFF), which makes a line unparsable` })
  }
  if (facts.carriageReturn !== undefined) {
    notices.push({ severity: 'notice', code: 'CARRIAGE_RETURN', requirement: 'JSONL-9', line: facts.carriageReturn.first, message: `${lines(facts.carriageReturn.count, facts.carriageReturn.first, 'end')} with CR (CRLF line ends); CR is JSON whitespace, so such lines still read, but writers write LF only (JSONL-8)` })
  }
  if (facts.invalidUtf8 !== undefined) {
    notices.push({ severity: 'notice', code: 'INVALID_UTF8', requirement: 'JSONL-9', line: facts.invalidUtf8.first, message: `${lines(facts.invalidUtf8.count, facts.invalidUtf8.first, 'hold')} ill-formed UTF-8, read as U+FFFD` })
  }
  return notices
}

/** "the frame at byte 9 has no …", "3 frames have no …, the first at byte 9". */
function frames(fact: FrameFact, one: string, many: string): string {
  return fact.count === 1 ? `the frame at byte ${fact.byte} ${one}` : `${fact.count} frames ${many}, the first at byte ${fact.byte}`
}

/** What `check --writer` finds: the writer's MUSTs are errors, JSONL-8's SHOULD a notice. */
function writerDiagnostics(facts: WriterFacts): Diagnostic[] {
  const found: Diagnostic[] = []
  if (facts.headerMembers !== undefined) {
    found.push({ severity: 'error', code: 'WRITER_HEADER_MEMBERS', requirement: 'JSONL-5', line: 1, message: facts.headerMembers })
  }
  for (const [rule, row] of [['ROW-6', facts.shortRow], ['ROW-7', facts.rowOrder]] as const) {
    if (row === undefined) continue
    found.push({ severity: 'error', code: 'WRITER_ROW', requirement: rule, line: row.first, message: `${lines(row.count, row.first, 'hold')} a packed row no writer writes: ${row.count === 1 ? '' : 'the first, '}${row.why}` })
  }
  const packing = facts.packing
  if (packing !== undefined) {
    const departs = 'but not as ROW-6 packs them'
    found.push({ severity: 'error', code: 'WRITER_PACKING', requirement: 'ROW-6', line: packing.line, message: `${frames(packing, `holds a batch that packs chunk runs, ${departs}`, `hold batches that pack chunk runs, ${departs}`)}: ${packing.count === 1 ? '' : 'in the first, '}${packing.why}` })
  }
  const duplicate = facts.duplicateMember
  if (duplicate !== undefined) {
    const where = duplicate.path === '' ? 'the top-level object' : `the object at ${duplicate.path}`
    found.push({ severity: 'error', code: 'WRITER_DUPLICATE_MEMBER', requirement: 'JSON-12', line: duplicate.first, message: `${lines(duplicate.count, duplicate.first, 'write')} a member name twice in one object (here ${JSON.stringify(duplicate.name)} in ${where}); a reader keeps only the last, a writer must not write it` })
  }
  if (facts.headerOnly === true) {
    found.push({ severity: 'error', code: 'WRITER_HEADER_ONLY', requirement: 'JSONL-8', message: 'the artifact holds its header and nothing else, which no writer writes: its first write holds the header and the first batch together' })
  }
  const checksumless = facts.checksumless
  if (checksumless !== undefined) {
    found.push({ severity: 'error', code: 'WRITER_FRAME_CHECKSUM', requirement: 'JSONL-13', line: checksumless.line, message: `${frames(checksumless, 'has no content checksum', 'have no content checksum')}: a reader checks one only when it is there, and writers set the checksum flag on every frame` })
  }
  const wide = facts.wideWindow
  if (wide !== undefined) {
    const limit = `${MOST_WINDOW_BYTES} bytes (8 MiB)`
    const one = `declares a window of ${BigInt(wide.window)} bytes, over ${limit}`
    const first = wide.count === 1 ? '' : ` (${BigInt(wide.window)} bytes)`
    found.push({ severity: 'error', code: 'WRITER_FRAME_WINDOW', requirement: 'JSONL-14', line: wide.line, message: `${frames(wide, one, `declare windows over ${limit}`)}${first}: no writer may declare more, since a reader need accept no more; zstd declares more at levels 20 to 22 and with --long` })
  }
  const notABatch = facts.notABatch
  if (notABatch !== undefined) {
    found.push({ severity: 'error', code: 'WRITER_FRAME_BATCH', requirement: 'JSONL-13', line: notABatch.line, message: `${frames(notABatch, 'holds no batch', 'hold no batch')} (${notABatch.why}): after the header's, each frame holds one batch, whole records each ended by its line feed` })
  }
  const form = facts.form
  if (form !== undefined) {
    found.push({ severity: 'notice', code: 'WRITER_LINE_FORM', requirement: 'JSONL-8', line: form.first, message: `${lines(form.count, form.first, 'differ')} from JSON.stringify's text of what ${form.count === 1 ? 'it holds' : 'they hold'}, which JSONL-8 asks writers to write so that two writers write the same bytes (${form.difference})` })
  }
  return found
}

/**
 * A raw artifact whose torn tail is its unterminated last line alone: a reader cannot tell a crash from
 * a writer (or a hand edit) that never ended its last record, which loses that record on every read.
 */
function unendedLastLineHint(tornTail: TornTail, encoding: Encoding): string {
  if (encoding !== 'raw' || tornTail.reason !== 'unterminated') return ''
  return '. If that line is a whole record that no crash cut, its writer left out the line feed that ends every record (JSONL-8)'
}

/**
 * `why`: what is wrong with the line that starts the tail, when it is complete. `sizeOnceRead`: the
 * file's size after the read, when a writer changed it meanwhile; a tail that starts at or past it was
 * cut away or rewritten already, so no writer's truncation applies to it.
 */
function tornTailNotice(tornTail: TornTail, why: string | undefined, encoding: Encoding, extent: ArtifactExtent, sizeOnceRead: bigint | undefined): Diagnostic {
  const pastEnd = sizeOnceRead !== undefined && BigInt(tornTail.offset) >= sizeOnceRead
  return {
    severity: 'notice',
    code: 'TORN_TAIL',
    requirement: encoding === 'zstd' ? 'JSONL-15' : 'JSONL-12',
    line: tornTail.line,
    message: pastEnd
      ? `recoverable torn tail from line ${tornTail.line} (byte ${tornTail.offset}, ${tornTail.reason}) in the bytes read, at or past the file's end once read (${sizeOnceRead} bytes): a writer changed the file meanwhile, so no truncation applies to it as it is; check it again when no writer has it open`
      : `recoverable ${tornTailAdvice(tornTail, encoding, extent, why)}${unendedLastLineHint(tornTail, encoding)}`,
  }
}

/** A file a writer changed while check read it: listed first, since it qualifies every other finding. */
function changedNotice(change: FileChange): Diagnostic {
  return { severity: 'notice', code: 'FILE_CHANGED', message: fileChangedMessage(change, 'check') }
}

/** The types the rc8 builds write that the pinned vocabulary lacks. */
const RC8_ONLY_TYPES = [...V0_RC8_TYPES].filter(type => !V0_PINNED_TYPES.has(type))

/**
 * For a log refused for an unknown event type that the rc8 vocabulary knows: how to read it (under
 * v0-rc8, no such type is unknown).
 */
export function vocabularyHint(code: string, message: string): string {
  if (code !== 'FORMAT_UNKNOWN_EVENT_TYPE') return ''
  // The whole message, since the type in it is unescaped: "x\"team/member" quotes an rc8 type too.
  const known = RC8_ONLY_TYPES.find(type => message === unknownTypeMessage(type))
  return known === undefined ? '' : ` (the rc8 builds write ${known}: --vocabulary v0-rc8 knows their types)`
}

function severityOf(code: string, requirements: RequirementIndex): 'error' | 'refusal' {
  return requirements.isRefusal(code) ? 'refusal' : 'error'
}

/**
 * The rule that states what a corrupt line breaks, where the finding cites JSONL-11 (the rule that makes
 * a defect before a turn end corruption): named in the message, so that a reader finds both.
 */
const DEFECT_RULES: Readonly<Record<string, string>> = {
  JSONL_LINE_UNPARSABLE: 'JSONL-9 says how a line decodes',
  JSONL_SEQ_GAP: 'JSONL-10 says how seqs continue the count',
  JSONL_ROW_INVALID: 'ROW-3 says what a packed row must hold',
}

/** The finding that ended the check of an artifact: a limit of check's, a decoding fault or a load fault; none when it loaded. */
function faultDiagnostics(artifact: ArtifactOutcome, requirements: RequirementIndex): Diagnostic[] {
  const at = (stage: Stage, code: string): { requirement?: string } => {
    const requirement = requirements.of(stage, code)
    return requirement === undefined ? {} : { requirement }
  }
  const position = (line?: number, seq?: number): { line?: number; seq?: number } => ({
    ...(line === undefined ? {} : { line }), ...(seq === undefined ? {} : { seq }),
  })
  if (artifact.limit !== undefined) {
    const { code, line, message } = artifact.limit
    return [{ severity: 'error', code, ...position(line), message: `not checked: ${message}` }]
  }
  const decoded = artifact.decodeError
  if (decoded !== undefined) {
    const kind = CORRUPTION_CODES.has(decoded.code) ? 'corruption: ' : ''
    const defectRule = DEFECT_RULES[decoded.code]
    const rule = defectRule === undefined ? '' : ` (${defectRule})`
    return [{ severity: severityOf(decoded.code, requirements), code: decoded.code, ...at('decode', decoded.code), ...position(decoded.line ?? artifact.contextLine), message: `${kind}${decoded.message}${rule}` }]
  }
  const fault = artifact.load?.fault
  if (fault !== undefined) {
    const requirement = requirements.ofLoadFault(fault)
    const message = `${fault.message}${vocabularyHint(fault.code, fault.message)}`
    return [{ severity: severityOf(fault.code, requirements), code: fault.code, ...(requirement === undefined ? {} : { requirement }), ...position(fault.line, fault.seq), message }]
  }
  return []
}

/**
 * The relation violations of a loaded artifact, their messages already cut for a report: one finding
 * each for the listed ones, then one per kind for those past them, at the first of that kind.
 */
function violationDiagnostics(violations: ViolationList, requirements: RequirementIndex): Diagnostic[] {
  const finding = (violation: RelationViolation, message: string): Diagnostic => {
    const requirement = requirements.ofViolation(violation)
    return { severity: 'error', code: violation.code, ...(requirement === undefined ? {} : { requirement }), line: violation.line, seq: violation.seq, message }
  }
  const counted = [...violations.unlisted.values()].map(({ count, first }) =>
    finding(first, `${plural(count, 'violation')} of this kind from here on, past the ${MOST_VIOLATIONS_LISTED} that check lists of a log: counted, not listed; the first says: ${first.message}`))
  return [...violations.listed.map(violation => finding(violation, violation.message)), ...counted]
}

/**
 * JSONL-3: a reader opening this file for the session its layout names rejects it before anything
 * else, so a broken binding decides the verdict; the findings of the artifact itself are still listed.
 * Each name the file was given is a place a reader may open it at; the first that breaks is reported.
 */
function pathBinding(names: readonly string[], encoding: Encoding, artifact: ArtifactOutcome): Diagnostic | undefined {
  const header = artifact.header
  if (header === undefined || artifact.limit !== undefined) return undefined
  for (const [index, name] of names.entries()) {
    const fault = pathBindingFault(name, encoding, header)
    if (fault !== undefined) return { severity: 'error', code: 'HEADER_ID_MISMATCH', requirement: 'JSONL-3', message: index === 0 ? fault : `named also ${name}: ${fault}` }
  }
  return undefined
}

/**
 * A refusal (FMT-5) comes before a writer's error or a notice under --strict, as an unchecked file's
 * limit does: the log is not judged, and those findings are listed all the same.
 */
function statusOf(outcome: Outcome, brokenOtherwise: boolean, requirements: RequirementIndex): FileReport['status'] {
  if (outcome.verdict === 'unchecked') return 'unchecked'
  if (outcome.verdict === 'rejected') return requirements.isRefusal(outcome.code) ? 'refused' : 'invalid'
  return outcome.relations.length > 0 || brokenOtherwise ? 'invalid' : 'valid'
}

function report(file: string, otherNames: readonly string[], encoding: Encoding, artifact: ArtifactOutcome, change: FileChange | undefined, settings: CheckSettings, requirements: RequirementIndex): FileReport {
  const binding = settings.noLayout === true ? undefined : pathBinding([file, ...otherNames], encoding, artifact)
  const outcome: Outcome = binding === undefined ? outcomeOf(artifact) : { verdict: 'rejected', operation: 'open', code: binding.code }
  const writer = writerDiagnostics(artifact.writerFacts)
  const torn = artifact.tornTail !== null && artifact.decodeError === undefined && artifact.limit === undefined ? [tornTailNotice(artifact.tornTail, artifact.tornTailWhy, encoding, artifact.extent, change?.bytesRead)] : []
  const diagnostics = [
    ...(change === undefined ? [] : [changedNotice(change)]),
    ...withShortMessages([...(binding === undefined ? [] : [binding]), ...faultDiagnostics(artifact, requirements)]),
    ...(artifact.load === undefined ? [] : violationDiagnostics(artifact.load.violations, requirements)),
    ...withShortMessages([...writer, ...factNotices(artifact.facts), ...torn]),
  ]
  const writerBroke = writer.some(diagnostic => diagnostic.severity === 'error')
  const noticed = settings.strict === true && diagnostics.some(diagnostic => diagnostic.severity === 'notice')
  return { file, encoding, status: statusOf(outcome, writerBroke || noticed, requirements), outcome, diagnostics }
}

function unchecked(file: string, encoding: Encoding, code: string, message: string): FileReport {
  return { file, encoding, status: 'unchecked', outcome: { verdict: 'unchecked', code }, diagnostics: [{ severity: 'error', code, message }] }
}

/** `otherNames`: the other names the file was given on the command line or met under in a folder. */
export function checkFile(file: string, settings: CheckSettings, requirements: RequirementIndex, otherNames: readonly string[] = []): FileReport {
  const encoding = encodingOf(file)
  let read: ArtifactRead
  try {
    read = checkArtifact(file, encoding, settings)
  } catch (error) {
    const io = error instanceof UnreadableFile || isReadFailure(error)
    const message = fileErrorMessage(error, file)
    return unchecked(file, encoding, io ? 'CHECK_IO_ERROR' : 'CHECK_INTERNAL_ERROR', io ? `cannot read: ${message}` : `the checker failed: ${message}`)
  }
  return report(file, otherNames, encoding, read.outcome, read.change, settings, requirements)
}

/** check's pass over an artifact already in memory, into `artifact`. */
function checkInMemory(bytes: Uint8Array, encoding: Encoding, artifact: ArtifactCheck): ArtifactOutcome {
  return encoding === 'raw' ? checkRawArtifact(memoryChunks(bytes), artifact, true) : checkZstdArtifact(memoryByteSource(bytes), artifact)
}

/** What a caller that holds the whole log learns before it decodes it (bytesToHold). */
export interface BytesToHold {
  notices: Diagnostic[]
  /** Why the log is more than `most` can hold, as a clause that starts a sentence ("its content holds more than …"). */
  beyondMost: string | undefined
}

/** The most a caller that holds the whole log can hold of it: bytes of content, and values (ArtifactCheck's mostContentValues). */
export interface HoldLimits {
  bytes: number
  values: number
}

/**
 * For a caller that holds the whole log and loads it its own way (audit), from a pass over an artifact
 * already in memory that reads every complete line and checks nothing else: the byte notices (a byte
 * order mark, CR line ends, ill-formed UTF-8), and whether it is more than `most` can hold: content of
 * more bytes (a zstd log's decompressed content, which its size does not bound; a line longer than that
 * is content past it too), lines that would build more values when parsed, or a zstd frame whose window
 * passes a quarter of the bytes (a decoder keeps twice its window, in an array that may reserve twice
 * that again).
 */
export function bytesToHold(bytes: Uint8Array, encoding: Encoding, most: HoldLimits): BytesToHold {
  const settings = { vocabulary: '', maxLineBytes: most.bytes, factsOnly: true, mostContentBytes: most.bytes, mostContentValues: most.values, mostWindowBytes: Math.floor(most.bytes / 4) }
  const outcome = checkInMemory(bytes, encoding, new ArtifactCheck(settings))
  const notices = factNotices(outcome.facts)
  if (outcome.pastMost === 'bytes') return { notices, beyondMost: `its content holds more than ${plural(most.bytes, 'byte')}` }
  if (outcome.pastMost === 'values') return { notices, beyondMost: `its lines hold more than ${most.values} opening brackets, opening braces and commas outside strings, each an array, an object or one more member or element that a parser builds` }
  if (outcome.limit?.code !== 'CHECK_WINDOW_TOO_LARGE') return { notices, beyondMost: undefined }
  const window = outcome.limit.window
  return { notices, beyondMost: `the frame at byte ${window.frameStart} needs a ${window.bytes}-byte window, more than a quarter of what audit holds (${plural(settings.mostWindowBytes, 'byte')}: a decoder may keep four windows)` }
}

/** What check read of an artifact that a reader refuses: the rule of its first fault, and its header. */
export interface RefusalFacts {
  /** The rule check cites for the first fault, or undefined when no rule names it. */
  rule: string | undefined
  /** Check's words for a fault of the decoding, which may say more than the reference's. */
  decodeMessage: string | undefined
  /**
   * The header, when the header line or frame decoded before the fault and no limit of check's
   * stopped the read (as for check's own binding check): JSONL-3 still applies to it.
   */
  header: JsonRecord | undefined
}

/**
 * check's reading of an artifact already in memory that a reader refuses, for a caller that loads the
 * log its own way (audit), so that both commands cite the same rule and check the same binding.
 */
export function refusalFacts(bytes: Uint8Array, encoding: Encoding, vocabulary: string, requirements: RequirementIndex): RefusalFacts {
  const outcome = checkInMemory(bytes, encoding, new ArtifactCheck({ vocabulary, maxLineBytes: DEFAULT_MAX_LINE_BYTES }))
  const refused = outcome.decodeError !== undefined || outcome.load?.fault !== undefined
  return { rule: refused ? faultDiagnostics(outcome, requirements)[0]?.requirement : undefined, decodeMessage: outcome.decodeError?.message, header: outcome.limit === undefined ? outcome.header : undefined }
}

/** A message may quote a value of the log at any length; the report shows its start. */
function withShortMessages(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map(diagnostic => ({ ...diagnostic, message: reportMessage(diagnostic.message) }))
}
