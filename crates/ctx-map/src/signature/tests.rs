//! How signatures read for each language's shapes, and where a long one is cut.
//! Declared `#[cfg(test)] mod tests;` in `signature.rs`: compiled for tests only.

use super::*;
use crate::lang::Lang;
use crate::tags::extract;

/// The signature of the first definition `source` holds.
fn sig(lang: Lang, source: &str) -> String {
    extract(lang, source).unwrap().defs[0].signature.clone()
}

#[test]
fn a_long_type_parameter_list_is_elided_a_short_one_kept() {
    let ts = "export interface FastifyRequest<RouteGeneric extends RouteGenericInterface = RouteGenericInterface,\n\
              \x20 RawServer extends RawServerBase = RawServerDefault,\n\
              \x20 Logger extends FastifyBaseLogger = FastifyBaseLogger> {\n  id: string\n}\n";
    assert_eq!(sig(Lang::TypeScript, ts), "export interface FastifyRequest<…> { id: string }");
    let ts = "export function inject<T extends object>(app: T): T { return app }\n";
    assert_eq!(sig(Lang::TypeScript, ts), "export function inject<T extends object>(app: T): T");
    let rust = "pub fn serve<L: Listener + Send + 'static, M: for<'a> Service<IncomingStream<'a, L>> + Clone>(\n\
                \x20   listener: L,\n    make_service: M,\n) -> Serve<L, M> {\n    todo!()\n}\n";
    assert_eq!(sig(Lang::Rust, rust), "pub fn serve<…>(listener: L, make_service: M) -> Serve<L, M>");
    let rust = "pub fn parse<T: DeserializeOwned>(text: &str) -> T {\n    todo!()\n}\n";
    assert_eq!(sig(Lang::Rust, rust), "pub fn parse<T: DeserializeOwned>(text: &str) -> T");
}

#[test]
fn an_object_type_named_shows_its_members_and_a_long_one_by_name() {
    // Hono's `CORSOptions`: a task adding an option needs the others.
    let source = "type CORSOptions = {\n  origin?:\n    | string\n    | string[]\n    | ((origin: string, c: Context) => \
                  Promise<string | undefined | null> | string | undefined | null)\n  allowHeaders?: string[]\n  \
                  maxAge?: number\n}\n";
    assert_eq!(
        sig(Lang::TypeScript, source),
        "type CORSOptions = { origin?: …; allowHeaders?: string[]; maxAge?: number }"
    );
    assert_eq!(sig(Lang::TypeScript, "type Empty = {}\n"), "type Empty = {…}");
}

#[test]
fn a_long_type_over_lines_says_what_it_is_on_one_line() {
    // pinia's `Store`, which read `export type Store<…>` with nothing after it.
    let source = "export type Store<\n  Id extends string = string,\n  S extends StateTree = {},\n  \
                  G /* extends GettersTree<S>*/ = {},\n  // has the actions\n  A = {},\n> = _StoreWithState<Id, S, G, A> &\n  \
                  UnwrapRef<S> &\n  _StoreWithGetters<G> &\n  // StoreWithActions<A> &\n  (_ActionsTree extends A ? {} : A) &\n  \
                  PiniaCustomProperties<Id, S, G, A> &\n  PiniaCustomStateProperties<S>\n";
    let signature = sig(Lang::TypeScript, source);
    assert!(
        signature.starts_with(
            "export type Store<…> = _StoreWithState<Id, S, G, A> & UnwrapRef<S> & _StoreWithGetters<G> &"
        ),
        "{signature}"
    );
    assert!(signature.chars().count() <= MAX_SIGNATURE_LINE + 2 && !signature.contains('\n'), "{signature}");
}

#[test]
fn a_comment_inside_a_list_leaves_no_space_before_its_comma() {
    // pinia's `G /* extends GettersTree<S> */,` read `G ,`.
    let source = "export type Listener<\n  Id extends string,\n  G /* extends GettersTree<S> */,\n  \
                  A /* extends ActionsTree */,\n> = (id: Id, g: G, a: A) => void\n";
    assert_eq!(
        sig(Lang::TypeScript, source),
        "export type Listener<Id extends string, G, A> = (id: Id, g: G, a: A) => void"
    );
}

