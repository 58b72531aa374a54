// The upstream-rc8 corpus of real session logs against tests/corpus/verdicts.yaml: every file runs
// decodeJsonl -> load -> relations on the reference adapter, and the outcome must be exactly the
// recorded verdict. The corpus lives outside the project; without it the corpus block is skipped, and
// its title says so.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { operationResultOf } from '../conformance/adapter.ts'
import { referenceAdapter } from '../conformance/adapters/reference.ts'
import type { OperationName } from '../conformance/vector-cases.ts'
import type { OperationResult } from '../conformance/expectations.ts'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'

interface Violation {
  code: string
  seq: number
  requirements: string[]
  reason: string
}

interface Verdict {
  file: string
  verdict: 'accepted' | 'rejected'
  operation?: 'decodeJsonl' | 'load' | 'relations'
  code?: string
  seq?: number
  line?: number
  requirements?: string[]
  reason?: string
  events?: number
  relations?: Violation[]
}

/** The part of a verdict that the pipeline decides; requirements, reasons and notes are for people. */
type Outcome =
  | { verdict: 'rejected'; operation: string; code: string; seq?: number; line?: number }
  | { verdict: 'accepted'; events: number; tornTail: unknown; relations: { code: string; seq: number }[] }

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const corpusDir = path.resolve(projectRoot, '../shared/corpus/upstream-rc8')
const corpusPresent = existsSync(corpusDir)
const verdicts = parse(readFileSync(path.join(projectRoot, 'tests/corpus/verdicts.yaml'), 'utf8')) as Verdict[]

async function run(operation: OperationName, input: Record<string, unknown>): Promise<OperationResult> {
  const implementation = referenceAdapter.operations[operation]
  if (!implementation) throw new Error(`the reference adapter has no ${operation}`)
  const result = operationResultOf(await implementation(input))
  if (result === undefined) throw new Error(`the reference adapter's ${operation} returned no operation result`)
  return result
}

function rejection(operation: string, result: Extract<OperationResult, { ok: false }>): Outcome {
  const { code, seq, line } = result.error
  return { verdict: 'rejected', operation, code, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
}

async function pipeline(text: string): Promise<Outcome> {
  const decoded = await run('decodeJsonl', { text })
  if (!decoded.ok) return rejection('decodeJsonl', decoded)
  const { header, events, tornTail } = decoded.value as { header: { id: string }; events: unknown[]; tornTail: unknown }
  // The corpus was written by rc8, which knows the team/* types.
  const log = { header, events, sessionId: header.id, vocabulary: 'v0-rc8' }
  const loaded = await run('load', log)
  if (!loaded.ok) return rejection('load', loaded)
  const related = await run('relations', log)
  if (!related.ok) return rejection('relations', related)
  const { violations } = related.value as { violations: { code: string; seq: number }[] }
  return { verdict: 'accepted', events: events.length, tornTail, relations: violations }
}

function expectedOutcome(entry: Verdict): Outcome {
  if (entry.verdict === 'rejected') {
    const { operation = '', code = '', seq, line } = entry
    return { verdict: 'rejected', operation, code, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
  }
  const relations = (entry.relations ?? []).map(({ code, seq }) => ({ code, seq }))
  return { verdict: 'accepted', events: entry.events ?? -1, tornTail: null, relations }
}

describe('corpus verdicts file', () => {
  const catalog = readSpecCatalog(path.join(projectRoot, 'spec'))
  const errorsOf = new Map(catalog.requirements.map((requirement) => [requirement.id, requirement.errors]))

  it('lists each file once, sorted, with the members its verdict needs', () => {
    const files = verdicts.map((entry) => entry.file)
    expect(files).toEqual([...new Set(files)].sort())
    for (const entry of verdicts) {
      const needed = entry.verdict === 'rejected'
        ? [entry.operation, entry.code, entry.seq ?? entry.line, entry.requirements?.length, entry.reason]
        : [entry.events, entry.relations]
      expect(needed.every((member) => member !== undefined), entry.file).toBe(true)
      // A rejection, and each relation violation, cites at least one rule.
      if (entry.verdict === 'rejected') expect(entry.requirements?.length ?? 0, entry.file).toBeGreaterThan(0)
      for (const violation of entry.relations ?? []) expect(violation.requirements.length, `${entry.file}: ${violation.code}`).toBeGreaterThan(0)
    }
  })

  it('cites requirements that exist and name the recorded code on their Errors line', () => {
    const cited = verdicts.flatMap((entry) => [
      ...(entry.verdict === 'rejected' ? [{ code: entry.code, requirements: entry.requirements ?? [] }] : []),
      ...(entry.relations ?? []),
    ])
    for (const { code, requirements } of cited) {
      for (const id of requirements) expect(errorsOf.get(id) ?? [], `${id} for ${code}`).toContain(code)
    }
  })
})

describe.skipIf(!corpusPresent)(`corpus ${corpusPresent ? corpusDir : `(skipped: ${corpusDir} not found)`}`, () => {
  it('has a verdict for exactly the files present', () => {
    const present = corpusPresent ? readdirSync(corpusDir).sort() : []
    expect(verdicts.map((entry) => entry.file)).toEqual(present)
  })

  for (const entry of verdicts) {
    it(`${entry.file}: ${entry.verdict}${entry.code ? ` ${entry.code}` : ''}`, async () => {
      const text = readFileSync(path.join(corpusDir, entry.file), 'utf8')
      expect(await pipeline(text)).toEqual(expectedOutcome(entry))
    })
  }
})
