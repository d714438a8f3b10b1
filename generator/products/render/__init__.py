"""The rendering core: faces as display lists, their PDF and PNG backends, the typeface, units,
sheets and colour. It imports neither the products nor the output transaction."""
