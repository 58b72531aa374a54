// Prints the requirement × vector matrix and the codes × vector counts; exits 1 when any requirement ID
// or rejection code of spec/ has no vector.
import { fileURLToPath } from 'node:url'
import { computeCoverage } from '../conformance/coverage.ts'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'

const catalog = readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url)))
const cases = loadVectorCases()
const coverage = computeCoverage(catalog, cases)

// A withdrawn rule binds nothing, so it is neither listed nor counted (spec/README.md).
console.log(`# Requirements × vectors (${coverage.casesByRequirement.size} requirements in force, ${cases.length} vectors)`)
for (const [id, ids] of coverage.casesByRequirement) {
  const shown = ids.length > 4 ? `${ids.slice(0, 4).join(', ')}, … (+${ids.length - 4})` : ids.join(', ')
  console.log(`${id.padEnd(10)} ${String(ids.length).padStart(3)}  ${shown}`)
}
console.log(`\n# Rejection codes × vectors`)
for (const [code, ids] of coverage.casesByCode) console.log(`${code.padEnd(40)} ${String(ids.length).padStart(3)}`)

const requirementShare = 1 - coverage.uncoveredRequirements.length / coverage.casesByRequirement.size
const codeShare = 1 - coverage.uncoveredCodes.length / coverage.casesByCode.size
console.log(`\nrequirements covered: ${(requirementShare * 100).toFixed(1)}%, codes covered: ${(codeShare * 100).toFixed(1)}%`)
if (coverage.uncoveredRequirements.length + coverage.uncoveredCodes.length > 0) {
  console.error(`without a vector: ${[...coverage.uncoveredRequirements, ...coverage.uncoveredCodes].join(', ')}`)
  process.exit(1)
}
