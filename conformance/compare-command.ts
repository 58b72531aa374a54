// `dsh-conformance compare`: one operation on one input of the user's own, through an adapter and
// through the reference, judged as a vector step is. The reference's result becomes the step's
// expectation (as fuzz writes it into a vector), so the adapter meets the runner's own transport,
// timeouts and judgement; and where the spec leaves the result open, the command says so.
import { readFileSync } from 'node:fs'
import type { Adapter } from './adapter.ts'
import { openAdapterOrSayWhyNot, withOpenedAdapter } from './adapter-runs.ts'
import { referenceAdapter } from './adapters/reference.ts'
import { adapterNameProblem, ADAPTER_NAMES } from './adapters/registry.ts'
import { timeoutProblem } from './adapter-process.ts'
import type { AdapterSource } from './cli-options.ts'
import { decimalNumber, givenTwice } from './option-rules.ts'
import { operationResultOf } from './adapter.ts'
import { expectedRejectionOf, type OperationResult } from './expectations.ts'
import { inProcessCall } from './in-process-call.ts'
import { encodeTagged, protocolLine } from './protocol.ts'
import { runCase } from './run-case.ts'
import { DEFAULT_TIMEOUT_MS } from './subprocess-adapter.ts'
import { decodeTagged } from './tagged-values.ts'
import { OPERATIONS, type OperationName, type VectorCase } from './vector-cases.ts'
import { errorMessage, guessedOption, indentedLines, likelyMeant, printable, shortened } from './wording.ts'
import { askingProfile, OPERATION_PROFILE } from './fuzz/probes.ts'
import { openResult } from './input-domain.ts'

export const COMPARE_USAGE = `usage: dsh-conformance compare (--adapter NAME | --adapter-cmd COMMAND | --adapter-module PATH)
                            --operation OPERATION [--timeout MS] INPUT...

Runs one operation on one input through the adapter and through the reference, prints both results,
and judges the adapter's as a vector step is judged, with the reference's result as the expectation:
codes, seqs and lines compared, messages never. INPUT is a JSON file (- for stdin) holding the
operation's whole input as the protocol carries it, values JSON cannot carry in tagged form
(spec/adapter-protocol.md, vectors/README.md); list --requests prints the inputs of the suite's cases.
Several INPUTs are read first (any that cannot be read stops the command before it runs one), then run
one after another through one adapter process, each under a line naming it, and counted at the end.
Names and reasons are printed with their control characters as \\u escapes; a reason's lines after its
first (an adapter's message and traceback) start with a tab.
When the spec leaves the result open (an input outside the operation's domain: a log load rejects,
PROC-9; a time, now, atSeq, entry or region the operation is not defined for), it says so and judges
nothing but that an answer comes. A writer's load, surface and messages are asked as a writer's.

  --adapter NAME          an in-process adapter: ${ADAPTER_NAMES.join(', ')}
  --adapter-cmd COMMAND   any program that speaks spec/adapter-protocol.md, run through the shell
  --adapter-module PATH   an in-process adapter of your own (as for run)
  --operation OPERATION   one of ${OPERATIONS.join(', ')}
  --timeout MS            how long to wait for the adapter's answer (default ${DEFAULT_TIMEOUT_MS})

Exit status: 0 when the adapter agrees with the reference or the spec leaves the result open on every
input, 1 when it does not or gives no answer on one, or could not be started or failed as it was closed,
2 on a usage error or an input that cannot be read or that the reference cannot run. An in-process
operation that never returns (a loop) cannot be interrupted: the process is killed (SIGKILL) after twice
--timeout.`

interface CompareOptions {
  adapter: AdapterSource
  operation: OperationName
  inputs: string[]
  timeoutMs: number
}

const OPTIONS = ['--adapter', '--adapter-cmd', '--adapter-module', '--operation', '--timeout']
const ONCE = new Set(['--operation', '--timeout'])

