// One adapter process of the subprocess protocol: spawns the command, writes one line and awaits the
// next, and turns every way a process can misbehave (no answer in time, exit, closed stdout,
// output nobody asked for) into one failure reason. It knows lines and JSON, not message meanings.
import { spawn, type ChildProcess } from 'node:child_process'
import { protocolLine } from './protocol.ts'
import { shortened } from './wording.ts'

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

interface Pending {
  resolve: (line: string) => void
  reject: (failure: AdapterFailure) => void
  timer: NodeJS.Timeout
}

const live = new Set<AdapterProcess>()
let exitHookInstalled = false

// How long the end of a process waits for its last lines and its exit status.
const SETTLE_MS = 100

export class AdapterProcess {
  /** Why the process can no longer be used; set once, by the first thing that went wrong. */
  failure: string | undefined
  private readonly child: ChildProcess
  private readonly exited: Promise<void>
  private readonly ownStderr = new TextTail(2000)
  private buffered = ''
  private pending: Pending | undefined
  private exitStatus: string | undefined
  private groupKilled = false

  constructor(command: string, options: { cwd?: string; stderr: TextTail }) {
    // A process group of its own, so that a shell or npx wrapper and everything below it can be killed.
    this.child = spawn(command, { cwd: options.cwd, shell: true, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' })
    this.exited = new Promise((resolve) => {
      this.child.once('exit', () => resolve())
      this.child.once('error', () => resolve())
    })
    live.add(this)
    installExitHook()
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk))
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      options.stderr.append(chunk)
      this.ownStderr.append(chunk)
    })
    this.child.stdin!.on('error', (error) => this.ended(`writing to the adapter failed (${error.message})`))
    this.child.stdout!.on('end', () => this.ended('the adapter closed its stdout'))
    this.child.on('error', (error) => this.fail(this.crash(`the adapter could not be run (${error.message})`)))
    this.child.on('exit', (code, signal) => {
      this.exitStatus = signal === null ? `exit code ${String(code)}` : `signal ${signal}`
      this.ended(`the adapter process ended (${this.exitStatus})`)
    })
  }

  /** Writes one message and resolves with the next line the adapter writes, within `timeoutMs`. */
  request(message: unknown, timeoutMs: number, what: string): Promise<string> {
    if (this.failure !== undefined) return Promise.reject(new AdapterFailure(this.failure))
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(`timeout: no reply to ${what} within ${timeoutMs} ms`), timeoutMs)
      this.pending = { resolve, reject, timer }
      this.child.stdin!.write(protocolLine(message))
    })
  }

  /** Writes one message that has no reply (stop). */
  send(message: unknown): void {
    if (this.failure === undefined) this.child.stdin!.write(protocolLine(message))
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

  /** Waits up to `graceMs` for the process to exit on its own, then kills it. */
  async waitForExit(graceMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))
    await Promise.race([this.exited, grace])
    clearTimeout(timer)
    this.kill()
    await this.exited
  }

  /** Kills the process and everything it started (its process group), once. */
  kill(): void {
    if (this.groupKilled || this.child.pid === undefined) return
    this.groupKilled = true
    live.delete(this)
    try {
      if (process.platform === 'win32') this.child.kill('SIGKILL')
      else process.kill(-this.child.pid, 'SIGKILL')
    } catch {
      // The group is already gone.
    }
  }

  /**
   * The process is gone or going. Lines it wrote just before may still be in the pipe, and the exit
   * status may not be known yet, so the failure waits a moment and then names the exit status.
   */
  private ended(what: string): void {
    setTimeout(() => this.fail(this.crash(this.exitStatus === undefined ? what : `the adapter process ended (${this.exitStatus})`)), SETTLE_MS).unref()
  }

  /** A crash reason, with the last lines the process wrote to stderr (where a traceback ends). */
  private crash(what: string): string {
    const lines = this.ownStderr.toString().split('\n').map((line) => line.trim()).filter((line) => line !== '')
    return lines.length === 0 ? `crash: ${what}` : `crash: ${what}; its stderr ends with: ${preview(lines.slice(-3).join(' | '))}`
  }

  private receive(chunk: string): void {
    this.buffered += chunk
    let newline = this.buffered.indexOf('\n')
    while (newline >= 0 && this.failure === undefined) {
      const line = this.buffered.slice(0, newline).replace(/\r$/, '')
      this.buffered = this.buffered.slice(newline + 1)
      const pending = this.pending
      if (!pending) {
        this.fail(`garbage: the adapter wrote a line nobody asked for: ${preview(line)}`)
        return
      }
      this.pending = undefined
      clearTimeout(pending.timer)
      pending.resolve(line)
      newline = this.buffered.indexOf('\n')
    }
  }
}

export function preview(text: string): string {
  return JSON.stringify(shortened(text, 120))
}

function killAll(): void {
  for (const adapterProcess of live) adapterProcess.kill()
}

/**
 * Kills every adapter process still running when the runner exits, also on Ctrl-C: an adapter runs in
 * a process group of its own, so the terminal's signal does not reach it.
 */
function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', killAll)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll()
      process.kill(process.pid, signal)
    })
  }
}
