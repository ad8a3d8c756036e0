; TypeScript additions to javascript.scm (compiled together for TS and TSX).
(function_signature name: (identifier) @name) @definition.function
(method_signature name: (property_identifier) @name) @definition.method
; A class field holding a function is a method: Hono's `json = (object, init) => …`.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method
(abstract_method_signature name: (property_identifier) @name) @definition.method
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(module name: (identifier) @name) @definition.module
(internal_module name: (identifier) @name) @definition.module

(type_identifier) @name @reference.type
(nested_type_identifier name: (type_identifier) @name) @reference.type
(extends_clause value: (identifier) @name) @reference.type
; A function cast to its type, TypeScript's way to type an overloaded one: zustand's
; `export const createStore = ((createState) => …) as CreateStore`.
(lexical_declaration
  (variable_declarator name: (identifier) @name
    value: [(as_expression . [(arrow_function) (function_expression)
                               (parenthesized_expression [(arrow_function) (function_expression)])])
            ; Cast twice (swr's `const mutation = (() => …) as unknown as Middleware`).
            (as_expression . (as_expression . [(arrow_function) (function_expression)
                               (parenthesized_expression [(arrow_function) (function_expression)])]))
            (satisfies_expression . [(arrow_function) (function_expression)
                                     (parenthesized_expression [(arrow_function) (function_expression)])])]) @definition.function)
; A constant so cast (`export const DEFAULTS = { … } as const`).
(program (lexical_declaration
  (variable_declarator name: (identifier) @name
    value: [(as_expression . [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (member_expression) (identifier)])
            (as_expression . (as_expression . [(object) (new_expression) (call_expression) (member_expression) (identifier)]))
            (satisfies_expression . [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (member_expression) (identifier)])]) @definition.constant))
(program (export_statement (lexical_declaration
  (variable_declarator name: (identifier) @name
    value: [(as_expression . [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (member_expression) (identifier)])
            (as_expression . (as_expression . [(object) (new_expression) (call_expression) (member_expression) (identifier)]))
            (satisfies_expression . [(number) (string) (template_string) (object) (array) (new_expression) (call_expression) (member_expression) (identifier)])]) @definition.constant)))
