"""The command layer: argv in, rows, a terminal row, a page and an exit code out."""
