// The options of dsh-conformance's run, list and matrix, as plain data (their help text: cli-usage.ts).
import { adapterNameProblem } from './adapters/registry.ts'
import { timeoutProblem } from './adapter-process.ts'
import { addFilterValues, FILTER_OPTIONS, noFilters, type CaseFilters } from './filters.ts'
import { addReportTargets, type ReportTargets } from './reports/write.ts'
import { DEFAULT_TIMEOUT_MS } from './subprocess-adapter.ts'
import { decimalNumber, givenTwice } from './option-rules.ts'
import { likelyMeant } from './wording.ts'

export type AdapterSource = { kind: 'name'; name: string } | { kind: 'command'; command: string } | { kind: 'module'; path: string }

export type Command = 'run' | 'list' | 'matrix'

export interface CommandOptions {
  adapters: AdapterSource[]
  timeoutMs: number
  filters: CaseFilters
  baselines: string[]
  strictBaseline: boolean
  writeBaseline?: string
  reports: ReportTargets
  matrixMarkdown?: string
  matrixHtml?: string
  /** A folder of vector files to run instead of the suite's. */
  vectors?: string
  /** list: print the protocol lines a subprocess adapter would be sent, not the cases. */
  requests: boolean
}

const ADAPTER_OPTIONS = ['--adapter', '--adapter-cmd', '--adapter-module', '--timeout']
const FILTERS = Object.keys(FILTER_OPTIONS)
/** The options each command accepts. */
export const ALLOWED: Record<Command, string[]> = {
  run: [...ADAPTER_OPTIONS, ...FILTERS, '--vectors', '--baseline', '--strict-baseline', '--write-baseline', '--report'],
  list: [...FILTERS, '--vectors', '--requests'],
  matrix: [...ADAPTER_OPTIONS, ...FILTERS, '--vectors', '--md', '--html'],
}
const FLAGS = new Set(['--strict-baseline', '--requests'])
/** The options that take one value (--vectors says so in its own words). */
const ONCE = new Set(['--timeout', '--write-baseline', '--md', '--html'])

/** Applies one option with its value; returns what is wrong, if anything. */
function apply(options: CommandOptions, option: string, value: string): string | undefined {
  if (option in FILTER_OPTIONS) return addFilterValues(options.filters, FILTER_OPTIONS[option as keyof typeof FILTER_OPTIONS], value)
  switch (option) {
    case '--adapter':
      options.adapters.push({ kind: 'name', name: value })
      return adapterNameProblem(value)
    case '--adapter-cmd': options.adapters.push({ kind: 'command', command: value }); return undefined
    case '--adapter-module': options.adapters.push({ kind: 'module', path: value }); return undefined
    case '--timeout':
      options.timeoutMs = decimalNumber(value)
      return timeoutProblem('--timeout', options.timeoutMs, value)
    case '--baseline': options.baselines.push(value); return undefined
    case '--write-baseline': options.writeBaseline = value; return undefined
    case '--report': return addReportTargets(options.reports, value)
    case '--md': options.matrixMarkdown = value; return undefined
    case '--html': options.matrixHtml = value; return undefined
    case '--vectors':
      if (options.vectors !== undefined) return '--vectors may be given once'
      options.vectors = value
      return undefined
    default: return `unknown option ${option}`
  }
}

const EVERY_OPTION = new Set(Object.values(ALLOWED).flat())

/**
 * `unknown option --chapters for run; did you mean --chapter?`; no guess for an option of another
 * command. A word that is no option at all is most likely the second word of an unquoted value.
 */
function unknownOption(option: string, command: Command): string {
  const meant = EVERY_OPTION.has(option) ? undefined : likelyMeant(option, ALLOWED[command])
  if (meant !== undefined) return `unknown option ${option} for ${command}; did you mean ${meant}?`
  if (!option.startsWith('-')) return `unexpected argument ${option} for ${command}: its options start with --, and a value that holds spaces needs quotes`
  // check's and audit's option: a case names its own vocabulary.
  if (option === '--vocabulary') return `unknown option --vocabulary for ${command}: a case chooses its vocabulary with its vocabulary: member (vectors/README.md); check and audit take --vocabulary`
  return `unknown option ${option} for ${command}`
}

/** The options of a command, or what is wrong with them. `--option=value` is the same as `--option value`. */
export function parseOptions(command: Command, args: readonly string[]): CommandOptions | { error: string } {
  const options: CommandOptions = { adapters: [], timeoutMs: DEFAULT_TIMEOUT_MS, filters: noFilters(), baselines: [], strictBaseline: false, reports: {}, requests: false }
  const given = new Set<string>()
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!
    const joined = argument.startsWith('--') && argument.includes('=')
    const option = joined ? argument.slice(0, argument.indexOf('=')) : argument
    if (!ALLOWED[command].includes(option)) return { error: unknownOption(option, command) }
    if (FLAGS.has(option)) {
      if (joined) return { error: `${option} takes no value` }
      if (option === '--requests') options.requests = true
      else options.strictBaseline = true
      continue
    }
    const value = joined ? argument.slice(option.length + 1) : args[(index += 1)]
    if (value === undefined || value.trim() === '') return { error: `${option} needs a value` }
    // `--adapter-cmd --chapter 05`: the value was forgotten, and the next option would be taken for it.
    if (!joined && value.startsWith('--')) return { error: `${option} needs a value, not the option ${value} (write ${option}=${value} if that is the value)` }
    const problem = givenTwice(given, option, ONCE) ?? apply(options, option, value)
    if (problem !== undefined) return { error: problem }
  }
  if (options.adapters.length === 0) options.adapters.push({ kind: 'name', name: 'reference' })
  if (options.strictBaseline && options.baselines.length === 0) return { error: '--strict-baseline judges a run against a --baseline, and none is given' }
  if (options.writeBaseline !== undefined && options.adapters.length > 1 && !options.writeBaseline.includes('{adapter}')) {
    return { error: '--write-baseline with several adapters needs {adapter} in its path' }
  }
  return options
}

export function adapterLabel(source: AdapterSource): string {
  return source.kind === 'name' ? source.name : source.kind === 'command' ? source.command : source.path
}
