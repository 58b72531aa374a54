// The seven rows of the acceptance table (spec/acceptance.md) for one audited log, as plain data: each
// row a verdict (pass, fail, warn or human) with the evidence behind it. Each row lives in its own
// module; this one puts them in the table's order and handles a log that does not load.
import type { AuditBudget, AuditReplacement, AuditRow } from '../../generated/types/index.ts'
import type { AuditedLog } from './log.ts'
import { auditReplacements, measureMessages } from './replacements.ts'
import { rawFactsRow } from './row-raw-facts.ts'
import { isSurfaceRejection, surfaceLegalityRow, surfaceRejectedRow } from './row-surface.ts'
import { constraintRow } from './row-constraints.ts'
import { isRequestRejection, requestRebuildRow, requestRejectedRow } from './row-request.ts'
import { persistenceRow } from './row-persistence.ts'
import { failureRecoveryRow } from './row-recovery.ts'
import { auditBudget, budgetRow } from './row-budget.ts'
import type { TokenCounter } from './tokens.ts'
import { notEvaluated } from './verdicts.ts'

export interface AuditRows {
  rows: AuditRow[]
  replacements: AuditReplacement[]
  budget: AuditBudget | null
}

export function auditRows(log: AuditedLog, counter: TokenCounter): AuditRows {
  const loaded = log.loaded
  if (loaded === undefined) {
    const rejection = log.info.rejection
    const refused = rejection?.class === 'refusal'
    const reason = rejection !== null && refused
      ? `${rejection.operation} refuses it with ${rejection.code}, which is no sign of damage (FMT-5): this reader cannot read the log`
      : `${rejection?.operation ?? 'load'} rejects it with ${rejection?.code ?? 'an error'}`
    const rows = [
      rawFactsRow(log),
      rejection !== null && isSurfaceRejection(rejection) ? surfaceRejectedRow(rejection, log.rejectionRule) : notEvaluated('surface-legality', reason, refused),
      notEvaluated('constraint-preservation', reason, refused),
      rejection !== null && isRequestRejection(rejection) ? requestRejectedRow(rejection) : notEvaluated('request-rebuild', reason, refused),
      persistenceRow(log),
      notEvaluated('failure-recovery', reason, refused),
      notEvaluated('budget', reason, refused),
    ]
    return { rows, replacements: [], budget: null }
  }
  const measure = measureMessages(loaded.events, counter)
  const replacements = auditReplacements(loaded, measure)
  const budget = auditBudget(log, loaded, replacements, measure, counter)
  const rows = [
    rawFactsRow(log),
    surfaceLegalityRow(loaded),
    constraintRow(replacements, counter),
    requestRebuildRow(loaded),
    persistenceRow(log),
    failureRecoveryRow(loaded),
    budgetRow(budget, replacements, counter, log.info.encoding),
  ]
  return { rows, replacements, budget }
}
