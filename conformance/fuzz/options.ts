// The command line of `dsh-conformance fuzz`: its help text and its options, as plain data.
import { timeoutProblem } from '../adapter-process.ts'
import { adapterNameProblem, ADAPTER_NAMES } from '../adapters/registry.ts'
import type { AdapterSource } from '../cli-options.ts'
import { decimalNumber, givenTwice } from '../option-rules.ts'
import { DEFAULT_TIMEOUT_MS } from '../subprocess-adapter.ts'
import { guessedOption } from '../wording.ts'
import type { OperationName } from '../vector-cases.ts'
import { PROBED_OPERATIONS } from './probes.ts'
import { vocabularyNamed } from '../../reference/unknown-types.ts'

export const FUZZ_USAGE = `usage: dsh-conformance fuzz (--adapter NAME | --adapter-cmd COMMAND | --adapter-module PATH) --out DIR
                          [--runs N] [--seed S] [--max-events N] [--time-budget SECONDS]
                          [--known FILE] [--timeout MS] [--operation OPERATIONS]
                          [--log PATH]... [--vocabulary v0-pinned|v0-rc8]

Differential fuzzing: each run draws a log from the generator library (conformance/generators/),
valid (some ending in a turn that leaves a tool result without its call on the surface) or broken by
a mutation operator (drawn first, each as often as the others; a quarter of the logs a load or
relations operator breaks get a second fault from one more such operator), and in three runs of ten
then rewritten into the older shapes that readers upgrade (chapter 18), and runs every operation
that both the adapter and the reference provide (under a profile the adapter claims; a writer's load,
surface and messages too, profiles.md) on it: load, surface, messages, the request folds (over the
whole log, or at a drawn seq, half the time a request record's), headerEquals (a request header the log
stores against that header after one edit, or against another of them), relations, repair, resume,
compactionState, regionBalance, fork at a drawn
boundary (half the time one between turns), append of an event onto the events before it (a drawn
one, the one an operator broke, or the operator's broken candidate), the JSONL encoder on the log's
batches, artifactPath of its header, the JSONL decoder on the encoded log (intact, torn
anywhere, torn just before a line feed, or with a garbled line; in one plan in four of those no
other artifact edit takes, stored as zstd frames of raw blocks, half of them torn inside the last
frame), and store of the log's batches
(under its header, or a stand-in one) when a writer could have written the log or its first fault is
a value outside lossless JSON. Some probes leave the shapes
producers write where the spec still says what a reader answers: some headerEquals pairs, and the
stored headers of one requestHeader fold in four, hold values outside HDR-1, one requestContext in
four that has a context in force reads contexts whose data is no object, one JSONL decoding in
four meets a packed row out of ROW-3's range (a -0 in dt, or a last member at 2^53) when the log
packs one, and one fork in sixteen is given the boundary -0; their classes say so, as in "accepts (boundary -0)". Results are judged as
vector steps are: codes and seqs compared, messages never. Each class of disagreement is shrunk to a
small log and written as a one-case vector, DIR/<chapter>/fuzz-<hash>.yaml, whose expectation is the
reference's result and which is marked review: true; the vector is replayed to check that it fails
the adapter and passes the reference (dsh-conformance run --vectors DIR runs them all again). A
class found on a log in older shapes, and not on the same log in current shapes, says so: "load
(older shapes): ...". DIR/fuzz-summary.json lists every class, and how many runs each operator broke
(schemas/fuzz-summary.schema.json).
The same seed draws the same runs and writes the same vectors (their notes can differ where the
adapter's answers do, such as a time it stamps from its clock).

  --adapter NAME          an in-process adapter: ${ADAPTER_NAMES.join(', ')}
  --adapter-cmd COMMAND   any program that speaks spec/adapter-protocol.md, run through the shell
  --adapter-module PATH   an in-process adapter of your own: a JavaScript or TypeScript module whose
                          export named adapter (or else its default export) is an Adapter
  --out DIR               where the vectors and the summary go (never vectors/ itself)
  --runs N                how many runs (default 100)
  --seed S                the seed, a whole number (default 1)
  --max-events N          the largest target size of a generated log (default 60); with --log, the
                          most events a run takes of a stored log: a longer one is cut to its first N
                          (a prefix of a log is a log, its last turn perhaps left open)
  --time-budget SECONDS   stop cleanly once this much time has passed (kept between the probes of a
                          run too), and report the runs done
  --operation NAME        compare only these operations (repeat it, or give a comma-separated list)
  --log PATH              run over stored session logs instead of generated ones: a log file (raw, or
                          zstd when its name ends in .zstd or .zst) or a folder walked for them, not
                          standard input; repeat it for more. Run N takes log N mod their count as the
                          reference decodes it, its torn tail left out, and probes it at places drawn
                          from the seed and N (where fork cuts, what append appends, ...); no operator
                          breaks it and it is not rewritten. A disagreement is shrunk to a vector as for
                          any run, its note naming the log. A log that does not decode, or holds a value
                          nested over 1,000 levels deep, is named and passed over; a path that names no
                          log (missing, or a folder holding none) stops the fuzz
  --vocabulary NAME       with --log: the vocabulary the probes that take one read the stored logs
                          with (load's input, PROC-9): v0-rc8 for logs holding team/* events, which
                          the default v0-pinned refuses, so that the operations over a loaded log are
                          compared on them too (all but fork, which takes no vocabulary)
  --known FILE            known classes of disagreement (YAML or JSON,
                          schemas/known-divergences.schema.json) that are reported but tolerated
  --timeout MS            how long to wait for each reply of an --adapter-cmd, and for each operation
                          of an in-process adapter (default ${DEFAULT_TIMEOUT_MS})

A failure of the adapter (it threw, timed out, crashed or gave an answer that cannot be read) is a
disagreement of its own class, "fails: KIND", which no --known file can excuse. An input the adapter
answers as one it cannot handle by design (unsupported) is an answer: "cannot handle it", which one can.

Exit status: 0 when no disagreement was found outside the known classes, 1 when one was, when no
operation could be compared (the adapter claims no profile of the operations it provides) or when the
adapter could not be started or failed as it was closed, 2 on a usage error, an --out folder that
cannot be made or written into, or a --log naming no log the fuzz can take, 3 when the fuzzer itself
failed. An in-process operation that never returns (a loop) cannot be interrupted: the process is
killed (SIGKILL) after twice --timeout, without a summary.`

