// Prints every requirement ID and error code of spec/, and exits 1 when the catalog is inconsistent
// (duplicate IDs or codes, codes missing from spec/errors.md, stale requirement columns).
// `--write-columns` rewrites the requirements column of spec/errors.md from the chapters' **Errors:**
// lines (a formatting aid: the chapters decide, the table follows).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { catalogProblems, readSpecCatalog, withRequirementColumns } from '../conformance/spec-catalog.ts'

const specDir = fileURLToPath(new URL('../spec/', import.meta.url))
if (process.argv.includes('--write-columns')) {
  const errorsPath = join(specDir, 'errors.md')
  const { requirements } = readSpecCatalog(specDir)
  writeFileSync(errorsPath, withRequirementColumns(readFileSync(errorsPath, 'utf8'), requirements))
}
const catalog = readSpecCatalog(specDir)

console.log(`# Requirements (${catalog.requirements.length})`)
for (const requirement of catalog.requirements) {
  const codes = requirement.errors.length > 0 ? `  [${requirement.errors.join(', ')}]` : ''
  console.log(`${requirement.id.padEnd(10)} ${requirement.title}  (${requirement.profiles.join(', ')})${codes}`)
}
const rejectionCodes = catalog.codes.filter(code => code.table === 'rejection').length
// The CHANGELOG gives both counts (tests/docs-numbers.test.ts holds it to them).
console.log(`\n# Error codes (${catalog.codes.length}: ${rejectionCodes} rejection codes and the ${catalog.codes.length - rejectionCodes} that repair writes into logs)`)
for (const code of catalog.codes) {
  console.log(`${code.code.padEnd(40)} ${code.kind.padEnd(24)} ${code.requirements.join(', ')}`)
}

const problems = catalogProblems(catalog)
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s) in spec/:`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
