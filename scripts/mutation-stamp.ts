// `npm run mutation`, before `stryker run`: writes the stamp of the run's inputs (scripts/mutation-inputs.ts)
// to reports/mutation/inputs.json, so that docs/mutation.md carries the inputs the run started from, not
// those of when it ended (a run takes most of an hour, and an input may be edited meanwhile).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MUTATION_START_STAMP, mutationInputsStamp } from './mutation-inputs.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const path = join(root, MUTATION_START_STAMP)
mkdirSync(dirname(path), { recursive: true })
writeFileSync(path, `${JSON.stringify(await mutationInputsStamp(root))}\n`)
console.log(`wrote ${MUTATION_START_STAMP}`)
