//! What a map for a task shows first: the definitions the task names, those whose
//! names or code say its words, a class's constructor, and a method said once.

use ctxkeep_map::map::{MapOptions, RepoMap};

mod common;
use common::client::CLIENT;
use common::{open, run, shown, tree};

#[test]
fn a_query_naming_an_identifier_puts_its_definition_in_a_small_map() {
    let dir = tree(CLIENT);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let plain = run(&mut ws, &MapOptions { tokens: 512, ..MapOptions::default() });
    let wanted = "src/reqlib/sessions.py: resolve_redirects".to_string();
    assert!(!shown(&plain).contains(&wanted), "the fixture must not show it unasked:\n{}", plain.text);
    let query = "fix Session.resolve_redirects dropping the timeout";
    let asked = run(&mut ws, &MapOptions { tokens: 512, query: Some(query.into()), ..MapOptions::default() });
    assert!(asked.tokens <= 512);
    assert_eq!(asked.files[0].path, "src/reqlib/sessions.py", "{}", asked.text);
    // The definitions the task names come first in their file (shown in line order), signature and all.
    let mut by_score: Vec<_> = asked.files[0].definitions.iter().collect();
    by_score.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut best: Vec<&str> = by_score.iter().take(2).map(|d| d.name.as_str()).collect();
    best.sort_unstable();
    assert_eq!(best, ["Session", "resolve_redirects"], "{:?}", asked.files[0]);
    assert!(
        asked.text.contains(
            "def resolve_redirects(self, resp: Response, req: PreparedRequest, stream=False, timeout=None):"
        ),
        "{}",
        asked.text
    );
    // A qualified name (`reqlib.utils.merge_setting`) names its last part.
    let asked = run(
        &mut ws,
        &MapOptions {
            tokens: 512,
            query: Some("reqlib.utils.merge_setting ignores None".into()),
            ..MapOptions::default()
        },
    );
    assert_eq!(asked.files[0].path, "src/reqlib/utils.py", "{}", asked.text);
    assert!(shown(&asked).contains(&"src/reqlib/utils.py: merge_setting".to_string()), "{}", asked.text);
}

