// The command line of `dsh-conformance check`, as plain data.
import { constants } from 'node:buffer'
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import { decimalNumber } from '../option-rules.ts'
import { guessedOption } from '../wording.ts'

/**
 * The name `-` stands for. Standard input is read through its descriptor, not this path: a socket,
 * which is what Node gives a child's stdin, cannot be opened by path.
 */
export const STDIN = '/dev/stdin'

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024

/** The most findings of one file the text report lists: a log may break a rule at every event. */
export const DEFAULT_MAX_FINDINGS = 100

export const CHECK_USAGE = `usage: dsh-conformance check PATH... [options]

Checks stored session logs by the spec: decodeJsonl, then load, then relations, streaming record by
record. A PATH is a file or a folder; folders are walked for *.jsonl, *.jsonl.zstd and *.jsonl.zst
files (the upstream layout <root>/<project>/<session>/session.jsonl[.zstd] included), following links
to folders but walking each folder once. A name ending in .zstd (or .zst) is read as the zstd
encoding, any other as raw (a link, by the name of the file it leads to). A file named several
times is checked once, and each of its names in the layout binds it (JSONL-3). A PATH of - reads a
raw log from stdin (as /dev/stdin does); after --, every argument is a PATH.

options:
  --format text|json                 report format (default text)
  --vocabulary v0-pinned|v0-rc8      the reader's event types (default v0-pinned)
  --max-line-bytes N                 longest line the checker reads (default ${DEFAULT_MAX_LINE_BYTES},
                                     at most ${constants.MAX_STRING_LENGTH}, the longest string Node holds);
                                     a longer one leaves the file unchecked, unless it is an
                                     unterminated last line: a torn tail, never read at any length
                                     (from a pipe or device, an unterminated first line stops the
                                     read once it is longer),
                                     or a later line of a torn tail with no backslash and no turn/end,
                                     which cannot write one and is passed over, as the reader does
  --max-findings N                   most findings of one file the text report lists (default
                                     ${DEFAULT_MAX_FINDINGS}; 0 lists all); the rest are counted. json lists all
                                     (of a file's relation violations, both list the first 10000
                                     and count the rest by kind)
  --known FILE                       findings accepted for now (YAML or JSON as in
                                     schemas/check-known.schema.json: entries of a files glob and
                                     a code glob, each with its reason): a file whose every finding
                                     that makes it invalid or refused is listed is known, no failure;
                                     an entry that matches nothing is named on stderr
  --strict                           a notice makes its file invalid too (a recoverable torn tail,
                                     a byte order mark, CR line ends, ill-formed UTF-8, and with
                                     --writer a line not as JSON.stringify writes it): for a gate
                                     that wants each log whole and as writers write it
  --no-layout                        read every file as a lone artifact, whatever its name: a
                                     session.jsonl[.zstd] copied out of its storage layout is not
                                     held to the place its header's id and cwd derive (JSONL-3)
  --writer                           also check the rules a writer keeps and a reader forgives:
                                     the header line's members and order (JSONL-5), packed rows
                                     (ROW-6, ROW-7), no member name twice (JSON-12), no header-only
                                     artifact (JSONL-8), zstd frames with checksums, one batch each
                                     (JSONL-13), all errors; each line as JSON.stringify writes it
                                     (JSONL-8), a notice

exit status: 0 every file valid (a recoverable torn tail included) or known, 1 some file invalid
(with --writer, a writer's error included; with --strict, a notice), 2 a usage error, some file
refused (another format version, or an event type the vocabulary lacks: FMT-5, not damage) or that
could not be read or checked, or some folder that held no log or could not be read`

export interface CheckOptions {
  paths: string[]
  format: 'text' | 'json'
  vocabulary: string
  maxLineBytes: number
  /** The most findings of one file the text report lists; 0 lists all. */
  maxFindings: number
  /** Also check the writer's rules (writer-rules.ts). */
  writer: boolean
  /** A notice makes its file invalid. */
  strict: boolean
  /** Every file is a lone artifact, whatever its name: no path binds it (JSONL-3 not applied). */
  noLayout: boolean
  /** The known-findings file (--known). */
  known: string | undefined
}

