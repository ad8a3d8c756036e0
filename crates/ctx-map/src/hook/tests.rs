//! The prompt hook's lines, file by file.
//! Declared `#[cfg(test)] mod tests;` in `hook.rs`: compiled for tests only.

use super::*;

fn file(path: &str, defs: &[&str]) -> IndexedFile {
    let defs = defs
        .iter()
        .map(|name| crate::tags::Def {
            name: (*name).into(),
            kind: crate::tags::Kind::Function,
            line: 1,
            end_line: 1,
            signature: String::new(),
            left_out: Vec::new(),
            parent: None,
            deprecated: false,
        })
        .collect();
    let tags = crate::tags::FileTags { defs, ..Default::default() };
    IndexedFile { path: path.into(), lang: "python".into(), size: 0, hash: [0; 32], tags }
}

/// A root no file is under: the code of none is read.
const NOWHERE: &str = "/nonexistent/ctx-hook-tests";

/// `file`'s line for `prompt`, its code unread and nothing written as code.
fn unread_line(file: &IndexedFile, prompt: &str) -> String {
    file_line(Path::new(NOWHERE), file, &prompt_terms(prompt), &HashSet::default(), Vec::new)
}

/// Rust `source` tagged as the file at `path`.
fn rust_file(path: &str, source: &str) -> IndexedFile {
    let tags = crate::tags::extract(crate::lang::Lang::Rust, source).unwrap();
    IndexedFile { path: path.into(), lang: "rust".into(), size: 1, hash: [0; 32], tags }
}

/// A JavaScript file at `path` under a scratch root, written and tagged, and
/// that root (kept while it is).
fn written_js(path: &str, source: &str) -> (tempfile::TempDir, IndexedFile) {
    let dir = tempfile::tempdir().unwrap();
    let at = dir.path().join(path);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    std::fs::write(at, source).unwrap();
    let tags = crate::tags::extract(crate::lang::Lang::JavaScript, source).unwrap();
    (dir, IndexedFile { path: path.into(), lang: "javascript".into(), size: 1, hash: [0; 32], tags })
}

#[test]
fn the_function_whose_code_says_the_prompt_is_named() {
    // axios's `lib/utils.js`: no name says "getRandomValues", `generateString`'s code does.
    let source = "function isString(thing) {\n  return typeof thing === 'string';\n}\n\n\
                  const generateString = (size) => {\n  crypto.getRandomValues(new Uint32Array(size));\n};\n\n\
                  function isStream(thing) {\n  return thing.pipe;\n}\n";
    let (dir, file) = written_js("lib/utils.js", source);
    let words = prompt_terms("replace getRandomValues with the crypto module");
    let line = file_line(dir.path(), &file, &words, &HashSet::default(), Vec::new);
    assert_eq!(line, "- lib/utils.js: generateString (l. 5)\n");
    // Unread, the file is named alone.
    let line = file_line(Path::new(NOWHERE), &file, &words, &HashSet::default(), Vec::new);
    assert_eq!(line, "- lib/utils.js\n");
}

#[test]
fn a_setter_is_named_beside_its_getter() {
    // koa's `lib/response.js`: `set body` holds what a response does with a body.
    let source = "module.exports = {\n  get body () {\n    return this._body\n  },\n\n  \
                  set body (val) {\n    if (isStream(val)) this.attachStream(val)\n    this._body = val\n  },\n}\n";
    let (dir, file) = written_js("lib/response.js", source);
    let words = prompt_terms("a stream body is attached twice");
    let line = file_line(dir.path(), &file, &words, &HashSet::default(), Vec::new);
    assert_eq!(line, "- lib/response.js: set body (l. 6), body (l. 2)\n");
}

#[test]
fn a_trait_impl_s_associated_type_is_no_definition_of_its_name() {
    // reqwest's `impl Service<…> for HyperService { type Error = crate::Error; … }`.
    let rust = "pub struct HyperService;\nimpl Service for HyperService {\n    type Error = crate::Error;\n    \
                fn call(&self) {}\n}\n";
    let file = rust_file("src/client.rs", rust);
    let prompt = "add `Error::is_dns()` to identify DNS resolution failures";
    let line = file_line(
        Path::new(NOWHERE),
        &file,
        &prompt_terms(prompt),
        &crate::graph::code_names(prompt),
        Vec::new,
    );
    assert_eq!(line, "- src/client.rs\n");
}

