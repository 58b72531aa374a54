// `dsh-conformance serve`: the reference interpreter behind the subprocess adapter protocol
// (spec/adapter-protocol.md) on stdin and stdout, so the protocol is tested end to end and other
// tools can drive the reference from any language. Logs go to stderr; stdout carries replies only.
import type { AdapterResult } from './adapter.ts'
import { decodeLine, illFormedAt, LineAssembler, MAX_LINE_BYTES } from './adapter-process.ts'
import { referenceAdapter } from './adapters/reference.ts'
import { encodeTagged, PROTOCOL_VERSION, protocolLine, protocolViolation, type ProtocolMessageName } from './protocol.ts'
import { decodeTagged } from './tagged-values.ts'
import type { OperationName } from './vector-cases.ts'
import { isStackOverflow, plural, printable } from './wording.ts'

/** The messages an adapter is sent, by their `cmd`: a Map, so that `toString` or `__proto__` names none. */
const COMMANDS: ReadonlyMap<unknown, ProtocolMessageName> = new Map([['start', 'start'], ['run', 'run'], ['stop', 'stop']])

function reply(message: unknown): void {
  process.stdout.write(protocolLine(message))
}

function startedReply(): unknown {
  const { name, version, language, profiles } = referenceAdapter.meta
  return { protocol: PROTOCOL_VERSION, implementation: { name, version, language }, profiles, operations: Object.keys(referenceAdapter.operations) }
}

/** A result in tagged form; undefined members (an error without seq) are left out. */
function encodeResult(result: AdapterResult): unknown {
  if (result.ok) return { ok: true, value: encodeTagged(result.value) }
  if ('unsupported' in result) return { ok: false, unsupported: result.unsupported }
  const { code, seq, line, message } = result.error
  return { ok: false, error: JSON.parse(JSON.stringify({ code, seq, line, message })) }
}

async function runReply(message: { seq: number; operation: OperationName; input: Record<string, unknown> }): Promise<unknown> {
  try {
    const operation = referenceAdapter.operations[message.operation]
    if (!operation) throw new Error(`operation ${message.operation} was not declared`)
    const input = decodeTagged(message.input) as Record<string, unknown>
    return { seq: message.seq, result: encodeResult(await operation(input)) }
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error))
    return { seq: message.seq, error: { message: failure.message || failure.name, ...(failure.stack ? { traceback: failure.stack } : {}) } }
  }
}

/**
 * Why `message` breaks the protocol as a message of its `command`, or undefined. The schema's check
 * walks a message recursively: one nested deeper than the stack allows cannot be checked, and is
 * refused as the runner refuses such a reply.
 */
function messageViolation(command: ProtocolMessageName, message: unknown): string | undefined {
  try {
    return protocolViolation(command, message)
  } catch (error) {
    if (!isStackOverflow(error)) throw error
    return `a protocol-${command} message nested too deeply to check (send deep chains of one-element arrays as the nested tag)`
  }
}

/** Why `command` comes out of the protocol's order, or undefined: start is a process's first message, and its only start. */
function orderViolation(command: ProtocolMessageName, started: boolean): string | undefined {
  if (!started && command !== 'start') return `${command} before start, which is the first message an adapter process receives`
  if (started && command === 'start') return 'a second start: a process is started once (the runner starts a new process to start again)'
  return undefined
}

/** How much of a line an error quotes: its first 200 bytes, or of a line that is text its first 200 characters. */
const QUOTED_MOST = 200

/** A line of the input as text, or why it is garbage (the protocol's Transport). */
type InputLine = { text: string } | { garbage: string }

/** The bytes of a line as text, or why it is garbage: ill-formed UTF-8 is refused, never replaced with U+FFFD. */
function inputLine(bytes: Buffer): InputLine {
  const text = decodeLine(bytes)
  return text === undefined ? { garbage: `a line that is not well-formed UTF-8 (${illFormedAt(bytes)}): ${bytes.subarray(0, QUOTED_MOST).toString('utf8')}` } : { text }
}

/**
 * The lines of `input` as the runner reads an adapter's: a line past `maxLineBytes` ends them as soon
 * as it passes the bound, before the rest of it is read, and so does a last line with no line feed.
 */
async function* inputLines(input: AsyncIterable<Buffer>, maxLineBytes: number): AsyncGenerator<InputLine> {
  const assembler = new LineAssembler(maxLineBytes)
  for await (const chunk of input) {
    const { lines, overlong } = assembler.push(chunk)
    yield* lines.map(inputLine)
    if (overlong) {
      yield { garbage: `a line longer than ${maxLineBytes} bytes (${maxLineBytes / 2 ** 20} MiB), the most the protocol allows` }
      return
    }
  }
  // Every message ends with a line feed (spec/adapter-protocol.md), as the runner reads replies.
  const rest = assembler.unterminated(QUOTED_MOST)
  if (rest !== undefined) yield { garbage: `stdin ended inside a line (${plural(rest.bytes, 'byte')} with no line feed): ${rest.head.toString('utf8')}` }
}

/**
 * Answers messages until stop (exit status 0) or the end of `input`; a line that is garbage or a
 * message that breaks the protocol ends it with 2. Ending the loop early closes `input`, so a process
 * ends on stop though its stdin stays open.
 */
export async function serve(input: AsyncIterable<Buffer> = process.stdin): Promise<number> {
  let started = false
  for await (const line of inputLines(input, MAX_LINE_BYTES)) {
    if ('garbage' in line) {
      process.stderr.write(`dsh-conformance serve: ${printable(line.garbage)}\n`)
      return 2
    }
    let message: unknown
    try {
      message = JSON.parse(line.text)
    } catch {
      // The line is the runner's, or whoever writes to this process: shown escaped.
      process.stderr.write(`dsh-conformance serve: not JSON: ${printable(line.text.slice(0, QUOTED_MOST))}\n`)
      return 2
    }
    const command = COMMANDS.get((message as { cmd?: unknown } | null)?.cmd)
    const violation = command === undefined ? 'no known cmd' : messageViolation(command, message) ?? orderViolation(command, started)
    if (violation !== undefined) {
      process.stderr.write(`dsh-conformance serve: ${printable(violation)}: ${printable(line.text.slice(0, QUOTED_MOST))}\n`)
      return 2
    }
    if (command === 'stop') return 0
    started = true
    reply(command === 'start' ? startedReply() : await runReply(message as Parameters<typeof runReply>[0]))
  }
  return 0
}
