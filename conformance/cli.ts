// dsh-conformance: runs the golden vectors against implementations (`run`), lists them (`list`),
// renders the compatibility matrix of several implementations (`matrix`), puts the reference
// interpreter behind the subprocess adapter protocol (`serve`), and fuzzes an implementation against
// the reference (`fuzz`).
import { parseOptions, USAGE, type Command, type CommandOptions } from './cli-options.ts'
import { describeFilters, listLines } from './filters.ts'
import { matrixCommand } from './matrix-command.ts'
import { runCommand } from './run-command.ts'
import { serve } from './serve.ts'
import { loadVectorCases, VectorFileError } from './vector-cases.ts'

/** Whether a run or matrix is under way; an exit before it is done is a failure of the run. */
let runUnderway = false

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

async function runOrMatrix(command: 'run' | 'matrix', options: CommandOptions): Promise<number> {
  runUnderway = true
  try {
    return await (command === 'run' ? runCommand(options) : matrixCommand(options))
  } finally {
    runUnderway = false
    // An in-process adapter may leave a timer or a socket behind, and a CI job must not wait on it
    // for ever: unref'd, this ends the process only if something else keeps it alive.
    setTimeout(() => process.exit(), LINGER_MS).unref()
  }
}

const SERVE_USAGE = `usage: dsh-conformance serve

The reference interpreter as a subprocess adapter: protocol messages on stdin, replies on stdout, logs on
stderr (spec/adapter-protocol.md). It takes no options; it ends on the protocol's stop message or when
stdin closes.`

/** serve takes no arguments: anything but a request for help is a usage error, not a server started. */
function serveCommand(args: readonly string[]): Promise<number> | number {
  if (args.length === 0) return serve()
  const help = args.length === 1 && args[0] === '--help'
  if (help) console.log(SERVE_USAGE)
  else console.error(`serve takes no arguments, not ${args.join(' ')}\n\n${SERVE_USAGE}`)
  return help ? 0 : 2
}

async function main(args: string[]): Promise<number> {
  // -h is --help for every command.
  const [command, ...rest] = args.map(argument => argument === '-h' ? '--help' : argument)
  if (command === 'serve') return serveCommand(rest)
  if (command === 'audit') return (await import('./audit/command.ts')).audit(rest)
  if (command === 'fuzz') return (await import('./fuzz/command.ts')).fuzzCommand(rest)
  if (command === 'check') return (await import('./check/command.ts')).runCheck(rest)
  if (command !== 'run' && command !== 'list' && command !== 'matrix') {
    const help = command === undefined || command === '--help' || command === 'help'
    if (help) console.log(USAGE)
    else console.error(`unknown command ${command}\n\n${USAGE}`)
    return help ? 0 : 2
  }
  if (rest.includes('--help')) {
    console.log(USAGE)
    return 0
  }
  const options = parseOptions(command as Command, rest)
  if ('error' in options) {
    console.error(`${options.error}\n\n${USAGE}`)
    return 2
  }
  return withVectors(() => vectorCommand(command as Command, options))
}

/** A malformed vector file is a fault of the suite's files, not of an adapter: said plainly, exit 2. */
async function withVectors(command: () => Promise<number>): Promise<number> {
  try {
    return await command()
  } catch (error) {
    if (!(error instanceof VectorFileError)) throw error
    console.error(`dsh-conformance: a vector file is malformed, so the suite cannot be loaded: ${error.message}`)
    return 2
  }
}

async function vectorCommand(command: Command, options: CommandOptions): Promise<number> {
  if (command === 'list') {
    const lines = listLines(loadVectorCases(), options.filters)
    // As run and matrix do: a filter that matches nothing is most likely a mistyped one.
    if (lines.length === 0) {
      console.error(`no case matches the filters ${describeFilters(options.filters)}`)
      return 2
    }
    for (const line of lines) console.log(line)
    return 0
  }
  return runOrMatrix(command, options)
}

// A reader that stops reading (`dsh-conformance list | head`) is no error of ours: end quietly, as
// Unix tools do, instead of printing a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error
  runUnderway = false
  process.exit(process.exitCode ?? 0)
})

process.exitCode = await main(process.argv.slice(2))
