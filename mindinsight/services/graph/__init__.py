"""The computational graph: a node tree by name scope (model) and its queries."""
