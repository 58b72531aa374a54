// Which suite ran: the package version and a content hash of every expanded case. Reports, baselines
// and the JSON bundle all name the suite this way, so anyone can check that a claim was made against
// exactly these vectors.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot, type VectorCase } from './vector-cases.ts'

export interface SuiteIdentity {
  name: string
  version: string
  /** `sha256:` and the hex digest of the expanded cases, in suite order. */
  contentHash: string
  caseCount: number
  /** The folder whose vector files ran instead of the suite's (`--vectors`), when they did. */
  vectors?: string
}

/** The hash of the expanded cases: it changes whenever any input, expectation or case id changes. */
export function suiteContentHash(cases: readonly VectorCase[]): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(cases)).digest('hex')}`
}

function packageJson(): { name: string; version: string } {
  return JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string }
}

/**
 * Pass every case of the suite, not a filtered selection: the identity is the suite's. `vectors`, the
 * folder the cases came from when they are not the suite's own, is named wherever the suite is.
 */
export function suiteIdentity(cases: readonly VectorCase[], vectors?: string): SuiteIdentity {
  const { name, version } = packageJson()
  return { name, version, contentHash: suiteContentHash(cases), caseCount: cases.length, ...(vectors === undefined ? {} : { vectors }) }
}

/** `dsh-session-conformance 0.1.0`, and `(vectors under DIR)` when the cases came from a folder of one's own. */
export function suiteTitle(suite: Pick<SuiteIdentity, 'name' | 'version' | 'vectors'>): string {
  return `${suite.name} ${suite.version}${suite.vectors === undefined ? '' : ` (vectors under ${suite.vectors})`}`
}
