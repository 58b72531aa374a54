// One call of an in-process adapter's operation, held to the timeout a subprocess's reply is held to
// (spec/adapter-protocol.md). A promise that does not settle in time is a timeout; so is a synchronous
// return that came too late. An operation that never gives control back (a synchronous loop) blocks
// the event loop, so no timer of the runner can fire: a watchdog thread, which the blocked loop cannot
// stop, then says what hung and ends the process, so that a CI job fails instead of waiting forever.
import { Worker } from 'node:worker_threads'
import { types } from 'node:util'
import { AdapterFailure, settledWithin } from './adapter-process.ts'

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

let watchdog: Worker | undefined
let calls = 0

function watchdogThread(): Worker {
  if (watchdog === undefined) {
    watchdog = new Worker(WATCHDOG_SOURCE, { eval: true })
    // The watchdog never keeps a finished run alive.
    watchdog.unref()
  }
  return watchdog
}

/** How long the watchdog waits before it ends the process: twice the timeout, and at least a second past it. */
export function watchdogDelay(timeoutMs: number): number {
  return timeoutMs + Math.max(1000, timeoutMs)
}

function hungText(what: string, timeoutMs: number): string {
  return `dsh-conformance: the in-process adapter has not returned from ${what} in ${watchdogDelay(timeoutMs)} ms (its timeout is ${timeoutMs} ms). `
    + 'A synchronous loop cannot be interrupted in process, so the run stops here, without its reports. '
    + 'Run the adapter as a subprocess (--adapter-cmd) to have a hang counted as a timeout and the run go on.\n'
}

/**
 * What `call` returns, or what the promise it returns settles to, within `timeoutMs`; else
 * AdapterFailure(`timeout: …`). `what` names the call for people (operation, case, step). Only a
 * promise is awaited; any other value comes back as it is, uninspected, in a box, since an async
 * function's return would adopt a value with a `then` (and throw on a revoked proxy).
 */
export async function inProcessCall(call: () => unknown, timeoutMs: number, what: string): Promise<{ value: unknown }> {
  const thread = watchdogThread()
  const id = ++calls
  thread.postMessage({ id, ms: watchdogDelay(timeoutMs), text: hungText(what, timeoutMs) })
  try {
    const started = performance.now()
    const work = call()
    if (types.isPromise(work)) return { value: await settledWithin(work, timeoutMs, `no reply to ${what} within ${timeoutMs} ms`) }
    const took = performance.now() - started
    if (took > timeoutMs) throw new AdapterFailure(`timeout: ${what} returned after ${Math.round(took)} ms, past the timeout of ${timeoutMs} ms`)
    return { value: work }
  } finally {
    thread.postMessage({ id })
  }
}