/** The options of `compare`, or what is wrong with them. */
export function parseCompareOptions(args: readonly string[]): CompareOptions | { error: string } {
  const adapters: AdapterSource[] = []
  const inputs: string[] = []
  let operation: string | undefined
  let timeoutMs = DEFAULT_TIMEOUT_MS
  const given = new Set<string>()
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!
    if (!argument.startsWith('--')) {
      inputs.push(argument)
      continue
    }
    const joined = argument.includes('=')
    const option = joined ? argument.slice(0, argument.indexOf('=')) : argument
    const value = joined ? argument.slice(option.length + 1) : args[(index += 1)]
    if (!OPTIONS.includes(option)) return { error: `unknown option ${option} for compare${guessedOption(option, OPTIONS)}` }
    if (value === undefined || value.trim() === '') return { error: `${option} needs a value` }
    const twice = givenTwice(given, option, ONCE)
    if (twice !== undefined) return { error: twice }
    if (option === '--adapter') adapters.push({ kind: 'name', name: value })
    if (option === '--adapter-cmd') adapters.push({ kind: 'command', command: value })
    if (option === '--adapter-module') adapters.push({ kind: 'module', path: value })
    if (option === '--operation') operation = value
    if (option === '--timeout') {
      timeoutMs = decimalNumber(value)
      const problem = timeoutProblem('--timeout', timeoutMs, value)
      if (problem !== undefined) return { error: problem }
    }
  }
  if (adapters.length !== 1) return { error: 'compare needs exactly one --adapter, --adapter-cmd or --adapter-module' }
  const source = adapters[0]!
  const nameProblem = source.kind === 'name' ? adapterNameProblem(source.name) : undefined
  if (nameProblem !== undefined) return { error: nameProblem }
  if (operation === undefined) return { error: 'compare needs --operation' }
  if (!(OPERATIONS as readonly string[]).includes(operation)) {
    const meant = likelyMeant(operation, OPERATIONS)
    return { error: `--operation ${operation} is no operation of spec/00-processing.md${meant === undefined ? '' : `; did you mean ${meant}?`}` }
  }
  if (inputs.length === 0) return { error: 'compare needs an INPUT file (- for stdin)' }
  if (inputs.filter((input) => input === '-').length > 1) return { error: 'compare reads stdin (-) once' }
  return { adapter: source, operation: operation as OperationName, inputs, timeoutMs }
}

/** An input as the output names it: its path printable (a file name may hold a line feed or an escape sequence). */
const nameOf = (path: string): string => (path === '-' ? 'stdin' : printable(path))

/** The JSON text's value; a fault names the line and column of the offset JSON.parse names (Node 20 gives the offset alone, 22 both). */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const message = errorMessage(error)
    const offset = /at position (\d+)/.exec(message)
    if (offset === null || /\(line \d+ column \d+\)/.test(message)) throw error
    const before = text.slice(0, Number(offset[1]))
    throw new Error(`${message} (line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')})`)
  }
}

/**
 * The input file's value, still tagged; throws a message naming the file when it cannot be read, is no
 * JSON object or holds a malformed tagged value.
 */
function readInput(path: string): Record<string, unknown> {
  const name = nameOf(path)
  try {
    const value = parsedJson(readFileSync(path === '-' ? 0 : path, 'utf8'))
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the input must be a JSON object, the operation\'s whole input')
    decodeTagged(value)
    return value as Record<string, unknown>
  } catch (error) {
    throw new Error(`${name}: ${errorMessage(error)}`)
  }
}

/** The reference's result on the input; throws when it gives none, which is the suite's fault. */
async function referenceResult(operation: OperationName, tagged: Record<string, unknown>): Promise<OperationResult> {
  const call = (): unknown => referenceAdapter.operations[operation]!(decodeTagged(tagged) as Record<string, unknown>)
  const result = operationResultOf((await inProcessCall(call, DEFAULT_TIMEOUT_MS, `the reference's ${operation}`)).value)
  if (result === undefined) throw new Error(`the reference gave no result for ${operation}`)
  return result
}

/** The one-step case the adapter runs: the input, and the reference's result as its expectation. */
function comparedCase(operation: OperationName, input: Record<string, unknown>, expected: OperationResult, profile: string): VectorCase {
  const expect = expected.ok ? { value: encodeTagged(expected.value) } : { reject: expectedRejectionOf(expected.error) }
  return {
    id: 'compare', title: `${operation} compared with the reference`, file: 'compare', chapter: 'compare', requirements: [],
    profile, review: false, steps: [{ operation, input, expect }],
  } as VectorCase
}

