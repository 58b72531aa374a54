// The commands of dsh-conformance, dispatched from its arguments: runs the golden vectors against
// implementations (`run`), lists them (`list`), renders the compatibility matrix of several
// implementations (`matrix`), puts the reference interpreter behind the subprocess adapter protocol
// (`serve`), compares an implementation with the reference on one input (`compare`), checks and audits
// stored logs (`check`, `audit`) and fuzzes an implementation against the reference (`fuzz`). It prints
// and returns the exit status; what the process does around it (cli.ts) is kept apart, so that tests run
// the commands in their own process. A command's modules are imported when it runs: check loads no
// module of the runner, and no command compiles a schema it does not use.
import { likelyMeant } from './wording.ts'

/** The commands that run adapters: an exit before they are done is a failure of the run. */
export const RUNNING_COMMANDS: ReadonlySet<string> = new Set(['run', 'matrix', 'compare', 'fuzz'])

const SERVE_USAGE = `usage: dsh-conformance serve

The reference interpreter as a subprocess adapter: protocol messages on stdin, replies on stdout, logs on
stderr (spec/adapter-protocol.md). It takes no options; it ends on the protocol's stop message or when
stdin closes.

Exit status: 0 when it ends so, 2 on an argument, or on a line that is garbage (no JSON, not
well-formed UTF-8, or longer than the protocol's 256 MiB) or a message that breaks the protocol (fails
its schema, or comes out of order: anything before start, a second start) or is nested too deeply to
check.`

/** serve takes no arguments: anything but a request for help is a usage error, not a server started. */
function serveCommand(args: readonly string[]): Promise<number> | number {
  if (args.length === 0) return import('./serve.ts').then(({ serve }) => serve())
  const help = args.length === 1 && args[0] === '--help'
  if (help) console.log(SERVE_USAGE)
  else console.error(`serve takes no arguments, not ${args.join(' ')}\n\n${SERVE_USAGE}`)
  return help ? 0 : 2
}

/** After a usage error, a pointer to the usage rather than all of it, which would scroll the error away. */
const SEE_HELP = 'dsh-conformance --help lists the commands and their options'

const COMMANDS = ['run', 'list', 'matrix', 'serve', 'compare', 'check', 'audit', 'fuzz', 'help']

function unknownCommand(command: string): string {
  const meant = likelyMeant(command, COMMANDS)
  return `unknown command ${command}${meant === undefined ? '' : `; did you mean ${meant}?`}`
}

/** Runs the command `args` names and returns its exit status. */
export async function runCliCommand(args: readonly string[]): Promise<number> {
  // -h is --help for every command.
  const [command, ...rest] = args.map(argument => argument === '-h' ? '--help' : argument)
  if (command === 'serve') return serveCommand(rest)
  if (command === 'audit') return (await import('./audit/command.ts')).audit(rest)
  if (command === 'fuzz') return (await import('./fuzz/command.ts')).fuzzCommand(rest)
  if (command === 'check') return (await import('./check/command.ts')).runCheck(rest)
  if (command === 'compare') return (await import('./compare-command.ts')).compareCommand(rest)
  if (command !== 'run' && command !== 'list' && command !== 'matrix') {
    const help = command === undefined || command === '--help' || command === 'help'
    if (help) console.log((await import('./cli-usage.ts')).USAGE)
    else console.error(`${unknownCommand(command)}\n${SEE_HELP}`)
    return help ? 0 : 2
  }
  return (await import('./vector-commands.ts')).vectorCommandLine(command, rest)
}

