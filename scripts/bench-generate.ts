// Benchmarks the log generator (conformance/generators): how many valid logs of about SIZE events it
// builds per second, and how many it builds and checks against the reference (load, then relations:
// every log must load and keep every relation, or the script fails). Absolute rates on a shared
// machine mean little, so each rate is also given as a ratio to a baseline measured in the same run:
// a JSON.stringify + JSON.parse round trip of the same logs.
//
// usage: tsx scripts/bench-generate.ts [logs] [size] [rounds]     (defaults: 1000 logs, size 100, 5 rounds)
import { performance } from 'node:perf_hooks'
import { generateLog, seededChooser, type GeneratedLog } from '../conformance/generators/index.ts'
import { reference } from '../reference/index.ts'

const count = Number(process.argv[2] ?? 1000)
const size = Number(process.argv[3] ?? 100)
const rounds = Number(process.argv[4] ?? 5)
const TARGET_PER_SECOND = 1000

function generateAll(): GeneratedLog[] {
  return Array.from({ length: count }, (_, index) => generateLog(seededChooser(index + 1), { size }))
}

/** Load and relations over every log; the number of logs that failed either. */
function checkAll(logs: readonly GeneratedLog[]): number {
  let failures = 0
  for (const log of logs) {
    const input = { header: log.header, events: log.events }
    const relations = reference.load(input).ok ? reference.relations(input) : undefined
    if (relations === undefined || !relations.ok || relations.value.violations.length > 0) failures++
  }
  return failures
}

function roundTripAll(logs: readonly GeneratedLog[]): number {
  let length = 0
  for (const log of logs) length += (JSON.parse(JSON.stringify(log.events)) as unknown[]).length
  return length
}

function elapsed(run: () => unknown): number {
  const started = performance.now()
  run()
  return performance.now() - started
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
}

const logs = generateAll()
const events = logs.reduce((sum, log) => sum + log.events.length, 0)
const failures = checkAll(logs)
const samples = { generate: [] as number[], check: [] as number[], baseline: [] as number[] }
for (let round = 0; round <= rounds; round++) {
  const generate = elapsed(generateAll)
  const check = elapsed(() => checkAll(logs))
  const baseline = elapsed(() => roundTripAll(logs))
  if (round === 0) continue
  samples.generate.push(generate)
  samples.check.push(check)
  samples.baseline.push(baseline)
}

const perSecond = (ms: number): number => (count * 1000) / ms
const generate = perSecond(median(samples.generate))
const checked = perSecond(median(samples.generate) + median(samples.check))
const baseline = perSecond(median(samples.baseline))
const row = (label: string, rate: number): string => `  ${label.padEnd(38)} ${rate.toFixed(0).padStart(7)} logs/s   ${(baseline / rate).toFixed(2)}x the baseline's time`
console.log(`${count} logs, target size ${size}: ${(events / count).toFixed(1)} events per log on average (median of ${rounds} interleaved rounds)`)
console.log(row('generated', generate))
console.log(row('generated and checked (load + relations)', checked))
console.log(`  ${'baseline: JSON stringify + parse'.padEnd(38)} ${baseline.toFixed(0).padStart(7)} logs/s`)
console.log(`generation ${generate >= TARGET_PER_SECOND ? 'meets' : 'misses'} the target of ${TARGET_PER_SECOND} logs/s`)
if (failures > 0) {
  console.error(`${failures} generated log(s) failed load or relations`)
  process.exitCode = 1
}
