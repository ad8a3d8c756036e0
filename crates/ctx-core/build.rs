//! Lays out the o200k_base vocabulary as a table the tokenizer reads in
//! place (see src/tokens/vocab_table.rs), from tiktoken-rs's copy of it.

#[path = "src/tokens/vocab_table.rs"]
mod vocab_table;

use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/tokens/vocab_table.rs");
    let bpe = tiktoken_rs::o200k_base().expect("tiktoken-rs builds o200k_base");
    // o200k_base's ordinary tokens are ranks 0..199_998; specials come after.
    let ranks = 199_998;
    let tokens: Vec<Vec<u8>> =
        (0..ranks).map(|rank| bpe.decode_bytes(&[rank as u32]).unwrap_or_default()).collect();

    let slots = vocab_table::slot_count(ranks);
    let mut table = vec![0_u32; slots];
    for (rank, token) in tokens.iter().enumerate().filter(|(_, t)| !t.is_empty()) {
        let mut slot = vocab_table::slot_hash(token) as usize & (slots - 1);
        while table[slot] != 0 {
            slot = (slot + 1) & (slots - 1);
        }
        table[slot] = rank as u32 + 1;
    }

    let mut out: Vec<u8> = Vec::new();
    let mut push = |value: usize| out.extend_from_slice(&(value as u32).to_le_bytes());
    push(vocab_table::MAGIC as usize);
    push(ranks);
    push(slots);
    let mut offset = 0;
    push(offset);
    for token in &tokens {
        offset += token.len();
        push(offset);
    }
    for &entry in &table {
        push(entry as usize);
    }
    for token in &tokens {
        out.extend_from_slice(token);
    }
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("o200k.table");
    std::fs::write(&path, out).expect("write the o200k table");
}
