// One adapter process of the subprocess protocol: spawns the command, writes one line and awaits the
// next, and turns every way a process can misbehave (no answer in time, exit, closed stdout,
// output nobody asked for, bytes that are not UTF-8) into one failure reason. It knows lines and
// JSON, not message meanings.
import { spawn, type ChildProcess } from 'node:child_process'
import { protocolLine } from './protocol.ts'
import { plural, shortened, shortenedAtStart } from './wording.ts'
import { clearProgressLine } from './progress-line.ts'

/** A failure of the implementation under test (not of the runner): recorded as an error, never a pass. */
export class AdapterFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AdapterFailure'
    // The runner prints the stack; the runner's own frames say nothing about the adapter.
    this.stack = `${this.name}: ${message}`
  }
}

/** A subprocess adapter whose first start failed, with what it wrote to stderr until then. */
export class AdapterStartFailure extends AdapterFailure {
  constructor(message: string, readonly stderr: string) {
    super(message)
  }
}

/** The last `limit` characters of a text that keeps growing. */
export class TextTail {
  private text = ''
  constructor(private readonly limit: number) {}

  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit)
  }

  toString(): string {
    return this.text
  }
}

/** The longest a Node timer can wait: a longer delay is cut to 1 ms, with a warning. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1

/** What is wrong with `ms` as the timeout `name`, or undefined when a timer can wait that long. */
export function timeoutProblem(name: string, ms: number, text = String(ms)): string | undefined {
  if (!Number.isSafeInteger(ms) || ms <= 0) return `${name} needs a positive number of milliseconds, not ${text}`
  if (ms > MAX_TIMEOUT_MS) return `${name} can be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days, the longest a timer can wait), not ${text}`
  return undefined
}

/**
 * The most bytes one line may hold. No real reply comes near it, and it stays well below the longest
 * string V8 can build (about 2^29 UTF-16 code units), so a line that never ends is reported with its own
 * reason instead of exhausting the runner's memory.
 */
export const MAX_LINE_BYTES = 256 * 1024 * 1024

const LINE_FEED = 0x0a

/**
 * Cuts a byte stream into lines (without their line feed). Each chunk is searched once and kept until
 * its line is complete, so a line costs time in proportion to its length, however many chunks it
 * arrives in.
 */
export class LineAssembler {
  private parts: Buffer[] = []
  private partBytes = 0
  constructor(readonly maxLineBytes = MAX_LINE_BYTES) {}

  /**
   * The lines this chunk completes; `overlong` when a line has passed maxLineBytes, in which case
   * `lines` holds only the lines before it and the assembler must not be used any more.
   */
  push(chunk: Buffer): { lines: Buffer[]; overlong: boolean } {
    const lines: Buffer[] = []
    let start = 0
    for (let end = chunk.indexOf(LINE_FEED); end >= 0; end = chunk.indexOf(LINE_FEED, start)) {
      const length = this.partBytes + end - start
      if (length > this.maxLineBytes) return { lines, overlong: true }
      this.parts.push(chunk.subarray(start, end))
      lines.push(Buffer.concat(this.parts, length))
      this.parts = []
      this.partBytes = 0
      start = end + 1
    }
    if (start < chunk.length) {
      this.parts.push(chunk.subarray(start))
      this.partBytes += chunk.length - start
    }
    return { lines, overlong: this.partBytes > this.maxLineBytes }
  }

  /** How many bytes of a line are begun but not ended by a line feed yet, and the first `most` of them. */
  unterminated(most: number): { bytes: number; head: Buffer } | undefined {
    if (this.partBytes === 0) return undefined
    const head: Buffer[] = []
    let kept = 0
    for (const part of this.parts) {
      if (kept >= most) break
      head.push(part.subarray(0, most - kept))
      kept += Math.min(part.length, most - kept)
    }
    return { bytes: this.partBytes, head: Buffer.concat(head, kept) }
  }
}

// fatal: ill-formed UTF-8 is refused, not replaced with U+FFFD (which would let an implementation that
// never decodes pass the vectors about replacement). ignoreBOM: a BOM is kept, so it is not JSON.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The text of one line, without a carriage return at its end; undefined when it is not well-formed UTF-8. */
export function decodeLine(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return undefined
  }
  return text.endsWith('\r') ? text.slice(0, -1) : text
}

/** Whether `bytes` are well-formed UTF-8 so far: a character cut off at their end is not counted against them. */
function decodesAsPrefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
}

