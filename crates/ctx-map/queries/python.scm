; Definitions. A function inside a class body is reported as a method by the code.
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
; Type aliases: `Scope = MutableMapping[str, Any]`, `Handler = t.Callable[..., None]` (a
; generic's name is a class's, never an ALL_CAPS constant's: `FIRST = ITEMS[0]` is data),
; `X: TypeAlias = …`, `type X = …`. The same assignment is a constant too; the type wins.
(module (expression_statement (assignment left: (identifier) @name right: (subscript value: (_) @generic)) @definition.type)
  (#match? @generic "^((typing|t|typing_extensions|te|abc|collections[.]abc)[.])?([A-Z][a-z][A-Za-z0-9_]*|list|dict|tuple|set|frozenset|type)$"))
(module (expression_statement (assignment left: (identifier) @name type: (type) @alias) @definition.type)
  (#match? @alias "^((typing|t|typing_extensions|te)[.])?TypeAlias$"))
(module (type_alias_statement left: (type (identifier) @name)) @definition.type)
; A module's constants, less type variables (`T = t.TypeVar("T")`): they only alias types.
(module (expression_statement (assignment left: (identifier) @name right: (_) @value) @definition.constant)
  (#not-match? @value "^((typing|t|typing_extensions|te)[.])?(TypeVar|ParamSpec|TypeVarTuple)[(]"))

; References. `@reference.method` is a call on `self` or `cls`, which only a method answers;
; `@reference.member` one on anything else (`x.f()`), which anything may, unless its `@object`
; says more (see `tags::qualified`); every other use names a function, class or constant,
; never a method.
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @object attribute: (identifier) @name)
  (#not-match? @object "^(self|cls)$")) @reference.member
(call function: (attribute object: (identifier) @object attribute: (identifier) @name)
  (#match? @object "^(self|cls)$")) @reference.method
(decorator (identifier) @name) @reference.call
(decorator (call function: (identifier) @name)) @reference.call
(class_definition superclasses: (argument_list (identifier) @name)) @reference.type
(class_definition superclasses: (argument_list (attribute object: (_) @object attribute: (identifier) @name))) @reference.member
(type (identifier) @name) @reference.type
(generic_type (identifier) @name) @reference.type
(import_from_statement name: (dotted_name (identifier) @name .)) @reference.import
(import_from_statement name: (aliased_import name: (dotted_name (identifier) @name .))) @reference.import
(import_statement name: (dotted_name (identifier) @name .)) @reference.import
(import_statement name: (aliased_import name: (dotted_name (identifier) @name .))) @reference.import
; Names the file binds to a module (`import os.path`, `import numpy as np`).
(import_statement name: (dotted_name . (identifier) @module))
(import_statement name: (aliased_import alias: (identifier) @module))