#[test]
fn variants_under_exclusive_cfgs_are_one_entry_and_an_attribute_leaves_no_space() {
    // reqwest's `error::Kind` and `KeepCoreThreadAlive`.
    let source = "pub(crate) enum Kind {\n    Builder,\n    #[cfg(not(target_arch = \"wasm32\"))]\n    \
                  Status(StatusCode, Option<Reason>),\n    #[cfg(target_arch = \"wasm32\")]\n    Status(StatusCode),\n    Body,\n}\n";
    assert_eq!(
        sig(Lang::Rust, source),
        "pub(crate) enum Kind { Builder, Status(StatusCode, Option<Reason>), Body }"
    );
    let source = "pub(crate) struct KeepCoreThreadAlive(#[allow(dead_code)] Option<Arc<Inner>>);\n";
    assert_eq!(sig(Lang::Rust, source), "pub(crate) struct KeepCoreThreadAlive(Option<Arc<Inner>>)");
}

#[test]
fn a_comment_between_two_spaces_leaves_one() {
    // immer's `export const produce: IProduce = /* @__PURE__ */ immer.produce`.
    let source = "export const produce: IProduce = /* @__PURE__ */ immer.produce\n";
    assert_eq!(sig(Lang::TypeScript, source), "export const produce: IProduce = immer.produce");
}

#[test]
fn a_union_of_object_types_shows_each_with_its_members() {
    // Hono's `BasicAuthOptions`: one way to pass credentials or the other.
    let source = "export type BasicAuthOptions =\n  | {\n      username: string\n      password: string\n    }\n  \
                  | {\n      verifyUser: (username: string, password: string, c: Context) => boolean | \
                  Promise<boolean>\n      realm?: string\n    }\n";
    assert_eq!(
        sig(Lang::TypeScript, source),
        "export type BasicAuthOptions =\n  | { username: string; password: string }\n  | { verifyUser: …; realm?: string }"
    );
    // Past four arms, how many more; an arm that is no object type as it is written.
    let arms: String = (0..6).map(|i| format!("\n  | {{ kind: 'k{i}' }}")).collect();
    let source = format!("type Event ={arms}\n  | null\n");
    assert_eq!(
        sig(Lang::TypeScript, &source),
        "type Event =\n  | { kind: 'k0' }\n  | { kind: 'k1' }\n  | { kind: 'k2' }\n  | { kind: 'k3' }\n  | … (+3)"
    );
    // One written on a line stays on it.
    let source = "type Input = string | { path: string }\n";
    assert_eq!(sig(Lang::TypeScript, source), "type Input = string | { path: string }");
}

#[test]
fn an_object_type_written_without_semicolons_keeps_its_members_apart() {
    let source = "export const createPool = ({\n  concurrency,\n  interval,\n}: {\n  concurrency?: number\n  \
                  interval?: Map<string, number>\n  skip?: { reason: string\n    tests: string[] }[]\n} = {}): Pool => {\n  return x\n}\n";
    let tags = extract(Lang::TypeScript, source).unwrap();
    assert_eq!(
        tags.defs[0].signature,
        "export const createPool = ({concurrency, interval}: {concurrency?: number;\n    \
         interval?: Map<string, number>; skip?: { reason: string; tests: string[] }[]} = {}): Pool =>"
    );
}

#[test]
fn a_function_type_keeps_what_it_is_over_long_type_parameters() {
    let source = "export interface EventHandler<\n  Request extends EventHandlerRequest = EventHandlerRequest,\n  \
                  Response extends EventHandlerResponse = EventHandlerResponse,\n> extends Partial<Pick<H3, \"handler\">> {\n  \
                  (event: H3Event<Request>): Response;\n  websocket?: WebSocketOptions;\n}\n\n\
                  export type RequestMiddleware<\n  Request extends EventHandlerRequest = EventHandlerRequest,\n> = \
                  (event: H3Event<Request>) => void | Promise<void>;\n";
    let defs = extract(Lang::TypeScript, source).unwrap().defs;
    let signature = |name: &str| defs.iter().find(|d| d.name == name).unwrap().signature.clone();
    assert_eq!(
        signature("EventHandler"),
        "export interface EventHandler<…> extends Partial<Pick<H3, \"handler\">> \
         { (event: H3Event<Request>): Response; websocket?: WebSocketOptions }"
    );
    assert_eq!(
        signature("RequestMiddleware"),
        "export type RequestMiddleware<…> = (event: H3Event<Request>) => void | Promise<void>"
    );
}

