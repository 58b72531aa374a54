// The schemas of the suite's own input files hold what the suite reads: the committed vector bundle,
// the baselines and the fuzz's known-divergences files validate, and each schema refuses exactly the
// documents its reader refuses (but for the one rule JSON Schema cannot state: a baseline lists an id
// once).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { describe, expect, it } from 'vitest'
import { baselineFrom } from '../conformance/baseline.ts'
import { knownDivergencesFrom } from '../conformance/fuzz/known.ts'
import { projectRoot } from '../conformance/vector-cases.ts'
import { accepts, errorsOf, schemaValidator } from './support/schemas.ts'

const yamlFiles = (folder: string): string[] =>
  readdirSync(join(projectRoot, folder)).filter((name) => name.endsWith('.yaml')).map((name) => join(projectRoot, folder, name))

describe('the vector bundle', () => {
  it('validates, with as many cases as it says', () => {
    const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated/vectors.bundle.json'), 'utf8')) as { caseCount: number; cases: unknown[] }
    const validate = schemaValidator('vector-bundle')
    expect(validate(bundle), errorsOf(validate)).toBe(true)
    expect(bundle.caseCount).toBe(bundle.cases.length)
  })

  it('says, as loading the vectors does, that a rejection names its seq or its line', () => {
    const validate = schemaValidator('vector-bundle')
    const bundle = JSON.parse(readFileSync(join(projectRoot, 'generated/vectors.bundle.json'), 'utf8')) as { cases: { steps: { expect: { reject?: Record<string, unknown> } }[] }[] }
    const rejecting = bundle.cases.find((item) => item.steps[0]?.expect.reject?.['seq'] !== undefined)!
    const placedBy = (where: Record<string, unknown>): boolean => {
      const step = { ...rejecting.steps[0]!, expect: { reject: { code: 'ENV_NOT_OBJECT', ...where } } }
      return validate({ ...bundle, cases: [{ ...rejecting, steps: [step] }] })
    }
    expect([placedBy({}), placedBy({ seq: 3 }), placedBy({ line: null }), placedBy({ seq: null, line: 2 })]).toEqual([false, true, true, true])
  })

  it('is what vectors/README.md tells another language: events in every input, appends judged by value, the hash of the cases', () => {
    const text = readFileSync(join(projectRoot, 'generated/vectors.bundle.json'), 'utf8')
    const bundle = JSON.parse(text) as { contentHash: string; cases: { steps: { operation: string; input: Record<string, unknown>; expect: Record<string, unknown> }[] }[] }
    const steps = bundle.cases.flatMap((item) => item.steps)
    // A list, or (JSON-13's cases of the events array itself) the tag of an array with a hole or a named property.
    const tagOf = (events: unknown): unknown => (events as { $dsh?: unknown } | null)?.$dsh
    const tagged = steps.filter((step) => !Array.isArray(step.input['events']))
    expect(tagged.map((step) => tagOf(step.input['events'])).filter((tag) => tag !== 'sparse-array' && tag !== 'array-property')).toEqual([])
    expect(tagged.length).toBeGreaterThan(0)
    expect(steps.filter((step) => step.operation === 'append' && 'accept' in step.expect)).toEqual([])
    expect(bundle.contentHash).toBe(`sha256:${createHash('sha256').update(JSON.stringify(bundle.cases)).digest('hex')}`)
    // "expected values hold no other tag than -0, the infinities, nested and object"
    const tags = new Set<unknown>()
    const walk = (value: unknown, literal = false): void => {
      if (Array.isArray(value)) return value.forEach((item) => walk(item))
      if (typeof value !== 'object' || value === null) return
      const members = value as Record<string, unknown>
      if ('$dsh' in members && !literal) tags.add(members['$dsh'])
      // The value of an object tag is no tag itself; its members' values are decoded as usual.
      if (members['$dsh'] === 'object' && !literal) return walk(members['value'], true)
      for (const member of Object.values(members)) walk(member)
    }
    for (const step of steps) walk(step.expect)
    expect(tags.size).toBeGreaterThan(0)
    expect([...tags].filter((tag) => !['-0', 'Infinity', '-Infinity', 'nested', 'object'].includes(tag as string))).toEqual([])
  })
})

