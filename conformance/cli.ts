// dsh-conformance's entry point: the process around a command (cli-dispatch.ts). A run whose process
// ends before it is done fails, a run that is done ends though an adapter left something running, and
// a reader that stops reading ends the output quietly.
import { RUNNING_COMMANDS, runCliCommand } from './cli-dispatch.ts'

const args = process.argv.slice(2)

/** Whether the command runs adapters and has not returned: an exit now is a failure of the run. */
let runUnderway = RUNNING_COMMANDS.has(args[0] ?? '')

/**
 * An in-process adapter runs in this process and may end it (`process.exit(0)`) in the middle of a
 * run, before any summary or report: that must not look like a passing run.
 */
process.on('exit', () => {
  if (!runUnderway) return
  console.error('dsh-conformance: the process ended before the run finished (did an in-process adapter call process.exit?): no summary, no reports, and the run fails')
  process.exitCode = 1
})

/** How long the process may stay alive after its run, for output to drain, before it is ended. */
const LINGER_MS = 2000

// A reader that stops reading (`dsh-conformance run | head`) is no error of ours: what is left to print
// goes nowhere, without a stack trace, but the command goes on to its end, so that its exit status and
// the reports it writes are those of the whole command, not of the moment the reader left.
let readerGone = false
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || readerGone) {
    readerGone = true
    return
  }
  // Output that cannot be written (a full disk) leaves the command undone: 2, the status of a command
  // that could not run (1 would read as a verdict: an adapter failing, a log invalid).
  process.stderr.write(`dsh-conformance: cannot write the output: ${error.message}\n`)
  process.exit(2)
})

try {
  process.exitCode = await runCliCommand(args)
} finally {
  if (runUnderway) {
    runUnderway = false
    // An in-process adapter may leave a timer or a socket behind, and a CI job must not wait on it
    // for ever: unref'd, this ends the process only if something else keeps it alive.
    setTimeout(() => process.exit(), LINGER_MS).unref()
  }
}
