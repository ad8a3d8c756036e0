//! A unified diff of two texts (`--dry-run` shows one per file).

/// Lines of context around each change.
const CONTEXT: usize = 3;
/// Past this many cells the middle of a diff is shown as replaced whole
/// instead of aligned (a settings file never comes near it).
const MAX_CELLS: usize = 4_000_000;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Same,
    Del,
    Add,
}

/// `--- a/name`, `+++ b/name` and `@@` hunks; empty when nothing differs. A
/// missing side is `/dev/null` (a file created or deleted).
pub fn unified(name: &str, old: Option<&str>, new: Option<&str>) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.unwrap_or("").split_inclusive('\n').collect();
    let b: Vec<&str> = new.unwrap_or("").split_inclusive('\n').collect();
    let ops = align(&a, &b);
    // `a/` and `b/` before a relative name, as git writes; `~/...` as it is.
    let side = |prefix: &str, present: bool| match present {
        false => "/dev/null".to_string(),
        true if name.starts_with(['~', '/']) => name.to_string(),
        true => format!("{prefix}{name}"),
    };
    let mut out = format!("--- {}\n+++ {}\n", side("a/", old.is_some()), side("b/", new.is_some()));
    // Walk the ops, cutting hunks where more than 2 * CONTEXT equal lines separate changes.
    let changed: Vec<usize> =
        ops.iter().enumerate().filter(|(_, op)| **op != Op::Same).map(|(i, _)| i).collect();
    let mut start = 0;
    while start < changed.len() {
        let mut end = start;
        while end + 1 < changed.len() && changed[end + 1] - changed[end] <= 2 * CONTEXT {
            end += 1;
        }
        let from = changed[start].saturating_sub(CONTEXT);
        let to = (changed[end] + CONTEXT + 1).min(ops.len());
        hunk(&ops, &a, &b, from, to, &mut out);
        start = end + 1;
    }
    out
}

fn hunk(ops: &[Op], a: &[&str], b: &[&str], from: usize, to: usize, out: &mut String) {
    // Line numbers where the hunk starts on each side.
    let (mut i, mut j) = (0, 0);
    for op in &ops[..from] {
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Del => i += 1,
            Op::Add => j += 1,
        }
    }
    let count = |keep: Op| ops[from..to].iter().filter(|op| **op == Op::Same || **op == keep).count();
    let (old_len, new_len) = (count(Op::Del), count(Op::Add));
    let start = |n: usize, len: usize| if len == 0 { n } else { n + 1 };
    out.push_str(&format!("@@ -{},{old_len} +{},{new_len} @@\n", start(i, old_len), start(j, new_len)));
    for op in &ops[from..to] {
        let (mark, line) = match op {
            Op::Same => {
                (i, j) = (i + 1, j + 1);
                (' ', a[i - 1])
            }
            Op::Del => {
                i += 1;
                ('-', a[i - 1])
            }
            Op::Add => {
                j += 1;
                ('+', b[j - 1])
            }
        };
        out.push(mark);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    }
}

/// The edit script from `a` to `b`: common prefix and suffix, and a longest
/// common subsequence of what is between.
fn align(a: &[&str], b: &[&str]) -> Vec<Op> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (mid_a, mid_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops = vec![Op::Same; prefix];
    if mid_a.len().saturating_mul(mid_b.len()) > MAX_CELLS {
        ops.extend(std::iter::repeat_n(Op::Del, mid_a.len()));
        ops.extend(std::iter::repeat_n(Op::Add, mid_b.len()));
    } else {
        // lcs[i][j]: the longest common subsequence of mid_a[i..] and mid_b[j..].
        let (n, m) = (mid_a.len(), mid_b.len());
        let mut lcs = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * (m + 1) + j] = if mid_a[i] == mid_b[j] {
                    lcs[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    lcs[(i + 1) * (m + 1) + j].max(lcs[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && mid_a[i] == mid_b[j] {
                ops.push(Op::Same);
                (i, j) = (i + 1, j + 1);
            } else if i < n && (j == m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1]) {
                ops.push(Op::Del);
                i += 1;
            } else {
                ops.push(Op::Add);
                j += 1;
            }
        }
    }
    ops.extend(std::iter::repeat_n(Op::Same, suffix));
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_with_context() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        let new = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n";
        assert_eq!(unified("f", Some(old), Some(new)), "--- a/f\n+++ b/f\n@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n");
        let new = "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n";
        assert_eq!(
            unified("f", Some(old), Some(new)),
            "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n@@ -7,4 +7,4 @@\n g\n h\n i\n-j\n+J\n"
        );
        assert_eq!(unified("f", Some(old), Some(old)), "");
    }

    #[test]
    fn created_deleted_and_no_final_newline() {
        assert_eq!(unified("f", None, Some("{}\n")), "--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+{}\n");
        assert_eq!(
            unified("f", Some("{}"), None),
            "--- a/f\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-{}\n\\ No newline at end of file\n"
        );
    }
}