#[test]
fn a_method_is_named_with_its_class_and_the_class_the_prompt_names_leads() {
    let source = "class StringTransformer:\n    def do_transform(self, line):\n        pass\n\n\
                  class StringMerger(StringTransformer):\n    def do_transform(self, line):\n        pass\n\n\
                  def transform_line(line):\n    pass\n";
    let file = crate::index::python_file("src/black/trans.py", source);
    let prompt = "avoid quadratic per-leaf copy in StringMerger.do_transform";
    let line = file_line(
        Path::new(NOWHERE),
        &file,
        &prompt_terms(prompt),
        &crate::graph::code_names(prompt),
        Vec::new,
    );
    assert!(line.contains(" StringMerger.do_transform (l. 6)") && !line.contains("(l. 2)"), "{line}");
    // Words that name none of its definitions: the file's most important ones, where it
    // still defines them, at the top level.
    let outline = || ["StringMerger", "gone", "do_transform", "transform_line"].map(String::from).to_vec();
    let line = file_line(
        Path::new(NOWHERE),
        &file,
        &prompt_terms("speed up the splitter"),
        &HashSet::default(),
        outline,
    );
    assert_eq!(line, "- src/black/trans.py: StringMerger (l. 5), transform_line (l. 9)\n");
    assert_eq!(unread_line(&file, "speed up the splitter"), "- src/black/trans.py\n");
    // Rust's methods are their type's, with its path separator.
    let rust = "pub struct Value;\nimpl<'a> Value<'a> {\n    pub fn push_element(&mut self) {}\n}\n";
    let file = rust_file("src/value.rs", rust);
    assert_eq!(
        unread_line(&file, "push_element drops the value"),
        "- src/value.rs: Value::push_element (l. 3), Value (l. 1)\n"
    );
}

#[test]
fn a_function_assigned_to_a_property_is_named_as_assigned() {
    let js = "res.send = function send(body) {\n  return this\n}\n\
              Reply.prototype.header = function (key, value) {\n  return this\n}\n\
              module.exports.sendFile = sendFile\nfunction sendFile(path) {}\n";
    let tags = crate::tags::extract(crate::lang::Lang::JavaScript, js).unwrap();
    let file = IndexedFile {
        path: "lib/response.js".into(),
        lang: "javascript".into(),
        size: 1,
        hash: [0; 32],
        tags,
    };
    let line = unread_line(&file, "send and header and sendFile");
    // (`header`, one name's word, tells more than `send`, two names'.)
    assert_eq!(line, "- lib/response.js: sendFile (l. 8), Reply.header (l. 4), res.send (l. 1)\n");
}

#[test]
fn what_the_prompt_writes_as_code_leads_its_file_s_line() {
    // jinja's `environment.py`: a helper says two of the prompt's words, the method it names one.
    let source = "class Template:\n    def _get_default_module_async(self):\n        pass\n\n\
                  class Environment:\n    def overlay(self, enable_async=False):\n        pass\n";
    let file = crate::index::python_file("src/jinja2/environment.py", source);
    let prompt = "wrong default for `Environment.overlay(enable_async)` with async";
    let line = file_line(
        Path::new(NOWHERE),
        &file,
        &prompt_terms(prompt),
        &crate::graph::code_names(prompt),
        Vec::new,
    );
    assert!(line.starts_with("- src/jinja2/environment.py: Environment.overlay (l. 6), "), "{line}");
    let line = unread_line(&file, prompt);
    assert!(line.starts_with("- src/jinja2/environment.py: Template._get_default_module_async"), "{line}");
}

fn repo() -> Vec<IndexedFile> {
    let names = file;
    let mut files = vec![
        names("json/decoder.py", &["JSONDecoder", "scanstring", "JSONDecodeError"]),
        names("json/encoder.py", &["JSONEncoder", "encode_basestring"]),
        names("http/client.py", &["HTTPConnection", "HTTPResponse"]),
        names("argparse.py", &["ArgumentParser", "Namespace"]),
    ];
    // Many files with common words in their names.
    for i in 0..40 {
        files.push(names(&format!("pkg/test_mod{i}.py"), &["test_write", "setUp", "decoder_for_codec"]));
    }
    files
}

/// The files of `files` [`relevant`] to `prompt` (at least two words shared), in order.
fn relevant_files(files: &[IndexedFile], prompt: &str) -> Vec<usize> {
    let words = prompt_terms(prompt);
    let names: Vec<FileNames> = files.iter().map(|f| FileNames::of(f, &words)).collect();
    let mut hits: Vec<usize> = relevant(&names, &words, &identifiers(prompt), 2).into_iter().collect();
    hits.sort();
    hits
}

