//! The layout of the o200k vocabulary table, shared by `build.rs` (which
//! writes it from tiktoken-rs's vocabulary at compile time) and the
//! tokenizer (which reads it in place: nothing to parse when a process
//! starts, where building tiktoken-rs's maps takes ~0.2 s).
//!
//! Little-endian `u32`s, then bytes:
//! `[MAGIC, ranks, slots, offsets[ranks + 1]..., slots[slots]..., token bytes...]`.
//! Token `r`'s bytes are `bytes[offsets[r]..offsets[r + 1]]` (empty for a
//! rank the vocabulary skips). `slots` is an open-addressing hash table
//! (linear probing, [`slot_hash`]) holding `rank + 1`, or 0 when empty.

/// Identifies the layout; bump it when the layout changes.
pub const MAGIC: u32 = 0x6f32_0001;

/// Where a token's probe sequence starts (FNV-1a, 64-bit).
pub fn slot_hash(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The slot count for `ranks` tokens: a power of two, at most half full.
pub fn slot_count(ranks: usize) -> usize {
    (ranks * 2).next_power_of_two()
}
