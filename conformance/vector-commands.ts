// run, list and matrix: the commands over the golden vectors, from their arguments to their exit status.
import { parseOptions, type Command, type CommandOptions } from './cli-options.ts'
import { commandUsage } from './cli-usage.ts'
import { describeFilters, listLines, selectCases, unmatchedFilterValues } from './filters.ts'
import { requestLines } from './protocol.ts'
import { matrixCommand } from './matrix-command.ts'
import { runCommand } from './run-command.ts'
import { loadVectorCases, loadVectorFolder, VectorFileError, type VectorCase } from './vector-cases.ts'
import { printable } from './wording.ts'

/** Runs `command` with the arguments after it; its exit status. */
export function vectorCommandLine(command: Command, rest: readonly string[]): Promise<number> | number {
  if (rest.includes('--help')) {
    console.log(commandUsage(command))
    return 0
  }
  const options = parseOptions(command, rest)
  if ('error' in options) {
    console.error(`${options.error}\ndsh-conformance ${command} --help lists its options`)
    return 2
  }
  return withVectors(() => vectorCommand(command, options))
}

/** A malformed vector file is a fault of the suite's files, not of an adapter: said plainly, exit 2. */
async function withVectors(command: () => Promise<number>): Promise<number> {
  try {
    return await command()
  } catch (error) {
    if (!(error instanceof VectorFileError)) throw error
    console.error(`dsh-conformance: the vectors cannot be loaded: ${printable(error.message)}`)
    return 2
  }
}

/** The cases a command selects from: the suite's, or those under --vectors. */
function vectorCases(options: CommandOptions): VectorCase[] {
  return options.vectors === undefined ? loadVectorCases() : loadVectorFolder(options.vectors)
}

async function vectorCommand(command: Command, options: CommandOptions): Promise<number> {
  const all = vectorCases(options)
  const unmatched = unmatchedFilterValues(all, options.filters)
  if (unmatched !== undefined) {
    console.error(unmatched)
    return 2
  }
  if (command === 'list') {
    const lines = options.requests ? requestLines(selectCases(all, options.filters)) : listLines(all, options.filters)
    // As run and matrix do: a filter that matches nothing is most likely a mistyped one.
    if (lines.length === 0) {
      console.error(`no case matches the filters ${describeFilters(options.filters)}`)
      return 2
    }
    process.stdout.write(options.requests ? lines.join('') : lines.map((line) => `${line}\n`).join(''))
    return 0
  }
  return command === 'run' ? runCommand(options, all) : matrixCommand(options, all)
}
