// Mutation operators that break the session header of a valid log: each breaks one rule of chapter 03
// or 18, so load rejects the log with that rule's code and no seq (PROC-1). The events are left as they
// are, so a second fault in them tells the order of the header checks (META-4, PROC-2).
import { pick, type Chooser } from './choices.ts'
import type { JsonObject } from './events.ts'
import type { LogInput, Mutation, MutationCase } from './mutation-kit.ts'
import { isRecord } from './surface-model.ts'

interface HeaderSpec {
  name: string
  code: string
  rule: string
  /** Changes the (copied) header so that it breaks the rule. */
  edit(header: JsonObject, chooser: Chooser): void
}

function defineHeaderMutation(spec: HeaderSpec): Mutation {
  return {
    name: spec.name,
    code: spec.code,
    operation: 'load',
    rule: spec.rule,
    applicable: (log: LogInput) => isRecord(log.header),
    apply(log, chooser): MutationCase {
      if (!isRecord(log.header)) throw new Error(`${spec.name} needs a log with a header`)
      const header = structuredClone(log.header)
      spec.edit(header, chooser)
      return { mutation: spec.name, operation: 'load', header, events: [...log.events], code: spec.code }
    },
  }
}

export const headerVersionNewer = defineHeaderMutation({
  name: 'header-version-newer', code: 'FORMAT_VERSION_NEWER', rule: 'FMT-2',
  edit: (header, chooser) => { header['version'] = pick(chooser, [1, 2, 0.5]) },
})

/** NaN is older too: it is not greater than 0 (FMT-2). */
export const headerVersionOlder = defineHeaderMutation({
  name: 'header-version-older', code: 'FORMAT_VERSION_OLDER', rule: 'FMT-2',
  edit: (header, chooser) => { header['version'] = pick(chooser, [-1, -0.5, Number.NaN]) },
})

export const headerCreatedAtInvalid = defineHeaderMutation({
  name: 'header-created-at-invalid', code: 'HEADER_FIELD_INVALID', rule: 'META-6',
  edit: (header, chooser) => {
    const value = pick<number | string | null | undefined>(chooser, [-1, 1.5, '1786000000000', null, undefined])
    if (value === undefined) delete header['createdAt']
    else header['createdAt'] = value
  },
})

export const headerCwdRelative = defineHeaderMutation({
  name: 'header-cwd-relative', code: 'HEADER_CWD_NOT_ABSOLUTE', rule: 'META-7',
  edit: (header, chooser) => { header['cwd'] = pick(chooser, ['work/repo', '', 'C:repo', '~/repo', '.']) },
})

/** A member of META-8 with a value it may not have (of the wrong type, or not the one value allowed). */
const WRONG_OPTIONAL_MEMBERS: ReadonlyArray<[string, JsonObject[string]]> = [
  ['parentSession', 5], ['seedLength', -1], ['origin', 'parent'], ['delegationDepth', 1.5], ['agentPreset', null],
]

export const headerMemberInvalid = defineHeaderMutation({
  name: 'header-member-invalid', code: 'HEADER_FIELD_INVALID', rule: 'META-8',
  edit: (header, chooser) => {
    const [member, value] = pick(chooser, WRONG_OPTIONAL_MEMBERS)
    header[member] = value
  },
})

/** Headers that are JSON but no JSON object (META-1): the valid header in an array among them. */
function notObjectHeaders(header: JsonObject): unknown[] {
  return [null, [header], [], header['id'], 0, true]
}

/** The whole header given way to a value that is no object (META-1), checked before anything else of it (META-4). */
export const headerNotObject: Mutation = {
  name: 'header-not-object',
  code: 'HEADER_NOT_OBJECT',
  operation: 'load',
  rule: 'META-1',
  applicable: (log: LogInput) => isRecord(log.header),
  apply(log, chooser): MutationCase {
    if (!isRecord(log.header)) throw new Error('header-not-object needs a log with a header')
    const header = structuredClone(pick(chooser, notObjectHeaders(log.header)))
    return { mutation: 'header-not-object', operation: 'load', header, events: [...log.events], code: 'HEADER_NOT_OBJECT' }
  },
}

export const HEADER_MUTATIONS: readonly Mutation[] = [headerVersionNewer, headerVersionOlder, headerCreatedAtInvalid, headerCwdRelative, headerMemberInvalid, headerNotObject]
