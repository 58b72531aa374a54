#!/usr/bin/env node
// The published entry point: TypeScript runs through tsx, so there is no build step.
import { register } from 'tsx/esm/api'
import { register as registerCommonJs } from 'tsx/cjs/api'

register()
registerCommonJs()
await import('./cli.ts')