#[test]
fn a_definition_whose_name_says_a_word_of_the_task_leads_its_file() {
    let main = "class Typer:\n    pass\n\ndef run(app):\n    pass\n\ndef get_command(app):\n    pass\n\n\
                def generate_enum_convertor(enum):\n    pass\n\ndef get_click_param(param):\n    pass\n";
    let dir = tree(&[
        ("pkg/main.py", main),
        ("pkg/cli.py", "from pkg.main import Typer, run, get_command\nrun(Typer())\nget_command(Typer())\n"),
        ("pkg/testing.py", "from pkg.main import Typer, get_command\nget_command(Typer())\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let first_of_main = |map: &RepoMap| {
        let file = map.files.iter().find(|f| f.path == "pkg/main.py").unwrap();
        let best = file.definitions.iter().max_by(|a, b| a.score.total_cmp(&b.score)).unwrap();
        best.name.clone()
    };
    let plain = run(
        &mut ws,
        &MapOptions { tokens: 400, query: Some("main crashes".into()), ..MapOptions::default() },
    );
    assert_ne!(first_of_main(&plain), "generate_enum_convertor", "{}", plain.text);
    let query = "Enum choices should be compared ignoring case";
    let asked = run(&mut ws, &MapOptions { tokens: 400, query: Some(query.into()), ..MapOptions::default() });
    assert_eq!(first_of_main(&asked), "generate_enum_convertor", "{}", asked.text);
}

#[test]
fn of_the_functions_whose_names_say_the_task_alike_the_one_whose_code_says_it_leads() {
    // serde_json's shape: every `serialize_*` says "serialize"; `serialize_f64`'s code
    // writes NaN as null. Callers make the others the file's most used.
    let ser = "class Serializer:\n    def serialize_int(self, v):\n        return str(v)\n\n    \
               def serialize_str(self, v):\n        return quote(v)\n\n    def serialize_float(self, v):\n        \
               if is_nan(v):\n            return write_null()\n        return repr(v)\n";
    let dir = tree(&[
        ("pkg/ser.py", ser),
        (
            "pkg/a.py",
            "from pkg.ser import Serializer\nSerializer().serialize_int(1)\nSerializer().serialize_str('x')\n",
        ),
        (
            "pkg/b.py",
            "from pkg.ser import Serializer\nSerializer().serialize_int(2)\nSerializer().serialize_str('y')\n",
        ),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "serialize NaN as null";
    let map = run(&mut ws, &MapOptions { tokens: 400, query: Some(query.into()), ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "pkg/ser.py").unwrap();
    // Shown in line order; the scores say the order the budget takes them in.
    let score = |name: &str| file.definitions.iter().find(|d| d.name == name).map_or(0.0, |d| d.score);
    assert!(
        score("serialize_float") > score("serialize_int").max(score("serialize_str")),
        "{:?}",
        file.definitions
    );
}

#[test]
fn the_function_whose_code_says_the_task_leads_its_file() {
    // axios's `lib/utils.js`: "replace getRandomValues with crypto module" is about
    // `generateString`, whose body calls it, not the functions named for strings or modules.
    let mut utils = String::from(
        "const generateString = (size = 16, alphabet = ALPHABET) => {\n  \
         const randomValues = new Uint32Array(size);\n  crypto.getRandomValues(randomValues);\n  \
         return String(randomValues);\n};\n\n",
    );
    for name in ["isString", "toModuleString", "isModule", "trimString", "isFormData", "isStream"] {
        utils.push_str(&format!("function {name}(thing) {{\n  return typeof thing === 'object';\n}}\n\n"));
    }
    utils.push_str("module.exports = { generateString, isString, toModuleString, isModule, trimString };\n");
    let dir = tree(&[
        ("lib/utils.js", &utils),
        ("lib/axios.js", "const utils = require('./utils');\nutils.isString(1);\n"),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "fix(utils): replace getRandomValues with crypto module";
    let map = run(&mut ws, &MapOptions { tokens: 512, query: Some(query.into()), ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "lib/utils.js").unwrap();
    let best = file.definitions.iter().max_by(|a, b| a.score.total_cmp(&b.score)).unwrap();
    assert_eq!(best.name, "generateString", "{}", map.text);
}

#[test]
fn a_task_about_a_class_shows_its_constructor_s_parameters() {
    // rich's `Panel`: a task adding an option needs the options it takes.
    let mut panel = String::from(
        "class Panel:\n    def __init__(self, renderable, *, title=None, width=None,\n                 \
         height=None, padding=(0, 1)):\n        self.title = title\n\n",
    );
    let mut uses = String::from("from pkg.panel import Panel\np = Panel('x')\n");
    for method in ["fit", "measure", "render", "render_title", "get_width", "copy", "expand", "align"] {
        panel.push_str(&format!("    def {method}(self, options):\n        return self.width\n\n"));
        uses.push_str(&format!("p.{method}(1)\n"));
    }
    let dir = tree(&[("pkg/panel.py", &panel), ("pkg/app.py", &uses), ("pkg/cli.py", &uses)]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "Add a max_width option to Panel";
    let asked = run(&mut ws, &MapOptions { tokens: 150, query: Some(query.into()), ..MapOptions::default() });
    assert!(shown(&asked).contains(&"pkg/panel.py: __init__".to_string()), "{}", asked.text);
    assert!(
        asked.text.contains("def __init__(self, renderable, *, title=None, width=None,"),
        "{}",
        asked.text
    );
    // Without a task, the overview keeps its room for the classes and functions.
    let overview = run(&mut ws, &MapOptions { tokens: 200, ..MapOptions::default() });
    let panel = overview.files.iter().find(|f| f.path == "pkg/panel.py").unwrap();
    let score = |name: &str| panel.definitions.iter().find(|d| d.name == name).map_or(0.0, |d| d.score);
    assert!(score("__init__") < score("Panel") / 10.0, "{}", overview.text);
}

#[test]
fn a_parameter_the_task_names_comes_back_into_a_signature_too_long_to_show_whole() {
    // jinja's `Environment.overlay` takes 25 parameters; a task about its last one
    // needs that one shown, not the first five lines of the others.
    let params: Vec<String> = (0..30).map(|i| format!("option_number_{i}: str | None = missing")).collect();
    let source = format!(
        "class Environment:\n    def overlay(\n        self,\n        {},\n        enable_async: bool = missing,\n    ) -> \"Environment\":\n        return self\n",
        params.join(",\n        ")
    );
    let dir =
        tree(&[("pkg/environment.py", &source), ("pkg/app.py", "from pkg.environment import Environment\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let mut map = |query: Option<&str>| {
        run(&mut ws, &MapOptions { tokens: 1024, query: query.map(Into::into), ..MapOptions::default() })
    };
    let asked = map(Some("overlay should accept `enable_async`"));
    let overlay = |m: &RepoMap| {
        m.files.iter().flat_map(|f| &f.definitions).find(|d| d.name == "overlay").unwrap().signature.clone()
    };
    let signature = overlay(&asked);
    let last = signature.lines().last().unwrap();
    // The shown lines, then how many others stay out and the one asked for, as the text shows it.
    assert!(signature.starts_with("def overlay(self, option_number_0: str | None = missing,"), "{signature}");
    assert!(last.trim_start().starts_with("… (+"), "{signature}");
    assert!(last.ends_with(", enable_async: bool = missing"), "{signature}");
    assert!(asked.text.contains(last), "{}", asked.text);
    let hidden: usize = last.trim_start()["… (+".len()..].split(')').next().unwrap().parse().unwrap();
    assert_eq!(signature.matches("option_number_").count() + hidden, 30, "{signature}");
    // A task that does not name it, and the overview, show the cut as it is.
    for query in [Some("overlay should copy the environment"), None] {
        let signature = overlay(&map(query));
        assert!(!signature.contains("enable_async"), "{signature}");
        assert!(signature.lines().last().unwrap().contains(" … (+"), "{signature}");
    }
}

#[test]
fn a_method_every_class_of_the_file_defines_says_the_task_once() {
    // marshmallow's fields.py: `_bind_to_schema` in six field classes took six lines
    // of a task map about schemas, before the methods that do the work.
    let mut fields = String::new();
    for class in ["Field", "List", "Tuple", "DateTime", "Mapping", "Method"] {
        fields.push_str(&format!(
            "class {class}:\n    def bind_to_schema(self, name, schema):\n        pass\n\n"
        ));
    }
    for other in ["serialize", "deserialize", "validate", "make_error", "fail", "get_value"] {
        fields.push_str(&format!("def {other}(value, schema):\n    return value\n\n"));
    }
    let dir = tree(&[("pkg/fields.py", &fields), ("pkg/app.py", "from pkg.fields import Field\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "bind nested fields to their parent schema";
    let map = run(&mut ws, &MapOptions { tokens: 110, query: Some(query.into()), ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "pkg/fields.py").unwrap();
    let names: Vec<&str> = file.definitions.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names.iter().filter(|n| **n == "bind_to_schema").count(), 1, "{}", map.text);
    assert!(names.len() >= 4, "{}", map.text);
}

#[test]
fn a_constant_written_alike_in_several_examples_is_no_definition_of_any() {
    // commander's examples: `const program = new Command();` in each took half a task map.
    let mut files: Vec<(String, String)> = (0..4)
        .map(|i| {
            let text = format!("const program = new Command();\nprogram.option('--port_{i}');\n");
            (format!("examples/options_{i}.js"), text)
        })
        .collect();
    files.push(("examples/own.js".into(), "const program = new Command();\nconst port = 8080;\n".into()));
    files.push(("lib/command.js".into(), "export class Command {\n  option(flags) {}\n}\n".into()));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = tree(&files);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "parse the port option of a program";
    let map = run(&mut ws, &MapOptions { tokens: 400, query: Some(query.into()), ..MapOptions::default() });
    let shown = shown(&map);
    assert!(!shown.iter().any(|s| s.ends_with(": program")), "{}", map.text);
    // What a file defines of its own stays.
    assert!(shown.contains(&"examples/own.js: port".to_string()), "{}", map.text);
}

#[test]
fn a_decorated_definition_s_number_is_its_head_s_line() {
    // yarl's `465│ @classmethod` named the line of `def build`, one below the decorator.
    let dir =
        tree(&[("pkg/url.py", "class URL:\n    @classmethod\n    def build(cls, host):\n        pass\n")]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let map =
        run(&mut ws, &MapOptions { tokens: 300, query: Some("URL.build".into()), ..MapOptions::default() });
    assert!(map.text.contains("\n│     @classmethod\n3│     def build(cls, host):"), "{}", map.text);
}

#[test]
fn of_the_names_that_say_the_task_the_one_saying_its_rarest_words_leads() {
    // `config` is said in every file, `search` in two: for a task about the
    // search config, `Search` is the definition, not the most used `Config`.
    let config = "class Config:\n    pass\n\nclass BookConfig:\n    pass\n\n\
                  class HtmlConfig:\n    pass\n\nclass Search:\n    pass\n";
    let user =
        |name: &str| format!("from pkg.config import Config, BookConfig, HtmlConfig\n{name} = Config()\n");
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let dir = tree(&[
        ("pkg/config.py", config),
        ("pkg/a.py", &a),
        ("pkg/b.py", &b),
        ("pkg/c.py", &c),
        (
            "pkg/search.py",
            "from pkg.config import Search, Config\n\ndef index(config: Config, search: Search):\n    \
             return Config(), Config(), Config()\n",
        ),
    ]);
    let cache = tempfile::tempdir().unwrap();
    let mut ws = open(dir.path(), cache.path());
    let query = "skip the chapters the search config excludes";
    let map = run(&mut ws, &MapOptions { tokens: 400, query: Some(query.into()), ..MapOptions::default() });
    let file = map.files.iter().find(|f| f.path == "pkg/config.py").unwrap();
    let best = file.definitions.iter().max_by(|a, b| a.score.total_cmp(&b.score)).unwrap();
    assert_eq!(best.name, "Search", "{}", map.text);
}
