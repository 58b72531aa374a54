// Writes generated/vectors.bundle.json (conformance/vector-bundle.ts builds its text). `--check` fails
// when the committed bundle is stale. A plain entry point, without an "am I the main module" guard: such a
// guard compared paths and URLs and so never matched in a checkout whose path needs URL escaping.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildBundle } from '../conformance/vector-bundle.ts'
import { VECTOR_BUNDLE_FILE } from './generated-files.ts'

// The bundle of the checkout holding this script (the vectors come from the linked conformance/'s).
const bundlePath = join(fileURLToPath(new URL('..', import.meta.url)), VECTOR_BUNDLE_FILE)
const text = buildBundle()
if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(bundlePath, 'utf8')
  } catch {
    // A missing bundle is stale too.
  }
  if (current !== text) {
    console.error(`${VECTOR_BUNDLE_FILE} is stale: run \`npm run vectors:bundle\``)
    process.exit(1)
  }
  console.log(`${VECTOR_BUNDLE_FILE} is up to date`)
} else {
  writeFileSync(bundlePath, text)
  console.log(`wrote ${VECTOR_BUNDLE_FILE} (${JSON.parse(text).caseCount} cases)`)
}
