// Wording shared by the commands' reports for people.
import { lstatSync, readlinkSync } from 'node:fs'

/** What went wrong, for a message: an Error's message, or anything else thrown as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Whether an error is a failed system call (ENOENT, EIO, EACCES…), which names its call: an I/O
 * failure, not a defect of the code, whose errors may carry a code too (ERR_INVALID_ARG_TYPE).
 */
export function isSystemError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException | undefined)?.syscall === 'string'
}

/**
 * A file system error as a reader wants it: "no such file or folder" for a path that does not exist
 * (naming that path unless it is `path`, the one the reader gave), or that it is a link leading nowhere
 * (`ls` lists such a link, so "no such file" alone puzzles), else the error's own message.
 */
export function fileErrorMessage(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (!(error instanceof Error) || code !== 'ENOENT') return errorMessage(error)
  const missingPath = (error as NodeJS.ErrnoException).path
  const target = danglingLinkTarget(missingPath ?? path)
  if (target !== undefined) return `a link to ${target}, which leads to no file or folder`
  const missing = missingPath === undefined || missingPath === path ? 'no such file or folder' : `no such file or folder: ${missingPath}`
  // A name with U+FFFD in it may be one that is not valid UTF-8, as Node decodes it: say what that means.
  return (missingPath ?? path).includes('\uFFFD') ? `${missing} (if its name is not valid UTF-8: ${UNDECODABLE_NAME})` : missing
}

/** What the link at `path` leads to, when `path` is a link; undefined for anything else. */
function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined
  } catch {
    return undefined
  }
}

/** Why an entry whose name is not valid UTF-8 cannot be opened by the name Node gives it. */
export const UNDECODABLE_NAME = 'such a name reaches this command decoded, each byte it cannot decode made U+FFFD (�), and nothing goes by the name so made; rename it, or give a file on standard input (-)'

/** Whether a thrown error is V8's stack overflow: a walk went deeper than the stack allows. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message)
}

/** `count` and the noun, in the singular for one: "1 event", "2 events". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`
}

/** `part` as a whole percentage of `whole`, as every report writes shares: "3%"; "0%" of nothing. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${Math.round((part / whole) * 100)}%`
}

/**
 * Text from outside (an adapter's name or reason, a value of a log, a file name) made safe for one
 * line of a terminal: a control character (an escape sequence could hide the verdict that follows, a
 * line feed could forge a line), a line or paragraph separator, a format character (a bidirectional
 * control reorders what is shown; a zero-width or tag character shows nothing, so it could carry text
 * a reader never sees), or another character Unicode says to show as nothing (a Hangul filler, a
 * combining grapheme joiner: `ok\u3164.jsonl` would look like `ok.jsonl`), or a lone surrogate (which a
 * terminal or a UTF-8 file shows as U+FFFD, as it shows ill-formed bytes: JSON-5 keeps the two apart) is
 * shown as its \u escape.
 * Variation selectors stay (U+FE00–FE0F, U+E0100–E01EF and Mongolian's U+180B–180D, U+180F): they
 * pick how the character before them is drawn (the emoji of ☑️).
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeOf)
}

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|\p{Cf}|\p{Cs}|(?![\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}])\p{Default_Ignorable_Code_Point}/gu

/** Whether `printable` leaves `text` as it is. */
export function isPrintable(text: string): boolean {
  return text.match(UNPRINTABLE) === null
}