#[test]
fn a_public_struct_shows_its_public_fields_only() {
    let source = "pub struct Bar {\n    state: Arc<Mutex<State>>,\n    pos: u64,\n}\n\
                  pub struct Style {\n    pub width: u16,\n    chars: Vec<char>,\n}\n\
                  struct Inner {\n    a: u8,\n}\n";
    let defs = extract(Lang::Rust, source).unwrap().defs;
    let signature = |name: &str| defs.iter().find(|d| d.name == name).unwrap().signature.clone();
    assert_eq!(signature("Bar"), "pub struct Bar { … }");
    assert_eq!(signature("Style"), "pub struct Style { pub width: u16, … }");
    assert_eq!(signature("Inner"), "struct Inner { a: u8 }");
    // A tuple struct's fields without their docs and attributes (tracing's `Identifier`).
    let source = "pub struct Identifier(\n    /// **Warning**: the fields are `pub`\n    /// for macros.\n    \
                  #[doc(hidden)]\n    pub &'static dyn Callsite,\n);\n\
                  pub struct IntoIter(\n    #[allow(clippy::type_complexity)] // alias\n    FilterMap<u8>,\n);\n";
    let defs = extract(Lang::Rust, source).unwrap().defs;
    assert_eq!(defs[0].signature, "pub struct Identifier(pub &'static dyn Callsite)");
    assert_eq!(defs[1].signature, "pub struct IntoIter(FilterMap<u8>)");
}

#[test]
fn the_items_a_cut_leaves_are_counted_at_the_list_s_own_depth() {
    // Past brackets, lambdas and arrows, up to the bracket that closes the list.
    assert_eq!(
        items_left(" b: Dict[str, int] = {},\n    c=lambda: (1, 2), d: () => void)"),
        ["b: Dict[str, int] = {}", "c=lambda: (1, 2)", "d: () => void"]
    );
    assert_eq!(items_left(", d)"), ["d"]);
    assert!(items_left(") -> int").is_empty());
}

#[test]
fn a_cut_falls_between_parameters_or_words_never_inside_one() {
    let line = "def option(default: Any = ..., show_envvar: bool = True, case_sensitive: bool = True)";
    assert_eq!(cut(line, 200), line);
    assert_eq!(cut(line, 70), "def option(default: Any = ..., show_envvar: bool = True, …");
    let typed = "def respond(self, status_code: int = 200, headers: Mapping[str, str] | None = None)";
    assert_eq!(cut(typed, 75), "def respond(self, status_code: int = 200, …");
    assert_eq!(
        cut("type Headers = Partial<RawAxiosHeaders & Other>", 40),
        "type Headers = Partial<RawAxiosHeaders …"
    );
    // No boundary in the second half: cut where the count ends.
    assert_eq!(cut("x = averyveryverylongidentifierwithoutanyspaces", 20), "x = averyveryverylon …");
    for max in 1..line.len() {
        let got = cut(line, max);
        assert!(got.chars().count() <= max + 2, "{max}: {got}");
        assert!(line.starts_with(got.trim_end_matches(" …")), "{max}: {got}");
    }
}

#[test]
fn a_very_long_parameter_list_is_cut_after_a_whole_line() {
    let params: Vec<String> =
        (0..80).map(|i| format!("parameter_number_{i}: Optional[bool] = None")).collect();
    let source = format!("def option(\n    {},\n):\n    pass\n", params.join(",\n    "));
    let tags = extract(Lang::Python, &source).unwrap();
    let signature = &tags.defs[0].signature;
    // The mark says how many parameters it leaves out.
    let shown = signature.matches("parameter_number_").count();
    assert!(signature.ends_with(&format!(" … (+{})", 80 - shown)), "{signature}");
    assert!(signature.chars().count() <= MAX_SIGNATURE + 8, "{signature}");
    // Every line before the mark ends a parameter: none is cut inside.
    let last = signature.lines().last().unwrap().split(" … (+").next().unwrap();
    assert!(last.ends_with("= None,") || last.ends_with("= None"), "{last}");
    // A long type alias over lines shows it goes on.
    let members: String = (0..40).map(|i| format!("  field_{i}: string;\n")).collect();
    let source = format!("type MethodsHeaders = Partial<{{\n{members}}}>;\n");
    let tags = extract(Lang::TypeScript, &source).unwrap();
    assert!(tags.defs[0].signature == "type MethodsHeaders = Partial<{…}>", "{:?}", tags.defs[0].signature);
}