#[test]
fn files_match_on_specific_words_only() {
    let files = repo();
    let hits = |prompt: &str| relevant_files(&files, prompt);
    assert_eq!(hits("the json decoder rejects trailing commas"), [0]);
    assert_eq!(hits("HTTPConnection drops the connection on retry"), [2]);
    assert_eq!(hits("what calls scanstring"), Vec::<usize>::new(), "a plain word alone names nothing");
    assert_eq!(hits("who raises JSONDecodeError"), [0], "an identifier does");
    assert_eq!(hits("argparse: allow abbreviations of options"), [3], "the prompt names the file");
    // Common words together in many files: chance, not relevance.
    assert!(hits("please write a test for the setup").is_empty());
    assert!(hits("a recipe for banana bread").is_empty());
    assert!(hits("codec").is_empty(), "a common word alone is no match");
    assert_eq!(hits("the decoder"), [0], "the prompt names the file");
}

#[test]
fn a_module_is_named_by_its_own_file_name_not_by_every_path_holding_the_word() {
    let files = [
        file("lib/validation.js", &["validate"]),
        file("lib/initial-config-validation.js", &["check"]),
        file("build/build-validation.js", &["build"]),
        file("test/validation.test.js", &["t"]),
        file("lib/utils.js", &["noop"]),
        file("src/utils/index.js", &["noop2"]),
        file("src/utils/strings.js", &["pad"]),
    ];
    let hits = |prompt: &str| relevant_files(&files, prompt);
    // The module and its test: not the other paths holding the word.
    assert_eq!(hits("fix(validation): preserve coerced root values"), [0, 3]);
    // A generic name says no file, even when one code file alone is so named.
    assert!(hits("tidy the utils").is_empty(), "{:?}", hits("tidy the utils"));
}

#[test]
fn a_name_written_as_code_that_few_files_define_names_the_code() {
    let files = [
        file("src/click/termui.py", &["prompt", "confirm"]),
        file("src/click/core.py", &["Option", "invoke"]),
        file("src/click/types.py", &["convert"]),
        file("src/click/parser.py", &["convert"]),
        file("src/click/shell_completion.py", &["convert"]),
        file("tests/test_termui.py", &["confirm"]),
    ];
    assert!(writes_defined_code(&files, "`click.prompt` typing clarifications"));
    assert!(writes_defined_code(&files, "Add `confirm()` default"), "tests' definitions do not count");
    assert!(!writes_defined_code(&files, "`convert` is slow"), "three files define it");
    assert!(!writes_defined_code(&files, "typing clarifications for prompt"), "not written as code");
}

#[test]
fn chatter_and_slash_commands_have_no_words() {
    for prompt in [
        "yes",
        "continue",
        "ok, go ahead",
        "Thanks!",
        "/compact",
        "/review src/auth",
        "  ",
        "fix the bug in my code",
        "run cargo fmt and push",
        "run the tests",
        "commit this and push",
        "npm install",
        "rebase on main and fix the conflicts",
        "run clippy and fix the warnings",
        "update the dependencies",
        "run the tests and fix any failures",
        // What any programmer might ask, about no code of this repository's.
        "what's the difference between a list and a tuple in python?",
        "can you explain what a Python decorator is, in simple terms?",
        "explain how async and await work in JavaScript",
        "how do I undo my last git commit but keep the changes?",
        "how do I squash my last three commits into one before pushing?",
    ] {
        assert!(prompt_terms(prompt).is_empty(), "{prompt}: {:?}", prompt_terms(prompt));
    }
    assert_eq!(prompt_terms("yes, fix the json decoder"), ["json", "decoder"]);
    // A place the prompt names is no chatter: a commit's scope, a file it writes.
    assert_eq!(
        prompt_terms("feat(method): impl PartialOrd"),
        ["feat", "method", "impl", "partialord", "partial", "ord"]
    );
    assert_eq!(prompt_terms("add ordering to method.rs"), ["order", "method", "rs"]);
    // Workflow words count beside a word of the code.
    assert_eq!(prompt_terms("run the tests of the decoder"), ["run", "test", "decoder"]);
    // And general words beside a word of the code.
    assert_eq!(prompt_terms("the route decorator drops my methods"), ["rout", "decorator", "drop"]);
}