/**
 * Where a line that is not well-formed UTF-8 goes wrong, for its failure reason: the first byte that
 * cannot continue what comes before it, shown with the bytes just before it. Binary search: once a
 * prefix fails to decode, every longer one does.
 */
export function illFormedAt(bytes: Uint8Array): string {
  let low = 0
  let high = bytes.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (decodesAsPrefix(bytes.subarray(0, middle + 1))) low = middle + 1
    else high = middle
  }
  const context = [...bytes.subarray(Math.max(0, low - 3), low + 1)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ')
  return low === bytes.length ? `it ends inside a character: ${context}` : `at byte ${low}: ${context}`
}

interface Pending {
  /** The request, as failure reasons name it. */
  what: string
  resolve: (line: string) => void
  reject: (failure: AdapterFailure) => void
  timer: NodeJS.Timeout
}

const live = new Set<AdapterProcess>()
let exitHookInstalled = false

// How long the end of a process waits for its last lines and its exit status.
const SETTLE_MS = 100

/**
 * What `work` settles to, or AdapterFailure(`timeout: ${what}`) when it has not settled within `ms`.
 * The timer is cleared either way, so that it never keeps the runner alive.
 */
export async function settledWithin<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AdapterFailure(`timeout: ${what}`)), ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

export class AdapterProcess {
  /** Why the process can no longer be used; set once, by the first thing that went wrong. */
  failure: string | undefined
  /** Resolves when the process has exited, or could not be run. */
  readonly exited: Promise<void>
  private readonly child: ChildProcess
  private readonly stdoutClosed: Promise<void>
  private readonly ownStderr = new TextTail(2000)
  private readonly lines = new LineAssembler()
  private pending: Pending | undefined
  /** What ended the process or its stdout, noted at once; it becomes the failure SETTLE_MS later. */
  private endedBecause: string | undefined
  private exitStatus: string | undefined
  private stopSent = false
  private groupKilled = false

  constructor(command: string, options: { cwd?: string; stderr: TextTail }) {
    // A process group of its own, so that a shell or npx wrapper and everything below it can be killed.
    this.child = spawn(command, { cwd: options.cwd, shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' })
    this.exited = new Promise((resolve) => {
      this.child.once('exit', () => resolve())
      this.child.once('error', () => resolve())
    })
    this.stdoutClosed = new Promise((resolve) => this.child.stdout!.once('close', () => resolve()))
    addLive(this)
    this.child.stdout!.on('data', (chunk: Buffer) => this.receive(chunk))
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      options.stderr.append(chunk)
      this.ownStderr.append(chunk)
    })
    this.child.stdin!.on('error', (error) => this.ended(`writing to the adapter failed (${error.message})`))
    this.child.stdout!.on('end', () => this.ended('the adapter closed its stdout'))
    this.child.on('error', (error) => {
      this.fail(this.crash(`the adapter could not be run (${error.message})`))
      this.releaseStreams()
    })
    this.child.on('exit', (code, signal) => {
      this.exitStatus = signal === null ? `exit code ${String(code)}` : `signal ${signal}`
      this.ended(`the adapter process ended (${this.exitStatus})`)
      // A helper that left the process group (setsid) may hold the pipes open for as long as it runs;
      // once its last lines are read, nothing of this process may keep the runner alive.
      setTimeout(() => this.releaseStreams(), SETTLE_MS).unref()
    })
  }

  /**
   * Writes one message and resolves with the next line the adapter writes, within `timeoutMs`. Rejects
   * at once, writing nothing, when the process cannot take it: it failed or ended, or another request
   * is still waiting for its reply (the protocol is one request, one reply).
   */
  request(message: unknown, timeoutMs: number, what: string): Promise<string> {
    const inFlight = this.pending
    if (inFlight !== undefined) {
      return Promise.reject(new AdapterFailure(`not sent: ${what} came while ${inFlight.what} was waiting for its reply, and an adapter process answers one request at a time`))
    }
    const unusable = this.unusable()
    if (unusable !== undefined) return Promise.reject(new AdapterFailure(unusable))
    return new Promise((resolve, reject) => {
      // An adapter whose replies sit in its output buffer looks like one that never answers.
      const timer = setTimeout(() => this.fail(`timeout: no reply to ${what} within ${timeoutMs} ms${this.unterminatedNote('timeout') || ' (an adapter must flush its stdout after each reply)'}`), timeoutMs)
      this.pending = { what, resolve, reject, timer }
      this.child.stdin!.write(protocolLine(message))
    })
  }