const VALUED = ['--format', '--vocabulary', '--max-line-bytes', '--max-findings', '--known']
const FLAGS = ['--writer', '--strict', '--no-layout']

/** Applies one option with its value; returns what is wrong, if anything. */
function apply(options: CheckOptions, option: string, value: string): string | undefined {
  if (option === '--format') {
    if (value !== 'text' && value !== 'json') return `--format is text or json, not ${value}`
    options.format = value
  } else if (option === '--vocabulary') {
    if (vocabularyNamed(value) === undefined) return `--vocabulary is v0-pinned or v0-rc8, not ${value}`
    options.vocabulary = value
  } else if (option === '--known') {
    options.known = value
  } else if (option === '--max-findings') {
    const findings = decimalNumber(value)
    if (!Number.isSafeInteger(findings) || findings < 0) return `--max-findings needs a number of findings (0 lists all), not ${value}`
    options.maxFindings = findings
  } else {
    const bytes = decimalNumber(value)
    if (!Number.isSafeInteger(bytes) || bytes <= 0) return `--max-line-bytes needs a positive number of bytes, not ${value}`
    // A longer line could not be decoded into one string: the reader would take it for unparsable.
    if (bytes > constants.MAX_STRING_LENGTH) return `--max-line-bytes is at most ${constants.MAX_STRING_LENGTH}, the longest string Node holds, not ${value}`
    options.maxLineBytes = bytes
  }
  return undefined
}

/** The options of `check`, or what is wrong with them. `--option=value` is the same as `--option value`. */
export function parseCheckOptions(args: readonly string[]): CheckOptions | { error: string } {
  const options: CheckOptions = { paths: [], format: 'text', vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, maxFindings: DEFAULT_MAX_FINDINGS, writer: false, strict: false, noLayout: false, known: undefined }
  const given = new Set<string>()
  for (let index = 0; index < args.length; index++) {
    const argument = args[index] as string
    // After --, every argument is a PATH, one whose name starts with - included.
    if (argument === '--') {
      options.paths.push(...args.slice(index + 1).map(path => (path === '-' ? STDIN : path)))
      break
    }
    if (argument === '-') {
      options.paths.push(STDIN)
      continue
    }
    if (!argument.startsWith('-')) {
      options.paths.push(argument)
      continue
    }
    // A short option (-f, -h) is a mistake, not a file; a file whose name starts with - is ./-name.
    if (!argument.startsWith('--')) return { error: `unknown option ${argument}` }
    const joined = argument.includes('=')
    const option = joined ? argument.slice(0, argument.indexOf('=')) : argument
    if (!VALUED.includes(option) && !FLAGS.includes(option)) return { error: `unknown option ${option}${guessedOption(option, [...VALUED, ...FLAGS])}` }
    // Each is given once: a second is a mistake, not a change of mind.
    if (given.has(option)) return { error: `${option} is given twice` }
    given.add(option)
    if (FLAGS.includes(option)) {
      if (joined) return { error: `${option} takes no value` }
      if (option === '--writer') options.writer = true
      else if (option === '--strict') options.strict = true
      else options.noLayout = true
      continue
    }
    const value = joined ? argument.slice(option.length + 1) : args[++index]
    if (value === undefined) return { error: `${option} needs a value` }
    const problem = apply(options, option, value)
    if (problem !== undefined) return { error: problem }
  }
  if (options.paths.length === 0) return { error: 'check needs at least one PATH' }
  // Programs read every finding and filter them themselves; a cap there would only lose data.
  if (options.format === 'json' && given.has('--max-findings')) return { error: '--max-findings limits the text report; the json report lists every finding' }
  return options
}