#[test]
fn data_types_show_their_members_on_one_line_and_say_how_many_did_not_fit() {
    let python = "@dataclass\nclass User:\n    \"\"\"A user.\"\"\"\n    name: str\n    email: str | None = None\n    def greet(self): pass\n";
    assert_eq!(sig(Lang::Python, python), "@dataclass\nclass User: name: str; email: str | None = None");
    let private = "class Message(TypedDict):\n    _form: FormData | None\n    scope: Scope\n";
    assert_eq!(sig(Lang::Python, private), "class Message(TypedDict): scope: Scope");
    // A class of behaviour is known by its methods, however many attributes it declares.
    let behaviour = "class Environment:\n    sandboxed: bool = False\n    def render(self): pass\n";
    assert_eq!(sig(Lang::Python, behaviour), "class Environment:");
    let plain = "class Options:\n    debug: bool = False\n";
    assert_eq!(sig(Lang::Python, plain), "class Options: debug: bool = False");
    // When the first member does not fit whole, the members go on a line of their own, by name.
    let table: String = (0..30).map(|i| format!("\"k{i}\": {i}, ")).collect();
    let wide = format!("class Table(NamedTuple):\n    binops: dict[str, int] = {{{table}}}\n    size: int\n");
    assert_eq!(sig(Lang::Python, &wide), "class Table(NamedTuple):\n    binops: …; size: int");
    assert_eq!(sig(Lang::Python, "class Runner:\n    limit = 3\n    def run(self): pass\n"), "class Runner:");
    let rust = "pub struct Pair<T> {\n    /// The left.\n    #[serde(default)]\n    pub left: T,\n    right: T,\n}\n";
    // Docs and attributes out; a public struct's private field is only `…`.
    assert_eq!(sig(Lang::Rust, rust), "pub struct Pair<T> { pub left: T, … }");
    // `pub(crate)` is no `pub` (minijinja's `Environment`).
    let crate_only = "pub struct Env {\n    pub(crate) callback: u8,\n    pub name: String,\n}\n";
    assert_eq!(sig(Lang::Rust, crate_only), "pub struct Env { pub name: String, … }");
    assert_eq!(sig(Lang::Rust, "struct Id(u64);"), "struct Id(u64)");
    assert_eq!(
        sig(Lang::Rust, "enum E {\n    A,\n    B { x: u8 },\n    C(String),\n}\n"),
        "enum E { A, B { x: u8 }, C(String) }"
    );
    // Members aligned in columns read one space apart; a string keeps its spaces.
    assert_eq!(
        sig(Lang::Rust, "enum Mode {\n    Read      = 1,\n    ReadWrite = 3,\n}\n"),
        "enum Mode { Read = 1, ReadWrite = 3 }"
    );
    assert_eq!(
        sig(Lang::TypeScript, "interface Pad {\n  fill:   \"a  b\";\n}\n"),
        "interface Pad { fill: \"a  b\" }"
    );
    let many: String = (0..40).map(|i| format!("    pub field_number_{i}: u32,\n")).collect();
    let long = sig(Lang::Rust, &format!("pub struct Wide {{\n{many}}}\n"));
    assert!(long.starts_with("pub struct Wide { pub field_number_0: u32, "), "{long}");
    // Those that did not fit the header's line go on lines of their own, then a count of the rest.
    let shown = long.matches("pub field_number_").count();
    assert!(long.ends_with(&format!(" … (+{}) }}", 40 - shown)), "{long}");
    assert!(long.lines().count() == 1 + MORE_MEMBER_LINES, "{long}");
    assert!(long.lines().next().unwrap().chars().count() <= MAX_MEMBERS_LINE, "{long}");
    assert!(long.lines().skip(1).all(|l| l.starts_with("    ") && l.chars().count() <= WRAP), "{long}");
    let ts = "interface Repo {\n  find(id: string): Item;\n  size: number\n}\n";
    assert_eq!(sig(Lang::TypeScript, ts), "interface Repo { find(id: string): Item; size: number }");
}

