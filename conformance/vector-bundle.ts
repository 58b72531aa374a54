// The text of generated/vectors.bundle.json: every vector case expanded to plain JSON inputs (tagged
// values stay tagged), for consumers in other languages. scripts/vectors-bundle.ts writes and checks it.
// The bundle only reformats the YAML vectors; it never decides an expectation.
import { suiteIdentity } from './suite-identity.ts'
import { loadVectorCases } from './vector-cases.ts'

export function buildBundle(): string {
  const cases = loadVectorCases()
  const suite = suiteIdentity(cases)
  const bundle = {
    $schema: 'https://dsh-session-conformance.dev/schemas/v0/vector-bundle.schema.json',
    comment: 'Generated from vectors/**/*.yaml by scripts/vectors-bundle.ts — do not edit. Format: vectors/README.md.',
    suiteVersion: suite.version,
    contentHash: suite.contentHash,
    caseCount: suite.caseCount,
    cases,
  }
  // One case per line: diffs stay readable without making the file huge.
  const lines = cases.map((vector) => JSON.stringify(vector))
  const head = JSON.stringify({ ...bundle, cases: [] }).slice(0, -3)
  return `${head}[\n${lines.join(',\n')}\n]}\n`
}
