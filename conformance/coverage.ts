// Which vectors exercise which requirement IDs and error codes: the suite's coverage of its own spec.
import type { SpecCatalog } from './spec-catalog.ts'
import type { VectorCase } from './vector-cases.ts'

export interface Coverage {
  casesByRequirement: Map<string, string[]>
  casesByCode: Map<string, string[]>
  uncoveredRequirements: string[]
  uncoveredCodes: string[]
}

/** Codes a case expects: rejections, and relation violations listed in an expected value. */
export function expectedCodes(vector: VectorCase): string[] {
  return vector.steps.flatMap((step) => {
    if ('reject' in step.expect) return [step.expect.reject.code]
    if (!('value' in step.expect)) return []
    const violations = (step.expect.value as { violations?: unknown } | null)?.violations
    return Array.isArray(violations) ? violations.map((violation) => String((violation as { code?: unknown }).code)) : []
  })
}

export function computeCoverage(catalog: SpecCatalog, cases: readonly VectorCase[]): Coverage {
  // A withdrawn rule and a retired code bind nothing, so no vector can exercise them.
  const casesByRequirement = new Map(catalog.requirements.filter((requirement) => !requirement.withdrawn).map((requirement) => [requirement.id, [] as string[]]))
  const rejectionCodes = catalog.codes.filter((code) => code.table === 'rejection' && !code.retired).map((code) => code.code)
  const casesByCode = new Map(rejectionCodes.map((code) => [code, [] as string[]]))
  for (const vector of cases) {
    for (const id of vector.requirements) casesByRequirement.get(id)?.push(vector.id)
    for (const code of new Set(expectedCodes(vector))) casesByCode.get(code)?.push(vector.id)
  }
  return {
    casesByRequirement,
    casesByCode,
    uncoveredRequirements: [...casesByRequirement].filter(([, ids]) => ids.length === 0).map(([id]) => id),
    uncoveredCodes: [...casesByCode].filter(([, ids]) => ids.length === 0).map(([code]) => code),
  }
}
