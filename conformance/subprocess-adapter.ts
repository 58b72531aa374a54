// The runner's side of the subprocess adapter protocol (spec/adapter-protocol.md): any program that
// speaks it, in any language, becomes an Adapter. Every reply is checked against the protocol schemas;
// a timeout, a crash, garbage or an invalid reply fails the step (an error, never a pass), and the
// next step runs in a fresh process. What goes wrong after the last reply, close() reports.
import type { ProtocolAccepted, ProtocolRejected, ProtocolStarted, ProtocolUnsupported } from '../generated/types/index.ts'
import type { Adapter, AdapterResult, Operation, StepContext } from './adapter.ts'
import { AdapterFailure, AdapterProcess, AdapterStartFailure, preview, settledWithin, TextTail, timeoutProblem } from './adapter-process.ts'
import { firstDifference } from './expectations.ts'
import { PROTOCOL_VERSION, protocolViolation, runMessage, startMessage, stopMessage } from './protocol.ts'
import { decodeTagged } from './tagged-values.ts'
import type { OperationName } from './vector-cases.ts'
import { errorMessage, isStackOverflow, shortened, shortenedAtStart, TRACE_MOST } from './wording.ts'

export interface SubprocessOptions {
  /** How long the runner waits for the reply to each run message. */
  timeoutMs?: number
  /** How long it waits for the reply to start, which includes the program's own start-up. */
  startTimeoutMs?: number
  /** The working directory of the command; default the runner's. */
  cwd?: string
  /** How long `close()` waits for the process to exit after stop before it kills it. */
  stopGraceMs?: number
  /**
   * How long `close()` watches the process, idle after its last reply, for an exit of its own (which
   * breaks the protocol) before it sends stop.
   */
  exitWatchMs?: number
}

export const DEFAULT_TIMEOUT_MS = 5000
/** The least time a process gets to start and answer start: some runtimes take seconds to boot. */
export const MIN_START_TIMEOUT_MS = 10_000
const DEFAULT_STOP_GRACE_MS = 2000
const STDERR_LIMIT = 64 * 1024
/** After this many restarts in a row that fail, every further step fails at once. */
const MAX_FAILED_RESTARTS = 3
const DEFAULT_EXIT_WATCH_MS = 100

/** The line the runner adds to an adapter's stderr where it restarts it, so that the tail shows which process wrote what. */
export const RESTART_NOTE = '[dsh-conformance: restarting the adapter]'

/** How the reason of a step not sent, once restarts have stopped, goes on after its kind. */
const NOT_RESTARTED = `not sent, since the adapter's last ${MAX_FAILED_RESTARTS} restarts failed and it is not restarted any more`

/** Whether a step's reason says it was not sent because restarts have stopped: no crash or timeout of its own. */
export function notRestarted(reason: string): boolean {
  // Right after the kind, not anywhere: a reason may quote what the adapter wrote.
  const at = reason.indexOf(': ')
  return at !== -1 && reason.startsWith(`${NOT_RESTARTED} (the last: `, at + 2)
}

type ReplyKind = 'started' | 'result'

/**
 * Runs a check that walks a reply recursively (the schema validator, the tagged-value decoder). A reply
 * nested deeper than the runner's stack can follow is an invalid reply, not an exception of the runner.
 */
function checkedWithinDepth<T>(check: () => T): T {
  try {
    return check()
  } catch (error) {
    if (isStackOverflow(error)) throw new AdapterFailure('invalid reply: the reply is nested too deeply to check (write deep chains of one-element arrays as the nested tag)')
    throw error
  }
}

/** The reply in one line, parsed and checked against its schema; AdapterFailure when it is not one. */
function parseReply(line: string, kind: ReplyKind): Record<string, unknown> {
  let reply: unknown
  try {
    reply = JSON.parse(line)
  } catch {
    // A byte order mark before the JSON is a common slip of .NET and PowerShell writers: named, for them.
    const why = line.startsWith('\ufeff') ? ' (it starts with a byte order mark, which the protocol does not allow)' : ''
    throw new AdapterFailure(`garbage: the adapter wrote a line that is not JSON${why}: ${preview(line)}`)
  }
  const record = typeof reply === 'object' && reply !== null && !Array.isArray(reply) ? reply as Record<string, unknown> : undefined
  if (kind === 'started' && record !== undefined && 'protocol' in record && record['protocol'] !== PROTOCOL_VERSION) {
    throw new AdapterFailure(`invalid reply: the adapter speaks protocol ${JSON.stringify(record['protocol'])}, the runner protocol ${PROTOCOL_VERSION}`)
  }
  const violation = checkedWithinDepth(() => protocolViolation(kind, reply))
  if (violation !== undefined || record === undefined) throw new AdapterFailure(`invalid reply: ${violation}: ${preview(line)}`)
  return record
}

