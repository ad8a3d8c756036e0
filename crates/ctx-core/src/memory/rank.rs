//! `ctx_rank`: bm25 as an FTS5 auxiliary function whose IDFs the caller
//! passes in.
//!
//! FTS5's own `bm25()` begins every query by counting, for each phrase,
//! every row that contains it (a full pass over its posting list), and
//! `ORDER BY bm25(...)` then scores every match. Over a large history a
//! common word costs both passes in full: `the` in 425,000 of 1,000,000
//! records took 16 ms to count and as much again to score, however small
//! k. The lexical channel (`search.rs`) instead estimates each phrase's
//! document frequency from a bounded scan and scores a bounded window of
//! matches; this function is the scoring half. Its formula is FTS5's
//! bm25 (k1 = 1.2, b = 0.75, per-column weights on the term frequency,
//! the row's length over all columns against the average).
//!
//! Call: `ctx_rank(records_fts, idfs)`, `idfs` a blob of little-endian f64
//! IDFs, one a phrase of the MATCH expression, in order. Higher is better.

use std::ffi::{c_int, c_void};
use std::ptr;

use rusqlite::Connection;
use rusqlite::ffi;

/// The columns of `records_fts` (title, body, tags) and their weights.
const WEIGHTS: [f64; 3] = [2.0, 1.0, 1.5];
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// bm25's IDF of a phrase found in `df` of `rows` rows (FTS5's, floored
/// the same way so a phrase in most rows still counts a little).
pub(crate) fn idf(rows: f64, df: f64) -> f64 {
    let idf = ((rows - df + 0.5) / (df + 0.5)).ln();
    if idf > 1e-6 { idf } else { 1e-6 }
}

/// Register `ctx_rank` on `conn`.
pub(crate) fn register(conn: &Connection) -> rusqlite::Result<()> {
    let failed = |what: &str| {
        rusqlite::Error::SqliteFailure(
            ffi::Error::new(ffi::SQLITE_ERROR),
            Some(format!("cannot register ctx_rank with FTS5: {what}")),
        )
    };
    // SAFETY: `conn.handle()` is the live connection `conn` owns; the
    // statement is prepared, stepped and finalized here, and `api` is
    // written by SQLite (the documented `SELECT fts5(?1)` handshake) while
    // the pointer bound to it is alive. `fts5_api` lives as long as the
    // connection, and `ctx_rank` has no user data to free.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(db, c"SELECT fts5(?1)".as_ptr(), -1, &mut stmt, ptr::null_mut());
        if rc != ffi::SQLITE_OK {
            return Err(failed("no fts5() function"));
        }
        let mut api: *mut ffi::fts5_api = ptr::null_mut();
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast::<c_void>(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        if api.is_null() || (*api).iVersion < 2 {
            return Err(failed("no fts5_api"));
        }
        let Some(create) = (*api).xCreateFunction else { return Err(failed("no xCreateFunction")) };
        let rc = create(api, c"ctx_rank".as_ptr(), ptr::null_mut(), Some(ctx_rank), None);
        if rc != ffi::SQLITE_OK {
            return Err(failed("xCreateFunction failed"));
        }
    }
    Ok(())
}

/// The auxiliary function. Any failure to read the match makes the score 0
/// (the row still matched); a missing IDF blob is an SQL error.
unsafe extern "C" fn ctx_rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n_val: c_int,
    values: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls this with valid `api`, `fts` and `ctx` for the
    // current row, and `values` holding `n_val` arguments; the blob it
    // returns is valid until the next call on that value.
    unsafe {
        if n_val != 1 || values.is_null() {
            ffi::sqlite3_result_error(ctx, c"ctx_rank(records_fts, idfs)".as_ptr(), -1);
            return;
        }
        let value = *values;
        let bytes = ffi::sqlite3_value_bytes(value);
        let blob = ffi::sqlite3_value_blob(value).cast::<u8>();
        let idfs: Vec<f64> = if blob.is_null() || bytes <= 0 {
            Vec::new()
        } else {
            std::slice::from_raw_parts(blob, bytes as usize)
                .chunks_exact(8)
                .map(|chunk| {
                    let mut word = [0u8; 8];
                    word.copy_from_slice(chunk);
                    f64::from_le_bytes(word)
                })
                .collect()
        };
        let score = score(&*api, fts, &idfs).unwrap_or(0.0);
        ffi::sqlite3_result_double(ctx, score);
    }
}

