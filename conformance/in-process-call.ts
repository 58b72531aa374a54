// One call of an in-process adapter's operation, held to the timeout a subprocess's reply is held to
// (spec/adapter-protocol.md): the time until it returns, and then until the promise it returned
// settles. An operation that never gives control back (a synchronous loop) blocks the event loop, so
// no timer of the runner can fire: a watchdog thread, which the blocked loop cannot stop, then says
// what hung and ends the process, so that a CI job fails instead of waiting forever.
import inspector from 'node:inspector'
import { types } from 'node:util'
import { Worker } from 'node:worker_threads'
import { AdapterFailure, MAX_TIMEOUT_MS, settledWithin } from './adapter-process.ts'

// Plain JavaScript, run by the worker as it is. A message with a text arms a timer for call `id` (what
// to say, and when), one without disarms it; the timers run on the worker's own event loop, one per
// call, so that calls that overlap do not disarm each other's.
const WATCHDOG_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { writeSync } = require('node:fs')
const timers = new Map()
parentPort.on('message', ({ id, ms, text }) => {
  clearTimeout(timers.get(id))
  timers.delete(id)
  if (text === undefined) return
  timers.set(id, setTimeout(() => {
    writeSync(2, text)
    process.kill(process.pid, 'SIGKILL')
  }, ms))
})
`

// undefined: not started yet; null: cannot run here (no worker threads), so calls go unwatched.
let watchdog: Worker | null | undefined
let calls = 0

function watchdogThread(): Worker | null {
  if (watchdog !== undefined) return watchdog
  try {
    // Without the runner's loader flags: the source is plain JavaScript.
    const thread = new Worker(WATCHDOG_SOURCE, { eval: true, execArgv: [] })
    // The watchdog never keeps a finished run alive; if it fails, calls go unwatched, as without one.
    thread.unref()
    thread.on('error', () => { watchdog = null })
    thread.on('exit', () => { watchdog = null })
    watchdog = thread
  } catch {
    watchdog = null
  }
  return watchdog
}

/** How long the watchdog waits before it ends the process: twice the timeout, at least a second past it, at most a timer's longest wait. */
function watchdogDelay(timeoutMs: number): number {
  return Math.min(MAX_TIMEOUT_MS, timeoutMs + Math.max(1000, timeoutMs))
}

function hungText(what: string, timeoutMs: number): string {
  return `dsh-conformance: the in-process adapter has not returned from ${what} in ${watchdogDelay(timeoutMs)} ms (its timeout is ${timeoutMs} ms). `
    + 'A synchronous loop cannot be interrupted in process, so the run stops here, without its reports. '
    + 'Run the adapter as a subprocess (--adapter-cmd) to have a hang counted as a timeout and the run go on.\n'
}

/** Arms the watchdog for one call; returns its disarming. A process paused in a debugger is not watched. */
function watch(what: string, timeoutMs: number): () => void {
  const thread = inspector.url() === undefined ? watchdogThread() : null
  if (thread === null) return () => {}
  const id = ++calls
  thread.postMessage({ id, ms: watchdogDelay(timeoutMs), text: hungText(what, timeoutMs) })
  return () => thread.postMessage({ id })
}

/**
 * What `call` returns, or what the promise it returns settles to, within `timeoutMs` in all; else
 * AdapterFailure(`timeout: …`). `what` names the call for people (operation, case, step). Only a
 * promise is awaited; any other value comes back as it is, uninspected, in a box, since an async
 * function's return would adopt a value with a `then` (and throw on a revoked proxy).
 */
export async function inProcessCall(call: () => unknown, timeoutMs: number, what: string): Promise<{ value: unknown }> {
  const disarm = watch(what, timeoutMs)
  try {
    const started = performance.now()
    const work = call()
    // An async function runs synchronously up to its first await: that time counts too.
    const took = performance.now() - started
    if (took > timeoutMs) {
      if (types.isPromise(work)) work.catch(() => {})
      throw new AdapterFailure(`timeout: ${what} returned after ${Math.round(took)} ms, past the timeout of ${timeoutMs} ms`)
    }
    if (!types.isPromise(work)) return { value: work }
    return { value: await settledWithin(work, Math.max(1, Math.ceil(timeoutMs - took)), `no reply to ${what} within ${timeoutMs} ms`) }
  } finally {
    disarm()
  }
}