/** The result a result reply carries, with its value decoded from tagged form. */
function resultOf(reply: Record<string, unknown>): AdapterResult {
  const result = reply['result'] as ProtocolAccepted | ProtocolRejected | ProtocolUnsupported
  if (!result.ok) return result
  try {
    return { ok: true, value: checkedWithinDepth(() => decodeTagged(result.value)) }
  } catch (error) {
    if (error instanceof AdapterFailure) throw error
    throw new AdapterFailure(`invalid reply: the value holds a malformed tagged value (${errorMessage(error)})`)
  }
}

/** `profiles` and `operations` are sets: a restarted adapter may list them in another order. */
function startReplyMember(reply: ProtocolStarted, member: string): unknown {
  const value = (reply as unknown as Record<string, unknown>)[member]
  return (member === 'profiles' || member === 'operations') && Array.isArray(value) ? [...value].sort() : value
}

/** Where a restarted adapter's start reply departs from the first: the member, as it was and as it is. */
export function startDifference(first: ProtocolStarted, again: ProtocolStarted): string | undefined {
  const members = new Set([...Object.keys(first), ...Object.keys(again)])
  for (const member of members) {
    const [was, is] = [startReplyMember(first, member), startReplyMember(again, member)]
    if (firstDifference(was, is) !== undefined) return `${member} was ${preview(JSON.stringify(was) ?? 'absent')}, is ${preview(JSON.stringify(is) ?? 'absent')}`
  }
  return undefined
}

const OTHER_SEQ = 'invalid reply: its seq is '

/**
 * Whether a step's failure, before its reply, may be the previous step's doing: an exit, a stray line or
 * a second reply that followed the previous reply at once, before the adapter read this request. Its
 * reason then names that reply too, so that both cases are looked at.
 */
function mayFollowLastReply(error: unknown): boolean {
  const message = errorMessage(error)
  return message.startsWith('crash:') || message.startsWith('garbage:') || message.startsWith(OTHER_SEQ)
}

/**
 * A failure while a request awaited its reply, naming the request. A timeout names it already; the
 * other kinds learn of it here.
 */
function atRequest(error: unknown, what: string): unknown {
  if (!(error instanceof AdapterFailure) || error.message.startsWith('timeout:')) return error
  return new AdapterFailure(`${error.message}; at ${what}`)
}

/** Spawns the command and runs the start handshake; the process is killed when that fails. */
async function launch(command: string, cwd: string | undefined, timeoutMs: number, stderr: TextTail): Promise<{ child: AdapterProcess; started: ProtocolStarted }> {
  const child = new AdapterProcess(command, { cwd, stderr })
  try {
    const line = await child.request(startMessage(), timeoutMs, 'start')
    return { child, started: parseReply(line, 'started') as unknown as ProtocolStarted }
  } catch (error) {
    child.fail(errorMessage(error))
    throw error
  }
}

/**
 * Starts `command` (through the shell) and returns it as an Adapter with exactly the operations and
 * profiles it declared. Rejects when the first start handshake fails.
 */