#[test]
fn an_interface_too_wide_for_one_line_names_the_rest_and_shows_how_it_is_called() {
    // ofetch's `$Fetch` read `export interface $Fetch`, its call signature gone, and
    // `FetchOptions` stopped at `… (+12)` before `timeout`, `retry` and the other options.
    let medium = "number | ((context: FetchContext) => number)";
    let ts = format!(
        "export interface $Fetch {{\n  <T = any, R extends ResponseType = \"json\">(\n    request: FetchRequest,\n    \
         options?: FetchOptions<R>\n  ): Promise<MappedResponseType<R, T>>;\n  raw<T>(request: FetchRequest): Promise<T>;\n  \
         native: Fetch;\n}}\n\nexport interface FetchOptions {{\n  baseURL?: string;\n  retryDelay?: {medium};\n  \
         backoff?: {medium};\n  jitter?: {medium};\n  timeout?: number;\n  retry?: number | false;\n}}\n"
    );
    let defs = extract(Lang::TypeScript, &ts).unwrap().defs;
    let signature = |name: &str| defs.iter().find(|d| d.name == name).unwrap().signature.clone();
    // The call signature whole on a line of its own; the method is a definition of its own.
    assert_eq!(
        signature("$Fetch"),
        "export interface $Fetch {\n    <T = any, R extends ResponseType = \"json\">(request: FetchRequest, \
         options?: FetchOptions<R>): Promise<MappedResponseType<R, T>>;\n    native: Fetch }"
    );
    assert!(defs.iter().any(|d| d.name == "raw"), "{defs:?}");
    // Whole while they fit, then by name (a short one whole), not `… (+4)`.
    assert_eq!(
        signature("FetchOptions"),
        "export interface FetchOptions { baseURL?: string; retryDelay?: number | ((context: FetchContext) => number);\n    \
         backoff?: …; jitter?: …; timeout?: number; retry?: number | false }"
    );
}

#[test]
fn a_constant_whose_value_goes_on_shows_all_of_it_when_short_else_its_first_line_closed() {
    let proxy =
        "current_app: FlaskProxy = LocalProxy(  # type: ignore[assignment]\n    _cv_app, \"app\"\n)\n";
    assert_eq!(sig(Lang::Python, proxy), "current_app: FlaskProxy = LocalProxy(_cv_app, \"app\")");
    // Brackets in strings and comments are text, not brackets.
    let table = format!("CODES = {{\"(\": [1,  # a [ in a comment\n    2]{}}}\n", ", 3".repeat(40));
    assert_eq!(sig(Lang::Python, &table), "CODES = {\"(\": [1,…]}");
    assert_eq!(sig(Lang::Python, "CODES = {\"(\": [1,  # a [\n    2]}\n"), "CODES = {\"(\": [1, 2]}");
    // A string over lines is never joined: that would change it.
    assert_eq!(
        sig(Lang::Python, "HELP = \"\"\"Usage: [opts]\nMore.\n\"\"\"\n"),
        "HELP = \"\"\"Usage: [opts] …"
    );
    assert_eq!(sig(Lang::Python, "LIMIT = 10  # seconds\n"), "LIMIT = 10");
    let rust = "pub const NAMES: &[&'static str] = &[\n    \"a\",\n];\n";
    assert_eq!(sig(Lang::Rust, rust), "pub const NAMES: &[&'static str] = &[\"a\"]");
    let long: String = (0..30).map(|i| format!("    \"name_{i}\",\n")).collect();
    let rust = format!("pub const NAMES: &[&'static str] = &[\n{long}];\n");
    assert_eq!(sig(Lang::Rust, &rust), "pub const NAMES: &[&'static str] = &[…]");
    assert_eq!(sig(Lang::Rust, "const N: u32 =\n    5;\n"), "const N: u32 = 5");
    // A tuple of one keeps the comma that makes it one; a list's last comma goes.
    assert_eq!(
        sig(Lang::Python, "TYPES = (\n    \"text/event-stream\",\n)\n"),
        "TYPES = (\"text/event-stream\",)"
    );
    // A name a space before the list (pino's style) declares it: no tuple.
    assert_eq!(
        sig(Lang::TypeScript, "export function destination (\n  dest?: number | string,\n): SonicBoom\n"),
        "export function destination (dest?: number | string): SonicBoom"
    );
    assert!(one_element_tuple("return (1,", ")") && !one_element_tuple("def f (x,", ")"));
    assert_eq!(sig(Lang::Python, "TYPES = (\n    \"a\",\n    \"b\",\n)\n"), "TYPES = (\"a\", \"b\")");
    assert_eq!(sig(Lang::Python, "TYPES = (f(a, b),\n)\n"), "TYPES = (f(a, b),)");
    assert_eq!(sig(Lang::Python, "TYPES = (a, b,\n)\n"), "TYPES = (a, b)");
    // A parameter list of one is no tuple.
    let python =
        "def auto_aiter(\n    iterable: \"t.Iterable[V]\",\n) -> \"t.AsyncIterator[V]\":\n    pass\n";
    assert_eq!(
        sig(Lang::Python, python),
        "def auto_aiter(iterable: \"t.Iterable[V]\") -> \"t.AsyncIterator[V]\":"
    );
    let ts = "export function toWebHandler(\n  app: H3,\n): Handler {\n  return x;\n}\n";
    assert_eq!(sig(Lang::TypeScript, ts), "export function toWebHandler(app: H3): Handler");
    // Nor is an arrow function's (zustand's `hasIterableEntries`).
    let ts =
        "const hasEntries = (\n  value: Iterable<unknown>,\n): value is Map<K, V> =>\n  'entries' in value\n";
    assert_eq!(
        sig(Lang::TypeScript, ts),
        "const hasEntries = (value: Iterable<unknown>): value is Map<K, V> =>"
    );
    let ts = "const f = (\n  value,\n) => value\n";
    assert_eq!(sig(Lang::TypeScript, ts), "const f = (value) =>");
    let ts = "export const routes = {\n  home: \"/\",\n};\n";
    assert_eq!(sig(Lang::TypeScript, ts), "export const routes = {home: \"/\"}");
    // Code is never joined in: a body is not a signature.
    let ts = "const isType = pick(utils, function filter(p) {\n  return /^is/.test(p);\n});\n";
    assert_eq!(sig(Lang::TypeScript, ts), "const isType = pick(utils, function filter(p) {…})");
}

