// dsh-conformance: runs the golden vectors against implementations and prints a summary; `serve`
// puts the reference interpreter behind the subprocess adapter protocol.
import type { Adapter } from './adapter.ts'
import { adapterByName } from './adapters/registry.ts'
import { parseRunOptions, USAGE, type AdapterSource } from './cli-options.ts'
import { serve } from './serve.ts'
import { startSubprocessAdapter } from './subprocess-adapter.ts'
import { runSuite, summarize } from './suite.ts'
import { loadVectorCases, type VectorCase } from './vector-cases.ts'

const STDERR_LINES_SHOWN = 20

function openAdapter(source: AdapterSource, timeoutMs: number): Promise<Adapter> {
  return source.kind === 'name' ? adapterByName(source.name) : startSubprocessAdapter(source.command, { timeoutMs })
}

/** Runs every case against one adapter and prints its summary; true when the run failed. */
async function runAdapter(adapter: Adapter, cases: readonly VectorCase[]): Promise<boolean> {
  const outcomes = await runSuite(adapter, cases, (done, total) => {
    if (process.stdout.isTTY) process.stdout.write(`\r${adapter.meta.name}: ${done}/${total}`)
  })
  if (process.stdout.isTTY) process.stdout.write('\r')
  const summary = summarize(adapter, cases, outcomes)
  console.log(summary.text)
  const stderrLines = adapter.stderr?.().trimEnd().split('\n').slice(-STDERR_LINES_SHOWN) ?? []
  if (summary.failed && stderrLines.join('') !== '') {
    console.error(`--- last lines of ${adapter.meta.name}'s stderr ---\n${stderrLines.join('\n')}`)
  }
  return summary.failed
}

async function run(args: string[]): Promise<number> {
  const options = parseRunOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\n\n${USAGE}`)
    return 2
  }
  const cases = loadVectorCases()
  let failed = false
  for (const source of options.adapters) {
    let adapter: Adapter
    try {
      adapter = await openAdapter(source, options.timeoutMs)
    } catch (error) {
      console.error(`cannot start adapter ${source.kind === 'name' ? source.name : source.command}: ${error instanceof Error ? error.message : String(error)}`)
      failed = true
      continue
    }
    try {
      failed = (await runAdapter(adapter, cases)) || failed
    } finally {
      await adapter.close?.()
    }
  }
  return failed ? 1 : 0
}

function list(): number {
  for (const vector of loadVectorCases()) {
    console.log(`${vector.id}\t${vector.profile}\t${vector.requirements.join(',')}\t${vector.title}`)
  }
  return 0
}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args
  if (command === 'run') return run(rest)
  if (command === 'list') return list()
  if (command === 'serve') return serve()
  console.error(USAGE)
  return command === undefined || command === '--help' ? 0 : 2
}

process.exitCode = await main(process.argv.slice(2))