/** The result as the protocol carries it; a rejection's message (never compared) cut to its start. */
function shown(result: OperationResult): string {
  if (result.ok) return protocolLine({ ok: true, value: encodeTagged(result.value) }).trimEnd()
  const { message, ...error } = result.error
  return protocolLine({ ok: false, error: message === undefined ? error : { ...error, message: shortened(message) } }).trimEnd()
}

type InputOutcome = 'agrees' | 'not judged' | 'differs' | 'no answer'

/** One input through the reference and the adapter, printed; throws when the reference cannot run it. */
async function compareWith(adapter: Adapter, options: CompareOptions, input: Record<string, unknown>): Promise<InputOutcome> {
  const expected = await referenceResult(options.operation, input)
  console.log(`reference: ${shown(expected)}`)
  const open = openResult(options.operation, decodeTagged(input) as Record<string, unknown>)
  // A writer provides load, surface and messages too (profiles.md): it is asked them as a writer.
  const profile = askingProfile(options.operation, adapter.meta.profiles) ?? OPERATION_PROFILE[options.operation] ?? 'reader'
  const outcome = await runCase(adapter, comparedCase(options.operation, input, expected, profile), { timeoutMs: options.timeoutMs, fromNoVector: true })
  const verdicts = open === undefined ? VERDICTS : OPEN_VERDICTS
  const verdict = outcome.unsupported === true ? 'cannot handle this input' : verdicts[outcome.status]
  console.log(`${printable(adapter.meta.name)}: ${verdict}${outcome.reason === undefined ? '' : `: ${indentedLines(outcome.reason)}`}`)
  if (open !== undefined) console.log(`not judged: ${open}, so any answer is conforming`)
  // An answer the spec leaves open is judged by nobody, the same answer as the reference's included, so
  // that the count says the same of such an input whatever came; giving none (an error) never passes.
  if (outcome.status !== 'pass' && outcome.status !== 'fail') return 'no answer'
  if (open !== undefined) return 'not judged'
  return outcome.status === 'pass' ? 'agrees' : 'differs'
}

/** Each input in turn through one adapter: the exit status, 2 when the reference could not run one. */
async function compareAll(adapter: Adapter, options: CompareOptions, inputs: readonly Record<string, unknown>[]): Promise<number> {
  const counts = new Map<InputOutcome | 'not run', number>()
  for (const [index, input] of inputs.entries()) {
    const path = options.inputs[index]!
    if (inputs.length > 1) console.log(`--- ${nameOf(path)}`)
    let outcome: InputOutcome | 'not run'
    try {
      outcome = await compareWith(adapter, options, input)
    } catch (error) {
      // The reference answers every input of an operation's domain; one it cannot take is malformed.
      console.error(`the reference could not run ${options.operation} on ${nameOf(path)}: ${printable(errorMessage(error))}; is it the operation's whole input (spec/00-processing.md)?`)
      outcome = 'not run'
    }
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1)
  }
  if (inputs.length > 1) console.log(`${inputs.length} inputs: ${[...counts].map(([outcome, count]) => `${count} ${outcome}`).join(', ')}`)
  if (counts.has('not run')) return 2
  return counts.has('differs') || counts.has('no answer') ? 1 : 0
}

const VERDICTS = { pass: 'agrees with the reference', fail: 'differs from the reference', error: 'gave no answer', skip: 'was not asked' } as const
/** Where the spec sets no result, a different answer is no difference: only no answer fails (PROC-1). */
const OPEN_VERDICTS = { ...VERDICTS, fail: 'answers otherwise than the reference' } as const

export async function compareCommand(args: readonly string[]): Promise<number> {
  if (args.includes('--help')) {
    console.log(COMPARE_USAGE)
    return 0
  }
  const options = parseCompareOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\ndsh-conformance compare --help lists its options`)
    return 2
  }
  let inputs: Record<string, unknown>[]
  try {
    inputs = options.inputs.map((path) => readInput(path))
  } catch (error) {
    // It names the file, and may quote what the file holds.
    console.error(printable(errorMessage(error)))
    return 2
  }
  const adapter = await openAdapterOrSayWhyNot(options.adapter, options.timeoutMs)
  if (adapter === undefined) return 1
  return withOpenedAdapter(adapter, () => compareAll(adapter, options, inputs))
}
