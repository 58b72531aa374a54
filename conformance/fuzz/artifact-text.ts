// The decodeJsonl probe, one plan in four of those the stored-row edit leaves, over the artifact's text
// edited where chapter 19 says exactly what a reader makes of bytes no writer of JSONL-8 writes: every
// line ended by CRLF, with one blank line (a lone CR) among the records (JSONL-4: only the line feed
// ends a line; JSONL-9: a CR alone is no JSON text); a record line made lenient JSON (a trailing comma,
// a comment, a leading plus, single quotes: JSONL-9 takes RFC 8259 alone); a record line with a form
// feed before it or a no-break space after it (not JSON whitespace); whitespace after the last line
// feed (JSONL-12: any byte there is an unterminated tail), or a second line feed there (an empty last
// line, which JSONL-9 cannot parse); a record's `seq` of 0 or 1 written as false or true (JSONL-10: no
// seq); a packed row's tag in other case (JSONL-9: an event of that type, with no `seq`); a record line
// made unparsable with every later turn/end line wrapped in an array (JSONL-11: no turn/end); a header
// line without its `type`, with `createdAt` -0 or "1", or `delegationDepth` null (JSONL-6), with a
// member `SandboxMode`, no retired name, which the decoded header drops (JSONL-7), with a retired member
// (JSONL-6 step 5) or with a version of -1, which is refused as older (FMT-2); or a packed row's
// `time0` made negative (ROW-1: times are safe integers of either sign). Whether a record line's fault
// is committed damage or a torn tail is the log's to say (JSONL-11: a later turn/end). No other damage
// is made beside the edit. Drawn from a seed of the run's plan, as the headerEquals pairs are
// (header-pairs.ts), so the fuzzer's other draws stay as they were and a shrunk log draws alike; its
// disagreements are a class of their own (compare.ts).
import { saltedChooser, type Chooser } from '../generators/index.ts'

/** The variant of the probes over such artifacts (Probe.variant). */
export const ARTIFACT_TEXT_VARIANT = 'artifact text no writer writes'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const ARTIFACT_TEXT_SALT = 0x54455854

/** A record line (not the header's) made lenient JSON, each form one RFC 8259 parsers refuse. */
const LENIENT_FORMS: readonly ((line: string) => string)[] = [
  line => `${line.slice(0, -1)},}`,
  line => `${line} /* note */`,
  line => line.replace(/"time":(\d)/, '"time":+$1'),
  line => line.replace('"type":', "'type':"),
]

/** A record line with a character around it that Unicode calls whitespace and JSON does not. */
const UNICODE_SPACES: readonly ((line: string) => string)[] = [line => `\f${line}`, line => `${line}\u00a0`, line => `\v${line}`]

/** Whitespace-only tails after the last line feed. */
const WHITESPACE_TAILS: readonly string[] = [' ', '\r', ' \t']

/**
 * The header line without its `type`, with `createdAt` written as -0 or as a string of its digits, with
 * `delegationDepth` null, with a member `SandboxMode`, which is no retired name (they compare exactly),
 * with one of the retired members `sandboxMode` and `approvalPolicy`, or with a version below 0.
 */
const HEADER_EDITS: readonly ((line: string) => string)[] = [
  line => line.replace('"type":"session",', ''),
  line => line.replace(/"createdAt":\d+/, '"createdAt":-0'),
  line => line.replace(/"createdAt":(\d+)/, '"createdAt":"$1"'),
  line => line.replace('"delegationDepth":0', '"delegationDepth":null'),
  line => line.replace(/}$/, ',"SandboxMode":"off"}'),
  line => line.replace(/}$/, ',"sandboxMode":"off"}'),
  line => line.replace(/}$/, ',"approvalPolicy":"never"}'),
  line => line.replace('"version":0', '"version":-1'),
]

type LineEdit = (lines: string[], chooser: Chooser) => string[] | undefined

/** The indexes of the record lines (not the header line, nor the empty text after the last line feed). */
function recordLines(lines: readonly string[]): number[] {
  return lines.flatMap((line, index) => (index > 0 && line !== '' ? [index] : []))
}

/** The lines with the one at `index` changed by `edit`; undefined when the edit leaves it as it was. */
function withLineEdited(lines: string[], index: number, edit: (line: string) => string): string[] | undefined {
  const edited = edit(lines[index]!)
  return edited === lines[index] ? undefined : lines.map((line, at) => (at === index ? edited : line))
}