#[test]
fn a_trait_impl_s_method_is_named_as_the_trait_s_on_the_type() {
    // bytes' `impl Buf for VecDeque<u8>`: `VecDeque::chunk` would read as std's own.
    let rust = "impl<T: Copy> Buf for VecDeque<u8> where T: Sized {\n    fn chunk(&self) -> &[u8] {\n        &[]\n    }\n}\n\
                impl fmt::Display for std::io::Error {\n    fn fmt(&self) {}\n}\n";
    let file = rust_file("src/buf/vec_deque.rs", rust);
    let words = prompt_terms("chunk fmt");
    let line = file_line(Path::new(NOWHERE), &file, &words, &HashSet::default(), Vec::new);
    assert_eq!(
        line,
        "- src/buf/vec_deque.rs: <VecDeque<u8> as Buf>::chunk (l. 2), <std::io::Error as fmt::Display>::fmt (l. 7)\n"
    );
}

#[test]
fn the_first_files_show_down_to_a_quarter_of_the_best_the_others_to_min_score() {
    // (score, score besides what the prompt names outright, file)
    let ranked = vec![(0.3, 0.3, 7), (1.0, 1.0, 3), (0.2, 0.2, 9), (0.6, 0.6, 5), (0.0, 0.0, 1)];
    // The third best (0.3) makes it though under half the best.
    assert_eq!(shown(ranked.clone(), 0.5, 5), [3, 5, 7]);
    assert_eq!(shown(ranked, 0.5, 2), [3, 5]);
    // Not under a quarter.
    assert_eq!(shown(vec![(1.0, 1.0, 0), (0.6, 0.6, 1), (0.2, 0.2, 2)], 0.5, 5), [0, 1]);
    // Past the first three, only what clears min_score.
    let many = vec![(1.0, 1.0, 0), (0.9, 0.9, 1), (0.8, 0.8, 2), (0.3, 0.3, 3), (0.55, 0.55, 4)];
    assert_eq!(shown(many, 0.5, 5), [0, 1, 2, 4]);
    // A file the prompt names outright leads without raising the bar for the others.
    let named = vec![(5.0, 1.0, 0), (0.3, 0.3, 1), (0.1, 0.1, 2)];
    assert_eq!(shown(named, 0.5, 5), [0, 1]);
    // Nothing that scores nothing.
    assert!(shown(vec![(0.0, 0.0, 0)], 0.5, 5).is_empty());
}

/// Whether `prompt` has a file of `texts` (one per file: the file's text and
/// the names it defines) whose text holds three of its rare words and whose
/// names one of its words ([`said_in_contents`]).
fn said_in(texts: &[(&str, &[&str])], prompt: &str) -> bool {
    let words = prompt_terms(prompt);
    let tables: Vec<crate::terms::FileTerms> =
        texts.iter().map(|(text, defs)| crate::terms::FileTerms::of(text, defs.iter().copied())).collect();
    let names: Vec<FileNames> = texts
        .iter()
        .enumerate()
        .map(|(i, (_, defs))| FileNames::of(&file(&format!("src/f{i}.ts"), defs), &words))
        .collect();
    said_in_contents(&TaskTerms::of_tables(&tables, prompt), &names, &words)
}

#[test]
fn a_report_in_words_only_the_code_s_text_holds_is_about_it() {
    // zustand's `shallow`: no name says "date", "deep" or "level"; its comments do.
    let texts: [(&str, &[&str]); 8] = [
        (
            "compare objects one level deep: a Date or a Map compares by its own keys",
            &["shallow", "compareEntries"],
        ),
        ("create a store with state and actions", &["createStore"]),
        ("persist the state to storage and read it back", &["persist"]),
        ("subscribe to the store and read its state", &["subscribe"]),
        ("devtools connection for the store", &["devtools"]),
        ("immer middleware to produce the next state", &["immer"]),
        ("react hook to read the store", &["useStore"]),
        ("server rendering snapshot of the store state to read", &["getServerState"]),
    ];
    let report =
        "I pick a Date out of my store and compare it one level deep, and two different dates come out equal";
    assert!(said_in(&texts, report));
    // Two such words are no evidence: a prompt about something else shares as many.
    assert!(!said_in(&texts, "write a poem about comparing a deep lake"));
    // Nor are three when no word of the prompt names anything of the file's: a long
    // question about something else meets a few of any file's words.
    assert!(!said_in(&texts, "a date, a map and their keys"));
    // Nor words many files hold, however many.
    assert!(!said_in(&texts, "read the state of the store"));
}
