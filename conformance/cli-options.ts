// The command line of dsh-conformance: its help text and the options of `run`, as plain data.
import { ADAPTER_NAMES } from './adapters/registry.ts'
import { DEFAULT_TIMEOUT_MS } from './subprocess-adapter.ts'

export const USAGE = `usage: dsh-conformance <command> [options]

commands:
  run [options]             run every vector against each adapter (default: --adapter reference)
  list                      list every vector: id, profile, requirements
  serve                     the reference interpreter as a subprocess adapter on stdin/stdout
                            (spec/adapter-protocol.md)

options of run (adapters run in the order given):
  --adapter NAME            an in-process adapter: ${ADAPTER_NAMES.join(', ')}
  --adapter-cmd COMMAND     any program that speaks spec/adapter-protocol.md, run through the shell
  --timeout MS              how long to wait for each reply of an --adapter-cmd (default ${DEFAULT_TIMEOUT_MS})`

export type AdapterSource = { kind: 'name'; name: string } | { kind: 'command'; command: string }

export interface RunOptions {
  adapters: AdapterSource[]
  timeoutMs: number
}

/** The options of `run`, or what is wrong with them. */
export function parseRunOptions(args: readonly string[]): RunOptions | { error: string } {
  const adapters: AdapterSource[] = []
  let timeoutMs = DEFAULT_TIMEOUT_MS
  for (let index = 0; index < args.length; index += 2) {
    const [option, value] = [args[index], args[index + 1]]
    if (value === undefined) return { error: `${option} needs a value` }
    if (option === '--adapter') adapters.push({ kind: 'name', name: value })
    else if (option === '--adapter-cmd') adapters.push({ kind: 'command', command: value })
    else if (option === '--timeout') {
      timeoutMs = Number(value)
      if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) return { error: `--timeout needs a positive number of milliseconds, not ${value}` }
    } else return { error: `unknown option ${option}` }
  }
  return { adapters: adapters.length > 0 ? adapters : [{ kind: 'name', name: 'reference' }], timeoutMs }
}