/** The schema's verdict and the reader's, side by side, on each document. */
function verdictsOf(schema: string, read: (document: unknown) => unknown): (documents: unknown[]) => boolean[][] {
  const validate = schemaValidator(schema)
  return (documents) => documents.map((document) => [validate(document), accepts(() => read(document))])
}

describe('baseline files', () => {
  it.each(yamlFiles('baselines'))('%s validates', (path) => {
    const validate = schemaValidator('baseline')
    expect(validate(parseYaml(readFileSync(path, 'utf8'), { maxAliasCount: -1 })), errorsOf(validate)).toBe(true)
  })

  it('are refused by the schema exactly where the reader refuses them, but for an id listed twice', () => {
    const accepted: unknown[] = [{ adapter: 'x', failures: [] }, { adapter: 'x', suiteVersion: '1', suiteHash: 'sha256:0', failures: [{ id: 'a', reason: 'r' }] }]
    const refused: unknown[] = [
      { adapter: 'x', failures: [], extra: 1 }, { adapter: 'x', failures: [{ id: 'a', reason: 'r', note: 'a member entries do not have' }] },
      [], null, 'x', { failures: [] }, { adapter: '', failures: [] }, { adapter: 7, failures: [] }, { adapter: 'x' }, { adapter: 'x', failures: {} },
      { adapter: 'x', suiteVersion: 1, failures: [] }, { adapter: 'x', suiteHash: null, failures: [] },
      { adapter: 'x', failures: [{ id: '', reason: 'r' }] }, { adapter: 'x', failures: [{ reason: 'r' }] }, { adapter: 'x', failures: [{ id: 'a' }] },
      { adapter: 'x', failures: [{ id: 'a', reason: ' \n ' }] }, { adapter: 'x', failures: [{ id: 'a', reason: 5 }] }, { adapter: 'x', failures: ['a'] },
    ]
    const verdicts = verdictsOf('baseline', (document) => baselineFrom(document, 'b.yaml'))
    expect(verdicts(accepted)).toEqual(accepted.map(() => [true, true]))
    expect(verdicts(refused)).toEqual(refused.map(() => [false, false]))
    const twice = { adapter: 'x', failures: [{ id: 'a', reason: 'r' }, { id: 'a', reason: 's' }] }
    expect(verdicts([twice])).toEqual([[true, false]])
  })
})

describe('known-divergences files', () => {
  it.each(yamlFiles('baselines/fuzz'))('%s validates', (path) => {
    const validate = schemaValidator('known-divergences')
    expect(validate(parseYaml(readFileSync(path, 'utf8'))), errorsOf(validate)).toBe(true)
  })

  it('are refused by the schema exactly where the reader refuses them', () => {
    const entry = { class: 'U1', why: 'w' }
    const accepted: unknown[] = [
      { adapters: [], known: [] }, { adapters: ['a@*'], known: [{ ...entry, operation: 'load', reference: 'accepts', adapter: 'rejects *', shapes: 'older' }] },
      { adapters: [], known: [{ ...entry, adapter: '*' }, { ...entry, shapes: 'current' }] },
    ]
    const refused: unknown[] = [
      { adapters: [], known: [], extra: 1 },
      [], null, { known: [] }, { adapters: 'x', known: [] }, { adapters: [1], known: [] }, { adapters: [], known: {} }, { adapters: [] },
      { adapters: [], known: ['U1'] }, { adapters: [], known: [{ why: 'w' }] }, { adapters: [], known: [{ class: '', why: 'w' }] },
      { adapters: [], known: [{ class: 'U1' }] }, { adapters: [], known: [{ class: 'U1', why: '  ' }] }, { adapters: [], known: [{ ...entry, code: 'X' }] },
      { adapters: [], known: [{ ...entry, operation: ['load'] }] }, { adapters: [], known: [{ ...entry, shapes: null }] },
      { adapters: [], known: [entry] }, { adapters: [], known: [{ ...entry, shapes: 'old' }] }, { adapters: [], known: [{ ...entry, shapes: '*' }] },
    ]
    const verdicts = verdictsOf('known-divergences', (document) => knownDivergencesFrom(document, 'k.yaml'))
    expect(verdicts(accepted)).toEqual(accepted.map(() => [true, true]))
    expect(verdicts(refused)).toEqual(refused.map(() => [false, false]))
  })
})
