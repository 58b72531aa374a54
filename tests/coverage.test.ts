import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { computeCoverage, expectedCodes } from '../conformance/coverage.ts'
import { parseErrorTables, parseRequirements, readSpecCatalog } from '../conformance/spec-catalog.ts'
import { loadVectorCases, type VectorCase } from '../conformance/vector-cases.ts'

describe('coverage of the spec by the vectors', () => {
  it('gives every requirement ID and every rejection code at least one vector', () => {
    const coverage = computeCoverage(readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url))), loadVectorCases())
    expect(coverage.uncoveredRequirements).toEqual([])
    expect(coverage.uncoveredCodes).toEqual([])
  })

  it('has every case name a rule that gives each code it expects', () => {
    // vectors/README.md: a case names every rule its expectation leans on, and a code leans on the
    // rules whose Errors: line names it (spec/errors.md's requirements column).
    const catalog = readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url)))
    const rulesOfCode = new Map(catalog.codes.map((code) => [code.code, code.requirements]))
    const cases = loadVectorCases()
    const unnamed = cases.flatMap((vector) => [...new Set(expectedCodes(vector))]
      .filter((code) => !(rulesOfCode.get(code) ?? []).some((id) => vector.requirements.includes(id)))
      .map((code) => `${vector.id}: ${code} (${(rulesOfCode.get(code) ?? []).join(', ') || 'no rule'})`))
    expect(cases.length).toBeGreaterThan(1000)
    expect(unnamed).toEqual([])
  })

  it('reports what no vector exercises, counting relation violations as codes', () => {
    const catalog = {
      requirements: parseRequirements('99-x.md', '### PAIR-1: a\n- **Profiles:** relations\n### PAIR-2: b\n- **Profiles:** relations\n'),
      codes: parseErrorTables('| `TOOL_RESULT_ORPHAN` | relation | x | |\n| `TURN_NOT_OPEN` | relation | y | |\n'),
      chapterPrefixes: new Map(),
    }
    const vector: VectorCase = {
      id: 'v', title: 't', file: 'f', chapter: '99-x', requirements: ['PAIR-1'], profile: 'relations', review: false,
      steps: [{ operation: 'relations', input: {}, expect: { value: { violations: [{ code: 'TOOL_RESULT_ORPHAN', seq: 3 }] } } }],
    }
    const coverage = computeCoverage(catalog, [vector])
    expect(coverage.uncoveredRequirements).toEqual(['PAIR-2'])
    expect(coverage.uncoveredCodes).toEqual(['TURN_NOT_OPEN'])
  })
})
