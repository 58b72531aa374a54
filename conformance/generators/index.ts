// The generator library: a model of a v0 session writer that builds valid logs (log-model.ts), the
// mutation operators that break exactly one rule (mutations.ts), and fast-check arbitraries over both
// (arbitraries.ts). See tests/properties/README.md.
export { chooserFromInts, saltedChooser, seededChooser, type Chooser } from './choices.ts'
export { generateLog, type Ending, type GeneratedLog, type LogFacts, type LogOptions } from './log-model.ts'
export type { LogEvent, StorageHeader } from './events.ts'
export { candidateOf } from './mutation-kit.ts'
export { balancedCuts, chooseLegalRegion, cutCounters, surfaceTimeline, type SurfaceNode } from './surface-model.ts'
export { inOlderShapes, isOlderShape } from './older-shapes.ts'
export { withResultOrphaned } from './orphaning-replace.ts'
export { MUTATIONS, applicableMutations, mutate, mutationNamed, type LogInput, type Mutation, type MutationCase, type MutationOperation } from './mutations.ts'
export {
  batchCutsArbitrary, choicesArbitrary, generatedLogArbitrary, mutationCaseArbitrary, splitIntoBatches, validLogArbitrary, type SizeOptions,
} from './arbitraries.ts'
