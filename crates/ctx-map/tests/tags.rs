//! Each language's fixture yields the expected definitions and references.

use ctxkeep_map::lang::Lang;
use ctxkeep_map::tags::{FileTags, extract};

/// Definitions (line, kind, name, parent, signature) and references, as text.
fn describe(tags: &FileTags) -> String {
    let mut out = String::from("definitions:\n");
    for def in &tags.defs {
        let parent = def.parent.map_or(String::new(), |p| format!(" in {}", tags.defs[p as usize].name));
        out.push_str(&format!(
            "  {:>3} {:?} {}{parent}: {}\n",
            def.line,
            def.kind,
            def.name,
            def.signature.replace('\n', "⏎")
        ));
    }
    out.push_str("references:\n");
    for r in &tags.refs {
        // How the uses name it, when not all bare.
        let how = if r.bare == r.count {
            String::new()
        } else {
            format!(" ({} bare, {} method)", r.bare, r.method)
        };
        out.push_str(&format!("  {} ×{}{how}\n", r.name, r.count));
    }
    out
}

const RUST: &str = r#"use std::collections::HashMap;
use crate::store::{Store, open as open_store};

pub const LIMIT: usize = 10;
static NAME: &str = "pool";

/// A pool of connections.
pub struct Pool<T> { conns: Vec<T> }

pub enum State { Idle, Busy }

pub trait Connect {
    fn connect(&self) -> Result<Conn, Error>;
}

impl<T: Connect> Pool<T> {
    pub fn get(&self, key: &str)
        -> Option<&T>
    {
        let map: HashMap<String, T> = HashMap::new();
        helper(key);
        self.conns.first()
    }
}

mod inner {
    pub type Alias = u32;
}

macro_rules! make { () => {} }

fn helper(k: &str) { println!("{k}"); make!(); }
"#;

const PYTHON: &str = r#"import os
from collections import OrderedDict as OD
from .models import Product, Order

DEFAULT_TIMEOUT = 30

class Cart(Base):
    """A shopping cart."""

    def __init__(self, owner: User):
        self.items = OD()

    @property
    def total(self) -> int:
        return sum_prices(self.items) - self.discount()

def sum_prices(items: list[Product]) -> int:
    return sum(i.price for i in items)
"#;

const TYPESCRIPT: &str = r#"import { Injectable } from "./di";
import Default, { helper as h } from "./util";

export interface Repo<T> {
  find(id: string): Promise<T>;
}

export type Id = string | number;

export enum Color { Red, Green }

export const MAX_ITEMS = 100;

export abstract class Base {
  abstract save(): void;
}

export class UserRepo extends Base implements Repo<User> {
  async find(id: Id): Promise<User> {
    return fetchUser(id);
  }
  save() { h(); }
}

export function fetchUser(id: Id): Promise<User> {
  return new Promise(() => {});
}

const handler = async (event: Event) => {
  console.log(event);
};
"#;

const TSX: &str = r#"import React from "react";

type Props = { name: string };

export function Greeting({ name }: Props) {
  return <div className="greeting">{format(name)}</div>;
}

export const App = () => <Greeting name="world" />;
"#;

const JAVASCRIPT: &str = r#"const { readFile } = require("fs");

class Loader extends EventEmitter {
  load(path) {
    return readFile(path);
  }
}

function parse(text) {
  return JSON.parse(text);
}

module.exports.render = function (x) { return parse(x); };
const API_URL = "https://example.invalid";
"#;

#[test]
fn rust() {
    insta::assert_snapshot!(describe(&extract(Lang::Rust, RUST).unwrap()));
}

#[test]
fn python() {
    insta::assert_snapshot!(describe(&extract(Lang::Python, PYTHON).unwrap()));
}

#[test]
fn typescript() {
    insta::assert_snapshot!(describe(&extract(Lang::TypeScript, TYPESCRIPT).unwrap()));
}

#[test]
fn tsx() {
    insta::assert_snapshot!(describe(&extract(Lang::Tsx, TSX).unwrap()));
}

