; Definitions. A function inside an impl or trait is reported as a method by the code.
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(type_item name: (type_identifier) @name) @definition.type
(trait_item name: (type_identifier) @name) @definition.trait
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(impl_item type: (_) @name) @definition.impl

; References. `@reference.method` is a call on a value (`x.f()`), which only a method
; answers; `@reference.member` a path, whose `@object` says which (`T::f()` a method,
; `module::f()` not: see `tags::qualified`); every other use names a function, type or
; constant, never a method.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.method
(call_expression function: (scoped_identifier path: (_) @object name: (identifier) @name)) @reference.member
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (scoped_identifier path: (_) @object name: (identifier) @name))) @reference.member
(macro_invocation macro: (identifier) @name) @reference.call
(macro_invocation macro: (scoped_identifier name: (identifier) @name)) @reference.call
(type_identifier) @name @reference.type
(scoped_identifier path: (identifier) @name) @reference.type
(struct_expression name: (type_identifier) @name) @reference.call
(use_declaration argument: (identifier) @name) @reference.import
(use_declaration argument: (scoped_identifier name: (identifier) @name)) @reference.import
(use_list (identifier) @name) @reference.import
(use_list (scoped_identifier name: (identifier) @name)) @reference.import
(use_as_clause path: (scoped_identifier name: (identifier) @name)) @reference.import
(use_as_clause path: (identifier) @name) @reference.import