  /**
   * Why the process broke the protocol along with the reply it has just given, if it did: output that
   * followed the reply, read by the end of this turn of the event loop (a second write right after
   * the reply's). A whole line is garbage (take() has failed the process), and so is a line begun, since
   * nothing is due until the next request.
   */
  async strayAfterReply(): Promise<string | undefined> {
    await new Promise((resolve) => setImmediate(resolve))
    if (this.failure !== undefined) return this.failure
    const begun = this.unterminatedNote()
    if (begun === '') return undefined
    this.fail(`garbage: no reply was due${begun}`)
    return this.failure
  }

  /**
   * Why the process cannot take a request, if it cannot: its failure, or its end. A process known to
   * have exited (or closed its stdout) fails now rather than SETTLE_MS later, so that its end is not
   * blamed on a request written to it in between.
   */
  unusable(): string | undefined {
    if (this.failure === undefined && this.endedBecause !== undefined) this.fail(this.endReason())
    return this.failure
  }

  /**
   * Sends `stop` (no reply is due) and waits up to `graceMs` for the process to exit, then kills
   * whatever is left of its group. Returns how the process broke the protocol after the last reply, if
   * it did: a line written all the same (whole or begun), an exit status other than 0, or no exit in
   * time. Only for a process that is usable and has no request in flight.
   */
  async stop(message: unknown, graceMs: number): Promise<string | undefined> {
    this.stopSent = true
    // stop is the last line: the end of stdin follows it, so an adapter behind a pipe (`tee log | impl`) ends too.
    this.child.stdin!.end(protocolLine(message))
    await settledWithin(this.exited, graceMs, `the adapter did not exit within ${graceMs} ms of stop`).catch((error: AdapterFailure) => this.fail(error.message))
    await this.exited
    // Lines it wrote just before it exited are still to be read.
    await settledWithin(this.stdoutClosed, SETTLE_MS, 'stdout did not close').catch(() => undefined)
    this.kill()
    if (this.failure !== undefined) return this.failure
    const begun = this.unterminatedNote()
    if (begun !== '') return `garbage: no reply was due${begun}`
    return this.exitStatus === 'exit code 0' ? undefined : this.crash(`the adapter ended with ${this.exitStatus ?? 'no exit status'} on stop; it must exit with status 0`)
  }

  /** Marks the process unusable, kills it, and fails the request in flight, if any. */
  fail(reason: string): void {
    if (this.failure !== undefined) return
    this.failure = reason
    this.kill()
    const pending = this.pending
    this.pending = undefined
    if (pending) {
      clearTimeout(pending.timer)
      pending.reject(new AdapterFailure(reason))
    }
  }

  /** Kills the process and everything it started (its process group), once. */
  kill(): void {
    if (this.groupKilled || this.child.pid === undefined) return
    this.groupKilled = true
    deleteLive(this)
    try {
      if (process.platform === 'win32') this.child.kill('SIGKILL')
      else process.kill(-this.child.pid, 'SIGKILL')
    } catch {
      // The group is already gone.
    }
  }

  /**
   * The process is gone or going. Lines it wrote just before may still be in the pipe, and the exit
   * status may not be known yet, so the failure waits a moment and then names the exit status. After
   * stop, the exit is what the runner asked for, and stop() judges it.
   */
  private ended(what: string): void {
    if (this.stopSent) return
    this.endedBecause ??= what
    setTimeout(() => this.fail(this.endReason()), SETTLE_MS).unref()
  }

  private endReason(): string {
    return this.crash(`${this.exitStatus === undefined ? this.endedBecause ?? 'the adapter ended' : `the adapter process ended (${this.exitStatus})`}${this.unterminatedNote()}`)
  }

  /**
   * For a timeout or an end: the bytes the adapter wrote with no line feed after them, which are no
   * message yet. A reply written without its line feed (or ended by a CR alone) is a common slip; at a
   * timeout they may also be a long reply still being written.
   */
  private unterminatedNote(at: 'timeout' | 'end' = 'end'): string {
    const begun = this.lines.unterminated(400)
    if (begun === undefined) return ''
    const written = plural(begun.bytes, 'byte')
    const what = at === 'timeout'
      ? `; by then it had written ${written} of a line with no line feed yet (a reply still being written, or one written without its line feed)`
      : `; it wrote ${written} with no line feed after them, which end no message`
    return `${what}: ${preview(begun.head.toString('utf8'))}`
  }

  /** A crash reason, with the last lines the process wrote to stderr that say what went wrong. */
  private crash(what: string): string {
    const headline = stderrHeadline(this.ownStderr.toString())
    return headline === undefined ? `crash: ${what}` : `crash: ${what}; its stderr ends with: ${headline}`
  }

