// Builds generated/vectors.bundle.json: every vector case expanded to plain JSON inputs (tagged values
// stay tagged), for consumers in other languages. `--check` fails when the committed bundle is stale.
// The bundle only reformats the YAML vectors; it never decides an expectation.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suiteIdentity } from '../conformance/suite-identity.ts'
import { loadVectorCases, projectRoot } from '../conformance/vector-cases.ts'

const bundlePath = join(projectRoot, 'generated/vectors.bundle.json')

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = buildBundle()
  if (process.argv.includes('--check')) {
    let current = ''
    try {
      current = readFileSync(bundlePath, 'utf8')
    } catch {
      // A missing bundle is stale too.
    }
    if (current !== text) {
      console.error('generated/vectors.bundle.json is stale: run `npm run vectors:bundle`')
      process.exit(1)
    }
    console.log('generated/vectors.bundle.json is up to date')
  } else {
    writeFileSync(bundlePath, text)
    console.log(`wrote generated/vectors.bundle.json (${JSON.parse(text).caseCount} cases)`)
  }
}
