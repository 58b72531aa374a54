// Which of the known-bad adapters (tests/known-bad/: the reference with one classic bug each) the
// differential fuzzer finds: each is fuzzed against the reference for RUNS runs of SEED, logs of up to
// 60 events, and listed as found (with how many classes of disagreement) or missed. A missed one is a
// blind spot of the generators: the golden vectors pin its bug, but a port that differs elsewhere
// could carry it through every fuzz run. Run it after a change to what the fuzzer draws.
//
// usage: tsx scripts/fuzz-reach.ts [runs] [seed] [name ...]     (defaults: 1000 runs, seed 4, every adapter)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fuzz } from '../conformance/fuzz/driver.ts'
import { KNOWN_BAD } from '../tests/known-bad/index.ts'
import { knownBadAdapter } from '../tests/known-bad/wrap.ts'

const [runsArg, seedArg, ...names] = process.argv.slice(2)
const runs = Number(runsArg ?? 1000)
const seed = Number(seedArg ?? 4)
const chosen = names.length === 0 ? KNOWN_BAD : KNOWN_BAD.filter(bad => names.includes(bad.name))
const unknown = names.filter(name => !KNOWN_BAD.some(bad => bad.name === name))
if (unknown.length > 0) throw new Error(`no known-bad adapter named ${unknown.join(', ')}`)

const missed: string[] = []
for (const bad of chosen) {
  const outDir = mkdtempSync(join(tmpdir(), 'fuzz-reach-'))
  try {
    const report = await fuzz(knownBadAdapter(bad), { runs, seed, outDir, maxEvents: 60 })
    const classes = report.findings.length
    if (classes === 0) missed.push(bad.name)
    console.log(classes === 0 ? `missed ${bad.name}` : `found  ${bad.name} (${classes} ${classes === 1 ? 'class' : 'classes'})`)
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
}
console.log(`\n${runs} runs of seed ${seed} find ${chosen.length - missed.length} of ${chosen.length} known-bad adapters${missed.length === 0 ? '' : `; missed: ${missed.join(', ')}`}`)