export async function startSubprocessAdapter(command: string, options: SubprocessOptions = {}): Promise<Adapter> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const startTimeoutMs = options.startTimeoutMs ?? Math.max(timeoutMs, MIN_START_TIMEOUT_MS)
  const stopGraceMs = options.stopGraceMs ?? DEFAULT_STOP_GRACE_MS
  const exitWatchMs = options.exitWatchMs ?? DEFAULT_EXIT_WATCH_MS
  const problem = timeoutProblem('timeoutMs', timeoutMs) ?? timeoutProblem('startTimeoutMs', startTimeoutMs) ?? timeoutProblem('stopGraceMs', stopGraceMs) ?? timeoutProblem('exitWatchMs', exitWatchMs)
  if (problem !== undefined) throw new RangeError(`startSubprocessAdapter: ${problem}`)
  const stderr = new TextTail(STDERR_LIMIT)
  const first = await launch(command, options.cwd, startTimeoutMs, stderr).catch((error: unknown) => {
    throw new AdapterStartFailure(errorMessage(error), stderr.toString())
  })
  const declared = first.started
  let current: AdapterProcess | undefined = first.child
  /** The last reply of the current process, which a failure while it is idle comes after. */
  let lastReply = 'its start reply'
  let failedRestarts = 0
  /** Why the last restart failed, for the steps not sent once they stop: its kind leads their reason. */
  let lastRestartFailure = ''
  let nextSeq = 0
  let closed = false
  /** The step being run, from the call to its outcome: one at a time, as the protocol says. */
  let stepInFlight: string | undefined

  async function restart(): Promise<AdapterProcess> {
    if (failedRestarts >= MAX_FAILED_RESTARTS) {
      // Every failure of the runner's reads its kind first; a bare error of another kind is a crash.
      const at = lastRestartFailure.indexOf(': ')
      const [kind, why] = at === -1 ? ['crash', lastRestartFailure] : [lastRestartFailure.slice(0, at), lastRestartFailure.slice(at + 2)]
      throw new AdapterFailure(`${kind}: ${NOT_RESTARTED} (the last: ${why})`)
    }
    stderr.append(`\n${RESTART_NOTE}\n`)
    try {
      const { child, started } = await launch(command, options.cwd, startTimeoutMs, stderr)
      const changed = startDifference(declared, started)
      if (changed !== undefined) {
        child.fail('declared something else')
        throw new AdapterFailure(`invalid reply: the restarted adapter's start reply differs from the first one: ${changed}`)
      }
      // Output with the start reply fails the restart, which counts toward MAX_FAILED_RESTARTS.
      const stray = await child.strayAfterReply()
      if (stray !== undefined) throw new AdapterFailure(stray)
      failedRestarts = 0
      lastReply = 'its start reply'
      return child
    } catch (error) {
      failedRestarts += 1
      lastRestartFailure = errorMessage(error)
      throw new AdapterFailure(`${lastRestartFailure} (while restarting the adapter)`)
    }
  }

  /** The process to send the next step to: the current one, or a restarted one after a failure. */
  async function usableProcess(): Promise<AdapterProcess> {
    if (closed) throw new AdapterFailure('the adapter was closed')
    const idleFailure = current?.unusable()
    if (idleFailure !== undefined) {
      // It failed or ended between two steps; nobody has reported that yet, so this step does.
      current = undefined
      throw new AdapterFailure(`${idleFailure} (while idle after ${lastReply}, before this step was sent)`)
    }
    current ??= await restart()
    if (closed) {
      // Closed while the restart was under way: the new process must not outlive the adapter.
      current.fail('the adapter was closed')
      current = undefined
      throw new AdapterFailure('the adapter was closed')
    }
    return current
  }

  /** One step at a time: a step that comes while another is in flight fails at once, and nothing else changes. */
  async function run(operation: OperationName, input: Record<string, unknown>, context?: StepContext): Promise<AdapterResult> {
    const step = `${operation}${context === undefined ? '' : `, ${context.caseId} step ${context.step}`}`
    if (stepInFlight !== undefined) {
      throw new AdapterFailure(`not sent: ${step} came while ${stepInFlight} was in flight, and a subprocess adapter runs one step at a time (run the cases one after another)`)
    }
    stepInFlight = step
    try {
      return await runStep(operation, input, context, step)
    } finally {
      stepInFlight = undefined
    }
  }

  async function runStep(operation: OperationName, input: Record<string, unknown>, context: StepContext | undefined, step: string): Promise<AdapterResult> {
    const child = await usableProcess()
    const message = runMessage(nextSeq, operation, input, context)
    nextSeq += 1
    // The protocol message's seq, named as such: beside a log's event seqs a bare `seq 4` reads as one.
    const what = `request seq ${message.seq} (${step})`
    let reply: Record<string, unknown>
    let replied = false
    try {
      reply = parseReply(await child.request(message, timeoutMs, what), 'result')
      if (reply['seq'] !== message.seq) throw new AdapterFailure(`${OTHER_SEQ}${String(reply['seq'])}`)
      replied = true
      // Output nobody asked for that came right after the reply is this step's fault, not the next's.
      const stray = await child.strayAfterReply()
      if (stray !== undefined) throw new AdapterFailure(`${stray} (with the reply)`)
      lastReply = `its reply to ${what}`
      if ('result' in reply) return resultOf(reply)
    } catch (error) {
      child.fail(errorMessage(error))
      current = undefined
      throw atRequest(error, !replied && mayFollowLastReply(error) ? `${what}, sent after ${lastReply}` : what)
    }
    // The adapter is alive and says the implementation failed: the step is an error, the process stays.
    // Both texts are cut, as every report holds them; a traceback's end names the cause.
    const failure = reply['error'] as { message: string; traceback?: string }
    const traceback = failure.traceback === undefined ? '' : `\n${shortenedAtStart(failure.traceback, TRACE_MOST)}`
    throw new AdapterFailure(`adapter error: ${shortened(failure.message)}${traceback}`)
  }

  const operations: Adapter['operations'] = {}
  for (const operation of declared.operations) {
    const call: Operation = (input, context) => run(operation, input, context)
    operations[operation] = call
  }

  return {
    meta: {
      ...declared.implementation,
      profiles: [...declared.profiles],
      transport: 'subprocess',
    },
    operations,
    stderr: () => stderr.toString(),
    /**
     * Stops the process. Rejects with an AdapterFailure when the adapter broke the protocol after its
     * last reply, which no step is left to report: it failed or ended while idle, wrote a line when no
     * reply was due, or did not exit with status 0 on stop.
     */
    async close(): Promise<void> {
      closed = true
      const child = current
      current = undefined
      if (child === undefined) return
      if (stepInFlight !== undefined) {
        child.fail(`the adapter was closed while ${stepInFlight} was in flight`)
        return
      }
      // A process that ends on its own after its last reply breaks the protocol too; watch for it a moment.
      await settledWithin(child.exited, exitWatchMs, 'still running').catch(() => undefined)
      const idleFailure = child.unusable()
      if (idleFailure !== undefined) throw new AdapterFailure(`${idleFailure} (while idle after ${lastReply}, before stop)`)
      const violation = await child.stop(stopMessage(), stopGraceMs)
      if (violation !== undefined) throw new AdapterFailure(violation)
    },
  }
}
