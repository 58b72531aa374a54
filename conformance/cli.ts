// dsh-conformance: runs the golden vectors against an implementation and prints a summary.
// This first version knows the in-process reference adapter; subprocess adapters, reports and
// baselines come with the runner (see CHANGELOG).
import { adapterByName, ADAPTER_NAMES } from './adapters/registry.ts'
import { runSuite, summarize } from './suite.ts'
import { loadVectorCases } from './vector-cases.ts'

const USAGE = `usage: dsh-conformance <command> [options]

commands:
  run [--adapter NAME]...   run every vector against each adapter (default: reference)
  list                      list every vector: id, profile, requirements

adapters: ${ADAPTER_NAMES.join(', ')}`

function optionValues(args: string[], name: string): string[] {
  return args.flatMap((arg, index) => (arg === name && args[index + 1] ? [args[index + 1]!] : []))
}

async function run(args: string[]): Promise<number> {
  const names = optionValues(args, '--adapter')
  const cases = loadVectorCases()
  let failed = false
  for (const name of names.length > 0 ? names : ['reference']) {
    const adapter = await adapterByName(name)
    const outcomes = await runSuite(adapter, cases, (done, total) => {
      if (process.stdout.isTTY) process.stdout.write(`\r${adapter.meta.name}: ${done}/${total}`)
    })
    if (process.stdout.isTTY) process.stdout.write('\r')
    const summary = summarize(adapter, cases, outcomes)
    console.log(summary.text)
    failed ||= summary.failed
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
  console.error(USAGE)
  return command === undefined || command === '--help' ? 0 : 2
}

process.exitCode = await main(process.argv.slice(2))