/** The lines with the one at a drawn record index changed by `edit`; undefined when there is none to change. */
function atRecordLine(lines: string[], chooser: Chooser, edit: (line: string) => string): string[] | undefined {
  const records = recordLines(lines)
  return records.length === 0 ? undefined : withLineEdited(lines, records[chooser.int(records.length)]!, edit)
}

/** Every line ended by CRLF, and a blank line (CR alone) after a drawn record line. */
const withCrlf: LineEdit = (lines, chooser) => {
  const records = recordLines(lines)
  if (records.length === 0) return undefined
  const blankAfter = records[chooser.int(records.length)]!
  const ended = lines.map((line, index) => (index === lines.length - 1 ? line : `${line}\r`))
  return [...ended.slice(0, blankAfter + 1), '\r', ...ended.slice(blankAfter + 1)]
}

/** A record's seq of 0 or 1 written as the boolean a converting reader would read as it. */
const seqAsBoolean: LineEdit = (lines, chooser) => {
  const records = recordLines(lines).filter(index => /^\{"type":"[^"]*","seq":[01],/.test(lines[index]!))
  if (records.length === 0) return undefined
  return withLineEdited(lines, records[chooser.int(records.length)]!, line => line.replace(/"seq":([01]),/, (_, seq: string) => `"seq":${seq === '1'},`))
}

/** A packed row's tag with each word capitalized ("Text-Chunks"): a type no row has. */
const rowTagInOtherCase: LineEdit = (lines, chooser) => {
  const rows = recordLines(lines).filter(index => /^\{"type":"[a-z-]+-chunks","seq0":/.test(lines[index]!))
  if (rows.length === 0) return undefined
  const capitalized = (tag: string): string => tag.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`)
  return withLineEdited(lines, rows[chooser.int(rows.length)]!, line => line.replace(/^\{"type":"([a-z-]+)"/, (_, tag: string) => `{"type":"${capitalized(tag)}"`))
}

/**
 * A drawn record line with a turn/end line after it made unparsable (a trailing comma), and every later
 * turn/end line wrapped in an array: an array is no turn/end (JSONL-11 step 2 asks an object), so the
 * damage is a torn tail.
 */
const tornBeforeWrappedTurnEnds: LineEdit = (lines, chooser) => {
  const isTurnEnd = (line: string): boolean => line.startsWith('{"type":"turn/end"')
  const lastTurnEnd = lines.findLastIndex(isTurnEnd)
  const before = recordLines(lines).filter(index => index < lastTurnEnd)
  if (before.length === 0) return undefined
  const torn = before[chooser.int(before.length)]!
  return lines.map((line, index) => (index === torn ? `${line.slice(0, -1)},}` : index > torn && isTurnEnd(line) ? `[${line}]` : line))
}

/** The edits, each over the text's lines (split at line feeds). */
const EDITS: readonly LineEdit[] = [
  withCrlf,
  (lines, chooser) => atRecordLine(lines, chooser, LENIENT_FORMS[chooser.int(LENIENT_FORMS.length)]!),
  (lines, chooser) => atRecordLine(lines, chooser, UNICODE_SPACES[chooser.int(UNICODE_SPACES.length)]!),
  (lines, chooser) => [...lines.slice(0, -1), `${lines.at(-1)!}${WHITESPACE_TAILS[chooser.int(WHITESPACE_TAILS.length)]!}`],
  lines => [...lines, ''],
  seqAsBoolean,
  rowTagInOtherCase,
  tornBeforeWrappedTurnEnds,
  (lines, chooser) => withLineEdited(lines, 0, HEADER_EDITS[chooser.int(HEADER_EDITS.length)]!),
  (lines, chooser) => {
    const rows = recordLines(lines).filter(index => /"time0":\d/.test(lines[index]!))
    return rows.length === 0 ? undefined : withLineEdited(lines, rows[chooser.int(rows.length)]!, line => line.replace(/"time0":(\d+)/, '"time0":-$1'))
  },
]

/**
 * The artifact's text edited as drawn, or undefined when the draw keeps it or the text does not suit
 * the edit (no record line, no packed row). Whether and which edit is drawn before any look at the text.
 */
export function withArtifactTextEdit(text: string, planSeed: number): string | undefined {
  const chooser = saltedChooser(planSeed, ARTIFACT_TEXT_SALT)
  if (chooser.int(4) !== 0) return undefined
  const edit = EDITS[chooser.int(EDITS.length)]!
  return edit(text.split('\n'), chooser)?.join('\n')
}