#[test]
fn a_long_string_is_data_its_quotes_stand_for_it() {
    let path = "M0 8a8 8 0 1 1 16 0A8 8 0 0 1 0 8Zm8-6.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13Z".repeat(2);
    let rust = format!("const ICON_NOTE: &str = r#\"<path d=\"{path}\"></path>\"#;\n");
    assert_eq!(sig(Lang::Rust, &rust), "const ICON_NOTE: &str = r#\"…\"#;");
    let python = format!("def render(icon='{path}', size=16):\n    pass\n");
    assert_eq!(sig(Lang::Python, &python), "def render(icon='…', size=16):");
    let ts = format!("export const banner = `{path}`;\n");
    assert_eq!(sig(Lang::TypeScript, &ts), "export const banner = `…`;");
    let quoted = format!("const QUOTE = \"{path} \\\"\";\n");
    assert_eq!(sig(Lang::TypeScript, &quoted), "const QUOTE = \"…\";");
    let triple = format!("HELP = \"\"\"{path}\"\"\"\n");
    assert_eq!(sig(Lang::Python, &triple), "HELP = \"\"\"…\"\"\"");
    // A message is what the constant is: shown.
    let short = "ENFORCE = \"Domain wildcard patterns must be like '*.example.com'.\"\n";
    assert_eq!(sig(Lang::Python, short), short.trim_end());
}

#[test]
fn a_type_alias_over_lines_shows_all_of_it_on_up_to_two() {
    let rust = "pub type Formatter<\n    N = format::DefaultFields,\n    E = format::Format<format::Full>,\n    \
                W = fn() -> io::Stdout,\n> = layer::Layered<fmt_layer::Layer<Registry, N, E, W>, Registry>;\n";
    assert_eq!(
        sig(Lang::Rust, rust),
        "pub type Formatter<N = format::DefaultFields, E = format::Format<format::Full>,\n    \
         W = fn() -> io::Stdout> = layer::Layered<fmt_layer::Layer<Registry, N, E, W>, Registry>"
    );
    let ts = "export type Method =\n  | 'get'\n  | 'post'; // the verbs\n";
    assert_eq!(sig(Lang::TypeScript, ts), "export type Method = | 'get' | 'post'");
}
