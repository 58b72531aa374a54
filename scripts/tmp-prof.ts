import { checkFile } from '../conformance/check/check-file.ts'
import { RequirementIndex } from '../conformance/check/requirements.ts'
const req = new RequirementIndex()
const t0 = process.cpuUsage()
const r = checkFile(process.argv[2]!, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req)
const d = process.cpuUsage(t0); console.log((d.user + d.system) / 1000, r.status)
