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
