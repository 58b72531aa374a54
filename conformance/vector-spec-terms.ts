// What a vector case may name from spec/: requirement IDs its chapters define (not a withdrawn one),
// rejection codes of spec/errors.md (not a retired one), and the operations of the case's profile
// (spec/profiles.md). The loader refuses a case that names anything else, so that a folder of one's
// own (`--vectors DIR`) is held to the same terms as the suite's vectors, in `run` and `list` as in
// the tests.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseNameTable, readSpecCatalog, WRITER_CHECKS } from './spec-catalog.ts'

export interface SpecTerms {
  requirements: ReadonlySet<string>
  /** Requirement IDs the spec keeps for a dropped rule: no case may cite them. */
  withdrawn: ReadonlySet<string>
  rejectionCodes: ReadonlySet<string>
  /** Rejection codes no longer raised: no case may expect them. */
  retired: ReadonlySet<string>
  /** Each profile's operations, from the table of spec/profiles.md. */
  operationsOf: ReadonlyMap<string, ReadonlySet<string>>
  /** The spec's chapters, as a vector file names its own (`05-surface`): the chapter table of spec/README.md. */
  chapters: readonly string[]
}

export function readSpecTerms(specDir: string): SpecTerms {
  const catalog = readSpecCatalog(specDir)
  return {
    requirements: new Set(catalog.requirements.map((requirement) => requirement.id)),
    withdrawn: new Set(catalog.requirements.filter((requirement) => requirement.withdrawn).map((requirement) => requirement.id)),
    rejectionCodes: new Set(catalog.codes.filter((code) => code.table === 'rejection').map((code) => code.code)),
    retired: new Set(catalog.codes.filter((code) => code.retired).map((code) => code.code)),
    operationsOf: parseNameTable(readFileSync(join(specDir, 'profiles.md'), 'utf8')),
    chapters: [...catalog.chapterPrefixes.keys()].map((chapter) => chapter.replace(/\.md$/, '')),
  }
}

/** What a case names, as the loader has expanded it. */
export interface NamedTerms {
  requirements: readonly string[]
  profile: string
  steps: readonly { operation: string; expect: object }[]
}

/**
 * A term the spec does not give the case: where it is in the case (a path into its YAML, and the key
 * of the member at fault in the mapping there, whose line is the term's), and why.
 */
export interface TermFault {
  where: (string | number)[]
  key?: string
  message: string
}

function stepFault(terms: SpecTerms, profile: string, step: NamedTerms['steps'][number], index: number): TermFault | undefined {
  const operations = terms.operationsOf.get(profile)
  if (!operations?.has(step.operation) && !(profile === 'writer' && WRITER_CHECKS.has(step.operation))) {
    return { where: ['steps', index], key: step.operation, message: `${step.operation} is not an operation of the ${profile} profile (spec/profiles.md)` }
  }
  if (!('reject' in step.expect)) return undefined
  const reject = step.expect.reject as { code: string; seq?: unknown; line?: unknown }
  if (!terms.rejectionCodes.has(reject.code)) {
    return { where: ['steps', index, 'expect', 'reject'], key: 'code', message: `${reject.code} is not a rejection code of spec/errors.md` }
  }
  if (terms.retired.has(reject.code)) {
    return { where: ['steps', index, 'expect', 'reject'], key: 'code', message: `${reject.code} is retired (spec/errors.md): no rule raises it any more` }
  }
  if (reject.seq === undefined && reject.line === undefined) {
    return { where: ['steps', index, 'expect'], key: 'reject', message: 'a rejection says where it lies: its seq or its line, or null where the spec says it carries none' }
  }
  return undefined
}

/** The first term of the case that spec/ does not give it, or undefined. */
export function termFault(terms: SpecTerms, named: NamedTerms): TermFault | undefined {
  const unknown = named.requirements.findIndex((id) => !terms.requirements.has(id))
  if (unknown >= 0) return { where: ['requirements', unknown], message: `${named.requirements[unknown]} is not a requirement ID of spec/` }
  const withdrawn = named.requirements.findIndex((id) => terms.withdrawn.has(id))
  if (withdrawn >= 0) return { where: ['requirements', withdrawn], message: `${named.requirements[withdrawn]} is withdrawn (spec/): a case cannot exercise a dropped rule` }
  for (const [index, step] of named.steps.entries()) {
    const fault = stepFault(terms, named.profile, step, index)
    if (fault !== undefined) return fault
  }
  return undefined
}
