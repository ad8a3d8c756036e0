; Definitions (JavaScript; also the base of TypeScript's).
(method_definition name: (property_identifier) @name) @definition.method
(class_declaration name: (_) @name) @definition.class
(class name: (_) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
; A named function expression defines its name wherever it is: `export default
; isSupported && function httpAdapter(config) {…}` (and the functions inside it are its own).
(function_expression name: (identifier) @name) @definition.function
(lexical_declaration
  (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function)
(variable_declaration
  (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression)]) @definition.function)
(program (lexical_declaration
  (variable_declarator name: (identifier) @name value: [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (binary_expression) (member_expression) (identifier)]) @definition.constant))
(program (export_statement (lexical_declaration
  (variable_declarator name: (identifier) @name value: [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (binary_expression) (member_expression) (identifier)]) @definition.constant)))
(assignment_expression
  left: (identifier) @name
  right: [(arrow_function) (function_expression)]) @definition.function
(assignment_expression
  left: (member_expression object: (_) @_object property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]
  (#not-match? @_object "[.]prototype$")) @definition.function
; `Hooks.prototype.validate = function` is a method: a bare `validate()` elsewhere is not it.
(assignment_expression
  left: (member_expression object: (member_expression property: (property_identifier) @_prototype)
                           property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]
  (#eq? @_prototype "prototype")) @definition.method
(pair key: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.function

; References. `@reference.method` is a call on `this`, which only a method answers;
; `@reference.member` one on anything else (`x.f()`), which anything may, unless its `@object`
; is a module (`ns.f()`: see `tags::qualified`); every other use names a function, class or
; constant, never a method.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @object property: (property_identifier) @name)
  (#not-eq? @object "this")) @reference.member
(call_expression function: (member_expression object: (this) property: (property_identifier) @name)) @reference.method
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression object: (_) @object property: (property_identifier) @name)) @reference.member
(import_specifier name: (identifier) @name) @reference.import
(import_clause (identifier) @name) @reference.import
(export_specifier name: (identifier) @name) @reference.export
(export_statement value: (identifier) @name) @reference.export
; What a CommonJS module exports: `module.exports = fastify`, `module.exports = { a, b: c }`,
; `exports.a = a`, `module.exports.a = a`.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (identifier) @name
  (#eq? @_module "module") (#eq? @_exports "exports")) @reference.export
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (object [(shorthand_property_identifier) @name (pair value: (identifier) @name)])
  (#eq? @_module "module") (#eq? @_exports "exports")) @reference.export
; `module.exports = class Application extends Emitter {…}` (koa's), `module.exports = function f () {}`:
; the name defined there is passed on too.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: [(class name: (_) @name) (function_expression name: (identifier) @name)]
  (#eq? @_module "module") (#eq? @_exports "exports")) @reference.export
(assignment_expression
  left: (member_expression object: [(identifier) @_exports (member_expression property: (property_identifier) @_exports)])
  right: (identifier) @name
  (#eq? @_exports "exports")) @reference.export
; An ES import is a use of the keyword, as a CommonJS one is a call of `require`: the file
; is a module (`exports.rs`).
(import_statement "import" @name) @reference.call
; Names the file binds to a module (`import * as ns from "m"`, `const m = require("m")`).
(namespace_import (identifier) @module)
(variable_declarator name: (identifier) @module
  value: (call_expression function: (identifier) @require arguments: (arguments (string)))
  (#eq? @require "require"))
; What a file takes from another module (`const m = require("m")`, `const f =
; require("m").f`) is an import, not a definition of its own (fastify's test files
; each "defined" `const Fastify = require('..')`).
(variable_declarator name: (identifier) @import
  value: [(call_expression function: (identifier) @require arguments: (arguments (string)))
          (member_expression object: (call_expression function: (identifier) @require arguments: (arguments (string))))]
  (#eq? @require "require"))
; So is a name for what is defined elsewhere (`const toString =
; Object.prototype.toString`, `const kHooks = symbols.kHooks`): an alias, whose
; uses would take the references meant for the real one.
(variable_declarator name: (identifier) @import
  value: (member_expression object: [(identifier) (member_expression)]))