/** The largest target size of a generated log when --max-events is not given. */
const DEFAULT_MAX_EVENTS = 60

export interface FuzzCommandOptions {
  adapter: AdapterSource
  outDir: string
  runs: number
  seed: number
  maxEvents: number
  timeBudgetSeconds?: number
  known?: string
  timeoutMs: number
  /** Only these operations are compared (--operation); every one when absent. */
  only?: OperationName[]
  /** The stored logs and folders of them the runs take instead of generated logs (--log). */
  logs?: string[]
  /** The vocabulary the probes read stored logs with (--vocabulary); the reader's default when absent. */
  vocabulary?: string
}

type Draft = Partial<FuzzCommandOptions> & { adapters: AdapterSource[] }

function wholeNumber(option: string, value: string, min: number): number | string {
  const number = decimalNumber(value)
  return Number.isSafeInteger(number) && number >= min ? number : `${option} needs a whole number of at least ${min}, not ${value}`
}

/** The options that take one value; --operation adds to the operations compared, --log to the logs. */
const ONCE = new Set(['--out', '--known', '--runs', '--seed', '--max-events', '--time-budget', '--timeout', '--vocabulary'])

const FUZZ_OPTIONS = ['--adapter', '--adapter-cmd', '--adapter-module', '--out', '--known', '--runs', '--seed', '--max-events', '--time-budget', '--timeout', '--operation', '--log', '--vocabulary']

