//! How much each function's code says a task's words, against the other
//! functions of its file: what a task map and the prompt hook read, besides
//! the names, to point at the function a task is about (axios's
//! `generateString`, whose body calls `getRandomValues`, for "replace
//! getRandomValues with crypto module").

use rustc_hash::FxHashMap as HashMap;

use crate::tags::{Def, Kind};

/// Per definition of `defs` (the tags of the file whose text is `text`),
/// how much its lines say the task: the weight (`weight`: `None` for a word
/// that is none of the task's) of each task term they hold, times ln(n / df)
/// over the file's n functions and methods, df of which hold it (a term in
/// every method of `Panel`, `self.width`, tells none of them apart). Only
/// functions and methods score; the others get 0.
pub(crate) fn code_says<'w>(
    text: &str,
    defs: &[Def],
    weight: impl Fn(&str) -> Option<(&'w str, f64)>,
) -> Vec<f64> {
    let mut says = vec![0.0; defs.len()];
    let functions: Vec<usize> =
        (0..defs.len()).filter(|&d| matches!(defs[d].kind, Kind::Function | Kind::Method)).collect();
    if functions.is_empty() {
        return says;
    }
    // Per task term, the lines (1-based) holding it.
    let mut lines_of: HashMap<&str, (f64, Vec<u32>)> = HashMap::default();
    for (k, line) in text.lines().enumerate() {
        let at = k as u32 + 1;
        crate::terms::visit_terms(line, |t| {
            if let Some((term, w)) = weight(t) {
                let (_, lines) = lines_of.entry(term).or_insert((w, Vec::new()));
                if lines.last() != Some(&at) {
                    lines.push(at);
                }
            }
        });
    }
    let holds = |d: usize, lines: &[u32]| {
        let def = &defs[d];
        let at = lines.partition_point(|&l| l < def.line);
        lines.get(at).is_some_and(|&l| l <= def.end_line)
    };
    let n = functions.len() as f64;
    for (w, lines) in lines_of.values() {
        let holding: Vec<usize> = functions.iter().copied().filter(|&d| holds(d, lines)).collect();
        if holding.is_empty() {
            continue;
        }
        let telling = w * (n / holding.len() as f64).ln();
        for d in holding {
            says[d] += telling;
        }
    }
    says
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn a_word_few_functions_hold_says_more_than_one_all_hold() {
        let source = "def a(width):\n    return width + token\n\ndef b(width):\n    return width\n\n\
                      def c(width):\n    return width\n\nclass D:\n    token = 1\n";
        let tags = crate::tags::extract(Lang::Python, source).unwrap();
        let weight = |t: &str| ["width", "token"].into_iter().find(|w| *w == t).map(|w| (w, 1.0));
        let says = code_says(source, &tags.defs, weight);
        let of = |name: &str| says[tags.defs.iter().position(|d| d.name == name).unwrap()];
        // `width` is in every function: nothing; `token` in one of three: ln 3.
        assert!((of("a") - 3f64.ln()).abs() < 1e-9, "{says:?}");
        assert_eq!((of("b"), of("c"), of("D")), (0.0, 0.0, 0.0));
    }
}
