// Every mutation operator, each tagged with the error code the reference must report and the operation
// that reports it (load, append or relations). The differential fuzzer and the properties share them.
import type { Chooser } from './choices.ts'
import { APPEND_MUTATIONS } from './append-mutations.ts'
import { DOMAIN_MUTATIONS } from './domain-mutations.ts'
import { ENVELOPE_MUTATIONS } from './envelope-mutations.ts'
import { HEADER_MUTATIONS } from './header-mutations.ts'
import { LOAD_MUTATIONS } from './load-mutations.ts'
import { RELATION_MUTATIONS } from './relation-mutations.ts'
import type { LogInput, Mutation, MutationCase } from './mutation-kit.ts'

export type { LogInput, Mutation, MutationCase, MutationOperation } from './mutation-kit.ts'

export const MUTATIONS: readonly Mutation[] = [...LOAD_MUTATIONS, ...ENVELOPE_MUTATIONS, ...HEADER_MUTATIONS, ...APPEND_MUTATIONS, ...RELATION_MUTATIONS, ...DOMAIN_MUTATIONS]

export function mutationNamed(name: string): Mutation {
  const found = MUTATIONS.find(mutation => mutation.name === name)
  if (found === undefined) throw new Error(`no mutation operator named ${name}`)
  return found
}

export function applicableMutations(log: LogInput, among: readonly Mutation[] = MUTATIONS): Mutation[] {
  return among.filter(mutation => mutation.applicable(log))
}

/** One applicable operator, chosen and applied; undefined when none applies. */
export function mutate(log: LogInput, chooser: Chooser, among: readonly Mutation[] = MUTATIONS): MutationCase | undefined {
  const candidates = applicableMutations(log, among)
  if (candidates.length === 0) return undefined
  return candidates[chooser.int(candidates.length)]!.apply(log, chooser)
}