/** Applies one option; returns what is wrong, if anything. */
function apply(draft: Draft, option: string, value: string): string | undefined {
  const numeric = (key: 'runs' | 'seed' | 'maxEvents' | 'timeBudgetSeconds', min: number): string | undefined => {
    const number = wholeNumber(option, value, min)
    if (typeof number === 'string') return number
    draft[key] = number
    return undefined
  }
  switch (option) {
    case '--adapter': draft.adapters.push({ kind: 'name', name: value }); return undefined
    case '--adapter-cmd': draft.adapters.push({ kind: 'command', command: value }); return undefined
    case '--adapter-module': draft.adapters.push({ kind: 'module', path: value }); return undefined
    case '--out': draft.outDir = value; return undefined
    case '--known': draft.known = value; return undefined
    case '--runs': return numeric('runs', 1)
    case '--seed': return numeric('seed', 0)
    case '--max-events': return numeric('maxEvents', 1)
    case '--time-budget': return numeric('timeBudgetSeconds', 1)
    case '--timeout':
      draft.timeoutMs = decimalNumber(value)
      return timeoutProblem('--timeout', draft.timeoutMs, value)
    case '--operation': {
      const operations = value.split(',').map((name) => name.trim()).filter((name) => name !== '')
      const unknown = operations.filter((name) => !(PROBED_OPERATIONS as readonly string[]).includes(name))
      if (operations.length === 0 || unknown.length > 0) return `--operation needs operations the fuzzer probes (${PROBED_OPERATIONS.join(', ')}), not ${value}`
      draft.only = [...(draft.only ?? []), ...(operations as OperationName[])]
      return undefined
    }
    case '--log': draft.logs = [...(draft.logs ?? []), value]; return undefined
    case '--vocabulary':
      draft.vocabulary = value
      return vocabularyNamed(value) === undefined ? `--vocabulary is v0-pinned or v0-rc8, not ${value}` : undefined
    default: return `unknown option ${option} for fuzz${guessedOption(option, FUZZ_OPTIONS)}`
  }
}

/** The options of `fuzz`, or what is wrong with them. `--option=value` is the same as `--option value`. */
export function parseFuzzOptions(args: readonly string[]): FuzzCommandOptions | { error: string } {
  const draft: Draft = { adapters: [] }
  const given = new Set<string>()
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index]!
    const joined = argument.startsWith('--') && argument.includes('=')
    const option = joined ? argument.slice(0, argument.indexOf('=')) : argument
    const value = joined ? argument.slice(option.length + 1) : args[(index += 1)]
    if (!option.startsWith('--')) return { error: `fuzz takes options only, not ${option}` }
    if (value === undefined || value.trim() === '') return { error: `${option} needs a value` }
    const problem = givenTwice(given, option, ONCE) ?? apply(draft, option, value)
    if (problem !== undefined) return { error: problem }
  }
  if (draft.adapters.length !== 1) return { error: 'fuzz needs exactly one --adapter, --adapter-cmd or --adapter-module' }
  const source = draft.adapters[0]!
  const nameProblem = source.kind === 'name' ? adapterNameProblem(source.name) : undefined
  if (nameProblem !== undefined) return { error: nameProblem }
  if (draft.outDir === undefined) return { error: 'fuzz needs --out DIR' }
  if (draft.logs === undefined && draft.vocabulary !== undefined) return { error: '--vocabulary reads stored logs, which --log names: generated logs hold the types of v0-pinned, and some probes grow them on their own' }
  return {
    adapter: source, outDir: draft.outDir, runs: draft.runs ?? 100, seed: draft.seed ?? 1,
    // A stored log is taken whole unless --max-events cuts it.
    maxEvents: draft.maxEvents ?? (draft.logs === undefined ? DEFAULT_MAX_EVENTS : Number.MAX_SAFE_INTEGER),
    timeoutMs: draft.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(draft.timeBudgetSeconds === undefined ? {} : { timeBudgetSeconds: draft.timeBudgetSeconds }),
    ...(draft.known === undefined ? {} : { known: draft.known }),
    ...(draft.only === undefined ? {} : { only: [...new Set(draft.only)] }),
    ...(draft.logs === undefined ? {} : { logs: draft.logs }),
    ...(draft.vocabulary === undefined ? {} : { vocabulary: draft.vocabulary }),
  }
}
