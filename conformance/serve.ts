// `dsh-conformance serve`: the reference interpreter behind the subprocess adapter protocol
// (spec/adapter-protocol.md) on stdin and stdout, so the protocol is tested end to end and other
// tools can drive the reference from any language. Logs go to stderr; stdout carries replies only.
import { createInterface } from 'node:readline'
import type { AdapterResult } from './adapter.ts'
import { referenceAdapter } from './adapters/reference.ts'
import { encodeTagged, PROTOCOL_VERSION, protocolLine, protocolViolation, type ProtocolMessageName } from './protocol.ts'
import { decodeTagged } from './tagged-values.ts'
import type { OperationName } from './vector-cases.ts'

const COMMANDS: Record<string, ProtocolMessageName> = { start: 'start', run: 'run', stop: 'stop' }

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

/** Answers messages until stop (exit status 0) or the end of stdin; a malformed message ends it with 2. */
export async function serve(): Promise<number> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  try {
    for await (const line of lines) {
      let message: unknown
      try {
        message = JSON.parse(line)
      } catch {
        process.stderr.write(`dsh-conformance serve: not JSON: ${line.slice(0, 200)}\n`)
        return 2
      }
      const command = COMMANDS[String((message as { cmd?: unknown } | null)?.cmd)]
      const violation = command === undefined ? 'no known cmd' : protocolViolation(command, message)
      if (violation !== undefined) {
        process.stderr.write(`dsh-conformance serve: ${violation}: ${line.slice(0, 200)}\n`)
        return 2
      }
      if (command === 'stop') return 0
      reply(command === 'start' ? startedReply() : await runReply(message as Parameters<typeof runReply>[0]))
    }
    return 0
  } finally {
    lines.close()
    process.stdin.destroy()
  }
}