/** `\u` and four hex digits, or `\u{…}` for a character beyond the first plane. */
function escapeOf(character: string): string {
  const code = character.codePointAt(0)!
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * A text of several lines from outside (an adapter's message and traceback) for a terminal: each line
 * printable, and each after the first started with a tab, which printable escapes in any text of
 * theirs, so that none of its lines can pass for a line of the command's own.
 */
export function indentedLines(text: string): string {
  return text.split(/\r?\n/).map(printable).join('\n\t')
}

/** A text of many lines with each line printable: its line feeds kept, every other control escaped. */
export function printableLines(text: string): string {
  return text.replace(/[^\n]+/g, printable)
}

/**
 * A program's output (an adapter's stderr) as a terminal or a code block shows it: its line ends, CRLF
 * included, and its tabs kept, every other control escaped.
 */
export function printableOutput(text: string): string {
  return text.replaceAll('\r\n', '\n').replace(/[^\n\t]+/g, printable)
}

/** Text for one line of Markdown: control characters escaped, and the characters Markdown reads as markup. */
export function markdownText(text: string): string {
  return printable(text).replace(/[\\`*_[\]<>|#!~&]/g, (char) => `\\${char}`)
}

/** `text` on one line: each line break, a lone carriage return included, and the blanks around it made one space. */
export function joinedLines(text: string): string {
  return text.replace(/\s+/g, (blanks) => (/[\r\n]/.test(blanks) ? ' ' : blanks))
}

/**
 * Text for one cell of a Markdown table: its lines joined (a line feed, and a lone carriage return too,
 * would end the row) and tabs made spaces, cut past `most` code units, then escaped as markdownText.
 */
export function markdownCell(text: string, most = MESSAGE_MOST): string {
  return markdownText(shortened(joinedLines(text).replaceAll('\t', ' '), most))
}

/**
 * The most of a message a report prints, in UTF-16 code units (a character outside the BMP takes two);
 * the rest is counted in characters, not shown.
 */
export const MESSAGE_MOST = 1000

/**
 * A message for a report, its end left out past `most` UTF-16 code units (never inside a surrogate
 * pair), what is left out counted in characters: a reference message may quote a value from the log (an
 * event type, a member name), and a log line can be 100 MB long.
 */
export function shortened(message: string, most = MESSAGE_MOST): string {
  if (message.length <= most) return message
  const end = cutPoint(message, most)
  return detached(`${message.slice(0, end)}… (${plural(characterCount(message.slice(end)), 'more character')})`)
}

/**
 * A copy of `text` that holds on to no other string: in V8 a slice keeps the whole string it was cut
 * from alive, so ten thousand messages cut from a 1 MB one would keep ten thousand megabytes.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le')
}

/** `text` with its start left out past `most` code units, for a text whose end matters most (where an error is named). */
export function shortenedAtStart(text: string, most: number): string {
  if (text.length <= most) return text
  // Never start inside a surrogate pair.
  const start = /[\uDC00-\uDFFF]/.test(text.charAt(text.length - most)) ? text.length - most + 1 : text.length - most
  return detached(`(${plural(characterCount(text.slice(0, start)), 'character')} before) …${text.slice(start)}`)
}

/** The code points of `text`: what a report calls its characters (a surrogate pair is one). */
export function characterCount(text: string): number {
  // A surrogate pair is two code units; the native scan beats a walk of the characters many times over.
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0)
}

/** Where to cut `text` to at most `most` characters without splitting a surrogate pair. */
export function cutPoint(text: string, most: number): number {
  return /[\uD800-\uDBFF]/.test(text.charAt(most - 1)) ? most - 1 : most
}

/** How much of an adapter's traceback or an operation's stack a report keeps. */
export const TRACE_MOST = 4000

/** How much of a value a report message quotes. */
export const QUOTE_MOST = 200

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** The index of the quote that closes the one at `open`, escaped characters skipped; -1 when none does. */
function closingQuote(text: string, open: number): number {
  for (let at = open + 1; at < text.length; at++) {
    const unit = text.charCodeAt(at)
    if (unit === BACKSLASH) at++
    else if (unit === QUOTE) return at
  }
  return -1
}

/** The text between two quotes, cut past QUOTE_MOST characters with the count of the rest after the closing quote. */
function cutQuoted(inner: string): string {
  if (inner.length <= QUOTE_MOST) return `"${inner}"`
  let end = cutPoint(inner, QUOTE_MOST)
  // A cut after an odd run of backslashes would leave the closing quote escaped.
  let run = 0
  while (run < end && inner.charCodeAt(end - 1 - run) === BACKSLASH) run++
  if (run % 2 === 1) end -= 1
  return `"${inner.slice(0, end)}…" (${plural(inner.length - end, 'more character')})`
}

/**
 * A message about a log for a report: each value it quotes cut past QUOTE_MOST characters, so what it
 * says of the value still shows, then the whole message past MESSAGE_MOST. One pass, front to back:
 * a quote that nothing closes ends the cutting, and the rest is left to the cut of the whole.
 */
export function reportMessage(message: string): string {
  if (message.length <= QUOTE_MOST) return message
  const parts: string[] = []
  let from = 0
  for (let open = message.indexOf('"'); open !== -1; open = message.indexOf('"', from)) {
    const close = closingQuote(message, open)
    if (close === -1) break
    parts.push(message.slice(from, open), cutQuoted(message.slice(open + 1, close)))
    from = close + 1
  }
  parts.push(message.slice(from))
  return shortened(parts.join(''))
}

/** How far an artifact runs: its bytes, and for the raw encoding its last line (counting an unterminated one). */
export interface ArtifactExtent {
  bytes: number
  lastLine?: number
  /** For a zstd artifact read to its end: the events the reader keeps from the torn final frame. */
  tornFrameEvents?: number
}

/**
 * What a torn tail means for a reader and for a writer that resumes the artifact, and with the
 * artifact's extent how much it takes. A raw artifact's torn tail is dropped on read (JSONL-12); a torn
 * final zstd frame is read as far as its complete lines go, and those must be written again (JSONL-15),
 * so truncating alone would lose them.
 */
export function tornTailAdvice(torn: { line: number; offset: number; reason: string }, encoding: 'raw' | 'zstd', extent: ArtifactExtent, why?: string): string {
  const bytes = plural(extent.bytes - torn.offset, 'byte')
  if (encoding === 'raw') {
    const lines = extent.lastLine === undefined ? undefined : extent.lastLine - torn.line + 1
    const size = lines === undefined ? bytes : `${plural(lines, 'line')} (${bytes})`
    const later = lines !== undefined && lines > 1 ? ', complete later lines included' : ''
    const cause = why === undefined ? torn.reason : `${torn.reason}: ${why}`
    return `torn tail from line ${torn.line} (byte ${torn.offset}, ${cause}): dropped on read as uncommitted data, ${size} from there on${later}; a writer truncates the artifact to byte ${torn.offset} before it appends`
  }
  const start = `torn final frame from line ${torn.line} (byte ${torn.offset}, ${torn.reason})`
  const truncate = `a writer truncates the artifact to byte ${torn.offset}, dropping its last ${bytes}`
  const kept = extent.tornFrameEvents
  if (kept === undefined) return `${start}: its complete lines before the first damaged one, if any, are kept on read (JSONL-15 reads them as JSONL-11 does); ${truncate}, and writes the events kept from that frame again, as a new frame, before it appends`
  if (kept === 0) return `${start}: no event of it is kept on read (JSONL-15 reads its complete lines as JSONL-11 does, and none is whole and undamaged); ${truncate} before it appends`
  return `${start}: ${plural(kept, 'event')} from its complete lines ${kept === 1 ? 'is' : 'are'} kept on read (JSONL-15 reads them as JSONL-11 does); ${truncate}, and writes ${kept === 1 ? 'that event' : `those ${kept} events`} again, as a new frame, before it appends`
}

/**
 * How many single-character edits turn `from` into `to`, two neighbours swapped counting as one (the
 * optimal string alignment distance): `--fromat` is one slip away from `--format`.
 */
function editDistance(from: string, to: string): number {
  let beforePrevious: number[] = []
  let previous = Array.from({ length: to.length + 1 }, (_, index) => index)
  for (let row = 1; row <= from.length; row += 1) {
    const current = [row]
    for (let column = 1; column <= to.length; column += 1) {
      const substitution = previous[column - 1]! + (from[row - 1] === to[column - 1] ? 0 : 1)
      const swapped = row > 1 && column > 1 && from[row - 1] === to[column - 2] && from[row - 2] === to[column - 1]
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution, swapped ? beforePrevious[column - 2]! + 1 : Infinity))
    }
    beforePrevious = previous
    previous = current
  }
  return previous[to.length]!
}

const withoutDashes = (word: string): string => word.replace(/^-+/, '')

/**
 * Whether one word is the other with a dash-joined part added at either end, and less than twice as
 * long: a case renamed `…-renamed`, or a part cut.
 */
function extends_(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a]
  return shorter.length * 2 > longer.length && (longer.startsWith(`${shorter}-`) || longer.endsWith(`-${shorter}`))
}

/**
 * The candidate a mistyped word most likely meant: one it extends or that extends it by a part (a case
 * renamed `…-renamed`), else a few edits away, one per four characters; the leading dashes left out on
 * both sides (`chapter` and `-chapter` mean `--chapter`).
 */
export function likelyMeant(word: string, candidates: readonly string[]): string | undefined {
  const bare = withoutDashes(word)
  const most = Math.max(1, Math.floor(bare.length / 4))
  const ranked = candidates
    .map((candidate) => ({ candidate, distance: extends_(bare, withoutDashes(candidate)) ? 0 : editDistance(bare, withoutDashes(candidate)) }))
    .sort((a, b) => a.distance - b.distance)
  const [best, next] = ranked
  // Two equally likely (a case split in two, `…-reader` and `…-writer`): no guess.
  if (best === undefined || best.distance > most || (next !== undefined && next.distance === best.distance)) return undefined
  return best.candidate
}

/** `; did you mean --runs?` when `option` is most likely a misspelling of one of `options`, else nothing. */
export function guessedOption(option: string, options: readonly string[]): string {
  const meant = likelyMeant(option, options)
  return meant === undefined ? '' : `; did you mean ${meant}?`
}
