// XXH64 with seed 0: the content checksum of a zstd frame (RFC 8878, 3.1.1). It can be fed in pieces,
// so `check` computes it while a frame's content streams past and never holds a frame whole.

const MASK = (1n << 64n) - 1n
const PRIME1 = 0x9e3779b185ebca87n
const PRIME2 = 0xc2b2ae3d27d4eb4fn
const PRIME3 = 0x165667b19e3779f9n
const PRIME4 = 0x85ebca77c2b2ae63n
const PRIME5 = 0x27d4eb2f165667c5n
const STRIPE = 32

function rotateLeft(value: bigint, count: bigint): bigint {
  return ((value << count) | (value >> (64n - count))) & MASK
}

function round(accumulator: bigint, input: bigint): bigint {
  return (rotateLeft((accumulator + input * PRIME2) & MASK, 31n) * PRIME1) & MASK
}

function mergeRound(accumulator: bigint, value: bigint): bigint {
  return ((((accumulator ^ round(0n, value)) * PRIME1) & MASK) + PRIME4) & MASK
}

export class Xxh64 {
  private lanes = [(PRIME1 + PRIME2) & MASK, PRIME2, 0n, (MASK + 1n - PRIME1) & MASK]
  /** Bytes not yet consumed by a whole stripe (fewer than 32). */
  private readonly pending = new Uint8Array(STRIPE)
  private pendingLength = 0
  private total = 0

  update(bytes: Uint8Array): void {
    this.total += bytes.length
    let at = 0
    // Stryker disable next-line ConditionalExpression,EqualityOperator: entered with nothing pending, the branch fills the empty buffer from the input and either keeps it pending or hashes it as one stripe, as the path below does
    if (this.pendingLength > 0) {
      const taken = Math.min(STRIPE - this.pendingLength, bytes.length)
      this.pending.set(bytes.subarray(0, taken), this.pendingLength)
      this.pendingLength += taken
      at = taken
      if (this.pendingLength < STRIPE) return
      this.stripe(new DataView(this.pending.buffer), 0)
      this.pendingLength = 0
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    for (; at + STRIPE <= bytes.length; at += STRIPE) this.stripe(view, at)
    this.pending.set(bytes.subarray(at), 0)
    this.pendingLength = bytes.length - at
  }

  private stripe(view: DataView, at: number): void {
    const lanes = this.lanes
    for (let index = 0; index < 4; index++) lanes[index] = round(lanes[index] as bigint, view.getBigUint64(at + 8 * index, true))
  }

  /** The hash of everything given so far. */
  digest(): bigint {
    const lanes = this.lanes as [bigint, bigint, bigint, bigint]
    let hash = this.total >= STRIPE
      ? (rotateLeft(lanes[0], 1n) + rotateLeft(lanes[1], 7n) + rotateLeft(lanes[2], 12n) + rotateLeft(lanes[3], 18n)) & MASK
      : PRIME5
    if (this.total >= STRIPE) for (const lane of lanes) hash = mergeRound(hash, lane)
    hash = (hash + BigInt(this.total)) & MASK
    const tail = new DataView(this.pending.buffer, 0, this.pendingLength)
    let at = 0
    for (; at + 8 <= this.pendingLength; at += 8) hash = (((rotateLeft(hash ^ round(0n, tail.getBigUint64(at, true)), 27n) * PRIME1) & MASK) + PRIME4) & MASK
    if (at + 4 <= this.pendingLength) {
      hash = (((rotateLeft(hash ^ ((BigInt(tail.getUint32(at, true)) * PRIME1) & MASK), 23n) * PRIME2) & MASK) + PRIME3) & MASK
      at += 4
    }
    for (; at < this.pendingLength; at++) hash = (rotateLeft(hash ^ ((BigInt(tail.getUint8(at)) * PRIME5) & MASK), 11n) * PRIME1) & MASK
    hash = ((hash ^ (hash >> 33n)) * PRIME2) & MASK
    hash = ((hash ^ (hash >> 29n)) * PRIME3) & MASK
    return hash ^ (hash >> 32n)
  }

  /** The low 32 bits of the digest: what a zstd frame stores. */
  frameChecksum(): number {
    return Number(this.digest() & 0xffffffffn)
  }
}
