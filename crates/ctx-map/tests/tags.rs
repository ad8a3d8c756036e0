//! Each language's fixture yields the expected definitions and references.

use ctx_map::lang::Lang;
use ctx_map::tags::{FileTags, extract};

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
    for (name, count) in &tags.refs {
        out.push_str(&format!("  {name} ×{count}\n"));
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
        return sum_prices(self.items)

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
