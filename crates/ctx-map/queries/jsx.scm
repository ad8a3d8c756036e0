; JSX (JavaScript and TSX): a component used is a component called.
(jsx_opening_element name: (identifier) @name) @reference.call
(jsx_self_closing_element name: (identifier) @name) @reference.call
