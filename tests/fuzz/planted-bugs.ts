// What the planted-bug fuzz tests share (planted-bugs-first.test.ts, planted-bugs-later.test.ts): the
// search for a seed whose fuzz finds a known-bad adapter's bug, and the replay of the vector it writes.
// The list is cut in two files so that vitest's workers run the halves side by side.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { fuzz, type Finding } from '../../conformance/fuzz/driver.ts'
import { PROBE_VARIANTS, type ProbeVariant } from '../../conformance/fuzz/probes.ts'
import { runCase } from '../../conformance/run-case.ts'
import { loadVectorFile, type OperationName } from '../../conformance/vector-cases.ts'
import { KNOWN_BAD } from '../known-bad/index.ts'
import { knownBadAdapter } from '../known-bad/wrap.ts'

/** A known-bad adapter's name, the operation it breaks and the variant of the probe meant to find it. */
export type PlantedBug = [string, OperationName, variant?: ProbeVariant]

const folders: string[] = []

/** A new temporary folder, removed by removeTempFolders. */
export function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))
  folders.push(folder)
  return folder
}

/** Removes every folder tempFolder made (a test file's afterAll). */
export function removeTempFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
}

/** Replays a finding's vector file with the runner against the buggy adapter and the reference. */
async function replay(finding: Finding, outDir: string, adapter: Adapter): Promise<{ buggy: string; reference: string; text: string }> {
  const path = join(outDir, finding.vector!.file)
  const [vector] = loadVectorFile(path, path)
  const buggy = await runCase(adapter, vector!)
  const reference = await runCase(referenceAdapter, vector!)
  return { buggy: buggy.status, reference: reference.status, text: readFileSync(path, 'utf8') }
}

/** The finding found, shrunk to at most `maxEvents`, written as a vector that fails `adapter` and passes the reference. */
export async function expectCaught(adapter: Adapter, finding: Finding | undefined, outDir: string, maxEvents: number): Promise<void> {
  expect(finding, 'the planted bug was not found').toBeDefined()
  expect(finding!.problem).toBeUndefined()
  expect(finding!.eventsAfter).toBeLessThanOrEqual(maxEvents)
  const { buggy, reference, text } = await replay(finding!, outDir, adapter)
  expect(['fail', 'error']).toContain(buggy)
  expect(reference).toBe('pass')
  expect(text).toContain('review: true')
  expect(finding!.vector!.id).toMatch(/^fuzz-[0-9a-f]{12}$/)
}

/**
 * Known-bad adapters the fuzzer reaches within sixty runs of one of the seeds 1 to SEEDS, and the
 * operation each breaks. One seed that reaches them all, each through the probe meant for it and shrunk
 * as below, is a matter of draws (of seeds 1 to 100, as the generators stood, one did), so every change
 * to the draw called for another; each bug takes the first seed that reaches it instead. Since the
 * operators of chapter 02's holes and fault order and of older versions moved every draw, the last
 * reached take seeds 43 and 45 (end-seed-surface-exempt, citation-object-as-list). Not
 * numeric-replace-order: it needs a replace whose endpoints' seqs run against their surface order,
 * which generated logs rarely hold (a seed finds it in some hundred runs, or not at all); nor
 * compaction-appended-message-is-checkpoint, which needs a failed or irregular bracket holding a
 * compact notice, rare in logs of forty events (`npm run fuzz:reach` finds it in 1,000 runs of sixty);
 * nor the two that sort citations as text (latest-citation-by-text-sort,
 * append-provenance-text-sorted), whose fault needs a citing event past seq 9, more events than a
 * shrunk case here may keep; nor, since those operators came, rewrite-error-null-as-absent and
 * surface-op-case-folded, first reached by seeds 85 and 135 (each one draw among several of
 * rewrite-changes-loosely and surface-op-malformed). The vectors pin all six.
 */
const SEEDS = 60

/**
 * A bug reached only by a late seed runs the fuzz that many times (citation-object-as-list: 45), 7.5 s
 * alone on a quiet machine, and took more than the default 20 s beside other jobs (a fresh-clone CI run
 * on 2026-12-07 while the baselines were restamped and a review ran tests).
 */
const SEARCH_TIMEOUT_MS = 90_000

/** The variant a finding's probe had, as its class names it (compare.ts adapterSide). */
function variantOf(finding: Finding): ProbeVariant | undefined {
  return PROBE_VARIANTS.find(variant => finding.adapter.endsWith(` (${variant})`))
}

/** One test per planted bug: some seed of 1 to SEEDS finds it, shrinks it and writes a vector that fails it. */
export function describePlantedBugs(planted: readonly PlantedBug[]): void {
  afterAll(removeTempFolders)
  describe('known-bad adapters (in process)', () => {
    for (const [name, operation, variant] of planted) {
      it(`${name}: found through ${operation}, shrunk, and written as a vector that fails it`, async () => {
        const bad = KNOWN_BAD.find(candidate => candidate.name === name)!
        const adapter = knownBadAdapter(bad)
        for (let seed = 1; ; seed += 1) {
          const outDir = tempFolder()
          const report = await fuzz(adapter, { runs: 60, seed, outDir, maxEvents: 40, only: [operation] })
          // Through the probe meant to find it, with the variant meant (or none). A finding shrunk to
          // more events than allowed sends the search to the next seed; one whose vector does not replay
          // fails.
          const found = report.findings.find(finding => finding.operation === operation && variantOf(finding) === variant)
          const judged = found !== undefined && (found.problem !== undefined || found.eventsAfter <= 8)
          if (judged || seed === SEEDS) {
            await expectCaught(adapter, found, outDir, 8)
            return
          }
        }
      }, SEARCH_TIMEOUT_MS)
    }
  })
}
