//! How much each function's code says a task's words, against the other
//! functions of its file: what a task map and the prompt hook read, besides
//! the names, to point at the function a task is about (axios's
//! `generateString`, whose body calls `getRandomValues`, for "replace
//! getRandomValues with crypto module").

use rustc_hash::FxHashMap as HashMap;

use crate::tags::{Def, Kind};

/// Per definition of `defs` (the tags of the file whose text is `text`),
/// how much its lines say the task: the weight of each of the task's `terms`
/// they hold, times ln(n / df) over the file's n functions and methods, df of
/// which hold it (a term in every method of `Panel`, `self.width`, tells none
/// of them apart). Only functions and methods score; the others get 0.
pub(crate) fn code_says(text: &str, defs: &[Def], terms: &[(&str, f64)]) -> Vec<f64> {
    let mut says = vec![0.0; defs.len()];
    let functions: Vec<usize> =
        (0..defs.len()).filter(|&d| matches!(defs[d].kind, Kind::Function | Kind::Method)).collect();
    if functions.is_empty() || terms.is_empty() {
        return says;
    }
    // Per task term, the lines (1-based) holding it.
    let mut lines_of: HashMap<&str, (f64, Vec<u32>)> = HashMap::default();
    let weight = |t: &str| terms.iter().find(|&&(term, _)| term == t).copied();
    for (at, line) in lines_saying(text, terms) {
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

/// The lines of `text` (1-based, as [`str::lines`] cuts them) that may hold
/// one of `terms`: each line, unless that can be told without splitting it
/// into terms. Splitting every line of a long file is most of what reading
/// it costs, and most lines hold none of a task's terms.
fn lines_saying<'t>(text: &'t str, terms: &[(&str, f64)]) -> Vec<(u32, &'t str)> {
    let lines = (1u32..).zip(text.lines());
    // A term is a lowercased piece of a word with at most its ending dropped, or
    // then an `i` added (`entries`, `entry`: `entri`): what is left of it is in the
    // line, whatever the case, where the line is ASCII (Unicode lowercases `K`, the
    // Kelvin sign, to `k`).
    let cores: Option<Vec<&str>> = terms
        .iter()
        .map(|&(term, _)| {
            Some(term.strip_suffix('i').unwrap_or(term)).filter(|c| !c.is_empty() && c.is_ascii())
        })
        .collect();
    let finder = cores.and_then(|cores| {
        aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(cores).ok()
    });
    let Some(finder) = finder else { return lines.collect() };
    let mut found = finder.find_iter(text).map(|m| m.start()).peekable();
    let start_of = |line: &str| line.as_ptr() as usize - text.as_ptr() as usize;
    lines
        .filter(|&(_, line)| {
            let (start, end) = (start_of(line), start_of(line) + line.len());
            // Matches come in order and hold no line break: those before this line are done.
            while found.next_if(|&at| at < start).is_some() {}
            let holds = found.peek().is_some_and(|&at| at < end);
            holds || !line.is_ascii()
        })
        .collect()
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
        let says = code_says(source, &tags.defs, &[("width", 1.0), ("token", 1.0)]);
        let of = |name: &str| says[tags.defs.iter().position(|d| d.name == name).unwrap()];
        // `width` is in every function: nothing; `token` in one of three: ln 3.
        assert!((of("a") - 3f64.ln()).abs() < 1e-9, "{says:?}");
        assert_eq!((of("b"), of("c"), of("D")), (0.0, 0.0, 0.0));
    }

    /// Pieces of lines: identifiers in every case, stems that drop an ending or
    /// turn into an `i`, non-ASCII words (the Kelvin sign lowercases to `k`).
    const PIECES: [&str; 16] = [
        "Entries",
        "entry",
        "parseConfig",
        "PARSE_CONFIG",
        "parsed",
        "\u{212A}ey",
        "key",
        "KEYS",
        "État",
        "etat",
        " ",
        "_",
        "(",
        "\r\n",
        "\n",
        "api",
    ];

    proptest::proptest! {
        /// Every line that holds one of the terms is read: skipping the others changes nothing.
        #[test]
        fn the_lines_left_unread_hold_none_of_the_terms(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..60),
            task in proptest::collection::vec(0..PIECES.len(), 1..4),
        ) {
            let text: String = pieces.iter().map(|&p| PIECES[p]).collect();
            let task: String = task.iter().map(|&p| PIECES[p]).collect::<Vec<_>>().join(" ");
            let terms: Vec<String> = crate::terms::task_terms(&task);
            let terms: Vec<(&str, f64)> = terms.iter().map(|t| (t.as_str(), 1.0)).collect();
            let read: Vec<u32> = lines_saying(&text, &terms).into_iter().map(|(at, _)| at).collect();
            for (at, line) in (1u32..).zip(text.lines()) {
                let mut holds = false;
                crate::terms::visit_terms(line, |t| holds |= terms.iter().any(|&(term, _)| term == t));
                proptest::prop_assert!(!holds || read.contains(&at), "line {at} {line:?} of {text:?}, terms {terms:?}");
            }
        }
    }

    #[test]
    fn only_the_lines_that_may_hold_a_term_are_read() {
        let text = "fn parse_config() {\n    let x = 1;\n    // the Entries\n}\n";
        let read: Vec<u32> =
            lines_saying(text, &[("config", 1.0), ("entri", 1.0)]).into_iter().map(|(at, _)| at).collect();
        assert_eq!(read, [1, 3]);
    }
}