/// bm25 of the current row, or `None` when FTS5 could not say.
///
/// # Safety
/// `api` and `fts` must be the ones SQLite passed to the auxiliary function.
unsafe fn score(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context, idfs: &[f64]) -> Option<f64> {
    // SAFETY: the function pointers are FTS5's own and called as documented.
    unsafe {
        let mut instances: c_int = 0;
        if (api.xInstCount?)(fts, &mut instances) != ffi::SQLITE_OK {
            return None;
        }
        let mut frequency = vec![0f64; idfs.len()];
        for i in 0..instances {
            let (mut phrase, mut column, mut offset) = (0, 0, 0);
            if (api.xInst?)(fts, i, &mut phrase, &mut column, &mut offset) != ffi::SQLITE_OK {
                return None;
            }
            let weight = usize::try_from(column).ok().and_then(|c| WEIGHTS.get(c)).copied().unwrap_or(1.0);
            if let Some(slot) = usize::try_from(phrase).ok().and_then(|p| frequency.get_mut(p)) {
                *slot += weight;
            }
        }
        let (mut length, mut rows, mut total): (c_int, i64, i64) = (0, 0, 0);
        if (api.xColumnSize?)(fts, -1, &mut length) != ffi::SQLITE_OK
            || (api.xRowCount?)(fts, &mut rows) != ffi::SQLITE_OK
            || (api.xColumnTotalSize?)(fts, -1, &mut total) != ffi::SQLITE_OK
        {
            return None;
        }
        let average = if rows > 0 { total as f64 / rows as f64 } else { 1.0 };
        let norm = K1 * (1.0 - B + B * f64::from(length) / average.max(1e-9));
        Some(
            frequency
                .iter()
                .zip(idfs)
                .filter(|(tf, _)| **tf > 0.0)
                .map(|(tf, idf)| idf * tf * (K1 + 1.0) / (tf + norm))
                .sum(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With exact IDFs, ctx_rank orders and scores rows as FTS5's bm25 does.
    #[test]
    fn ctx_rank_agrees_with_bm25_given_exact_idfs() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE t USING fts5(title, body, tags, tokenize = 'porter unicode61');
             INSERT INTO t VALUES ('token refresh', 'the refresh token rotates', '');
             INSERT INTO t VALUES ('', 'a token', 'auth');
             INSERT INTO t VALUES ('', 'refresh refresh refresh the cache of tokens', 'cache');
             INSERT INTO t VALUES ('', 'nothing to see', '');",
        )
        .unwrap();
        let query = "\"token\" OR \"refresh\"";
        let count = |phrase: &str| -> f64 {
            conn.query_row("SELECT count(*) FROM t WHERE t MATCH ?1", [phrase], |r| r.get::<_, i64>(0))
                .unwrap() as f64
        };
        let idfs = [idf(4.0, count("\"token\"")), idf(4.0, count("\"refresh\""))];
        let blob: Vec<u8> = idfs.iter().flat_map(|x| x.to_le_bytes()).collect();
        let ours: Vec<(i64, f64)> = conn
            .prepare("SELECT rowid, ctx_rank(t, ?2) FROM t WHERE t MATCH ?1 ORDER BY rowid")
            .unwrap()
            .query_map(rusqlite::params![query, blob], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let theirs: Vec<(i64, f64)> = conn
            .prepare("SELECT rowid, -bm25(t, 2.0, 1.0, 1.5) FROM t WHERE t MATCH ?1 ORDER BY rowid")
            .unwrap()
            .query_map([query], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(ours.len(), 3);
        for ((id, a), (id2, b)) in ours.iter().zip(&theirs) {
            assert_eq!(id, id2);
            assert!((a - b).abs() < 1e-9, "row {id}: ctx_rank {a}, bm25 {b}");
        }
        let err =
            conn.query_row("SELECT ctx_rank(t) FROM t WHERE t MATCH 'token'", [], |r| r.get::<_, f64>(0));
        assert!(err.is_err());
    }
}