  /** Closes the runner's ends of the pipes, which would otherwise keep its event loop alive. */
  private releaseStreams(): void {
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) stream?.destroy()
  }

  private receive(chunk: Buffer): void {
    if (this.failure !== undefined) return
    const { lines, overlong } = this.lines.push(chunk)
    for (const bytes of lines) {
      this.take(bytes)
      if (this.failure !== undefined) return
    }
    if (overlong) {
      const limit = this.lines.maxLineBytes
      this.fail(`garbage: the adapter wrote a line longer than ${limit} bytes (${limit / 2 ** 20} MiB), the most the runner reads as one message`)
    }
  }

  /** One complete line: the reply awaited, or garbage. */
  private take(bytes: Buffer): void {
    const line = decodeLine(bytes)
    if (line === undefined) {
      this.fail(`garbage: the adapter wrote a line that is not well-formed UTF-8 (${illFormedAt(bytes)}): ${preview(bytes.subarray(0, 400).toString('utf8'))}`)
      return
    }
    const pending = this.pending
    if (!pending) {
      this.fail(`garbage: the adapter wrote a line nobody asked for: ${preview(line)}`)
      return
    }
    this.pending = undefined
    clearTimeout(pending.timer)
    pending.resolve(line)
  }
}

export function preview(text: string): string {
  return JSON.stringify(shortened(text, 120))
}

// A line of a stack trace: JavaScript's `at f (file:1:2)`, `at file:1:2` or `at f (<anonymous>)`,
// Python's `File "x.py", line 3, in f` and the `Traceback (most recent call last):` above them, the
// version line Node prints after an uncaught error, and the markers Node and Python 3.11 print under
// the code at fault (`^`, `~~~~^^^^`), which say nothing once the line is quoted without its column.
const STACK_LINE = /^(at .*(:\d+(:\d+)?\)?|\((<anonymous>|native)\))$|File ".*", line \d+|Traceback \(most recent call last\):$|Node\.js v\d|[~^]+$)/
// A line that names an error: `Error: …`, `TypeError: …`, Python's `ValueError: …`, Java's
// `java.lang.IllegalStateException: …`, Go's `panic: …`.
const ERROR_LINE = /^([\w$.]*(Error|Exception)\b|panic:|fatal error:)/
const HEADLINE_MOST = 160

/**
 * What a process's stderr says went wrong, quoted: the last line that names an error with the two
 * before it, or else the last three lines, stack frames left out (JavaScript prints its error above
 * its frames, and Node a system error's members below them); cut from the start when long, since the
 * error is at the end. Undefined when it wrote nothing.
 */
export function stderrHeadline(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '')
  if (lines.length === 0) return undefined
  const telling = lines.filter((line) => !STACK_LINE.test(line))
  const kept = telling.length > 0 ? telling : lines
  const errorAt = kept.findLastIndex((line) => ERROR_LINE.test(line))
  const end = errorAt === -1 ? kept.length : errorAt + 1
  return JSON.stringify(shortenedAtStart(kept.slice(Math.max(0, end - 3), end).join(' | '), HEADLINE_MOST))
}

function killAll(): void {
  for (const adapterProcess of live) adapterProcess.kill()
}

/**
 * Kills every adapter process still running when the runner exits, also on Ctrl-C, Ctrl-\, SIGTERM or a
 * hangup: an adapter runs in a process group of its own, so the terminal's signal does not reach it. A
 * signal also clears the progress line, which would otherwise stay in front of the shell's prompt. The
 * signal handlers are installed only while an adapter process is live, so that a signal at any other
 * time (an in-process adapter looping after a subprocess adapter ran) keeps its default action.
 */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const
const signalHandlers = new Map<NodeJS.Signals, () => void>(SIGNALS.map((signal) => [signal, () => {
  killAll()
  clearProgressLine()
  removeSignalHandlers()
  process.kill(process.pid, signal)
}]))

function removeSignalHandlers(): void {
  for (const [signal, handler] of signalHandlers) process.off(signal, handler)
}

function addLive(adapterProcess: AdapterProcess): void {
  live.add(adapterProcess)
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on('exit', killAll)
  }
  if (live.size === 1) for (const [signal, handler] of signalHandlers) process.on(signal, handler)
}

function deleteLive(adapterProcess: AdapterProcess): void {
  if (live.delete(adapterProcess) && live.size === 0) removeSignalHandlers()
}