#[test]
fn javascript() {
    insta::assert_snapshot!(describe(&extract(Lang::JavaScript, JAVASCRIPT).unwrap()));
}

/// Signatures as a map shows them: whole parameter lists, the decorators that
/// change what a definition is, no bodies, one entry per overload set.
fn signatures(lang: Lang, source: &str) -> String {
    extract(lang, source)
        .unwrap()
        .defs
        .iter()
        .map(|d| format!("{} {:?} {}\n{}\n", d.line, d.kind, d.name, d.signature))
        .collect()
}

const PYTHON_SIGNATURES: &str = r#"import typing as t
from typing import overload

T_route = t.TypeVar("T_route", bound=t.Callable[..., t.Any])
P = t.ParamSpec("P")
DEFAULT_METHODS = frozenset(["GET", "HEAD"])

class Scaffold:
    @property
    def has_static_folder(self) -> bool:
        return self.static_folder is not None

    @staticmethod
    def _endpoint_from_view_func(view_func: t.Callable[..., t.Any]) -> str:
        return view_func.__name__

    @classmethod
    def from_config(cls, config: dict[str, t.Any]) -> "Scaffold": return cls()

    @setupmethod
    def add_url_rule(
        self,
        rule: str,
        endpoint: str | None = None,  # defaults to the view's name
        view_func: ft.RouteCallable | None = None,
        provide_automatic_options: bool | None = None,
        **options: t.Any,
    ) -> None:
        """Register a rule for routing incoming requests."""
        raise NotImplementedError

    @overload
    def get(self, key: str) -> str: ...
    @overload
    def get(self, key: str, default: T) -> str | T: ...
    def get(self, key, default=None):
        return default

@t.overload  # type: ignore[overload-overlap]
def load(path: str) -> bytes: ...
@t.overload
def load(path: str, text: t.Literal[True]) -> str: ...
def load(path, text=False):
    return open(path).read()

def ping(): return 1
"#;

const RUST_SIGNATURES: &str = r#"impl<B> Router<B>
where
    B: HttpBody + Send + 'static,
{
    pub fn route_service<T>(
        mut self,
        path: &str,
        service: T, // the service to call
    ) -> Self
    where
        T: Service<Request<B>, Error = Infallible> + Clone + Send + 'static,
    {
        self
    }

    pub fn layer<L>(self, layer: L) -> Router<B> where L: Layer<Route<B>> { self }
}

pub struct Config { pub name: String, pub verbose: bool }

pub async fn serve_with_graceful_shutdown<L, M, S, F>(listener: L, make_service: M, signal: F, config: Config) -> io::Result<()> {
    Ok(())
}

#[tokio::test]
#[ignore = "slow"]
async fn serves_until_the_signal() {}
"#;

const TYPESCRIPT_SIGNATURES: &str = r#"export function parse(date: string): Date;
export function parse(date: string, format: string): Date;
export function parse(date: string, format?: string): Date {
  return new Date(date);
}

export class Router { route(p: string) { return handler } }

export class Client {
  request(config: Config): Promise<Response>;
  request(url: string, config?: Config): Promise<Response>;
  request(
    urlOrConfig: string | Config,
    config: Config = {},
  ): Promise<Response> {
    return send(urlOrConfig, config);
  }
}

// Overloads with no implementation after them: each is one.
export interface Getter {
  get(key: string): string;
  get(key: string, fallback: string): string;
  get(key: string, fallback: number): string | number;
}

export const createRouter = <TRoutes extends Routes>(
  routes: TRoutes,
  options?: RouterOptions,
): Router<TRoutes> => {
  return new Router(routes);
};
"#;

#[test]
fn python_signatures() {
    insta::assert_snapshot!(signatures(Lang::Python, PYTHON_SIGNATURES));
}

#[test]
fn rust_signatures() {
    insta::assert_snapshot!(signatures(Lang::Rust, RUST_SIGNATURES));
}

#[test]
fn typescript_signatures() {
    insta::assert_snapshot!(signatures(Lang::TypeScript, TYPESCRIPT_SIGNATURES));
}
